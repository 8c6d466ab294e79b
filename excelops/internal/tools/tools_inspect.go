package tools

// inspectTools are the analysis tools an agent calls before it edits:
// inspect_excel_files (tool_inspect.go) and scan_excel_snapshot
// (tool_snapshot.go), compare_excel (tool_compare.go).
func inspectTools() []toolSpec {
	return []toolSpec{inspectExcelFilesTool, scanExcelSnapshotTool, compareExcelTool}
}
