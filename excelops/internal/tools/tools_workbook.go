package tools

// workbookTools are the workbook-level tools: creating and listing
// workbooks, describing one, defining names, copying sheets, clearing and
// deleting ranges. Each is declared in its own file.
func workbookTools() []toolSpec {
	return []toolSpec{createWorkbookTool, listWorkbooksTool, describeWorkbookTool, defineNameTool,
		copySheetTool, clearRangeTool, deleteRangeTool}
}
