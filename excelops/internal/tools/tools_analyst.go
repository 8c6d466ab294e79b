package tools

// analystTools are the structure an analyst uses: tables, frozen panes,
// filters, sorting, find and replace, notes and links. Each is declared
// with its body (tool_table.go, tool_view.go with filter_rules.go,
// tool_sort.go with sort_rows.go, tool_find.go, tool_notes.go).
func analystTools() []toolSpec {
	return []toolSpec{createTableTool, freezePanesTool, setAutofilterTool, sortRangeTool,
		findReplaceTool, addCommentTool, setHyperlinkTool}
}
