package tools

// tools lists every spreadsheet tool in registration order. Each is
// declared with its arguments and its plan in its own file (tool_*.go).
func (s *Service) tools() []toolSpec {
	specs := []toolSpec{listSheetsTool, readExcelTool, writeCellsTool, insertRowsTool, insertColumnsTool,
		deleteRowsTool, deleteColumnsTool, formatCellsTool, readCellStylesTool, adjustColumnWidthTool,
		mergeCellsTool, unmergeCellsTool, addConditionalRuleTool, addDataValidationTool,
		createSheetTool, renameSheetTool, deleteSheetTool, copyRangeTool, createChartTool}
	specs = append(specs, mediaTools()...)
	specs = append(specs, analystTools()...)
	specs = append(specs, workbookTools()...)
	specs = append(specs, referenceTools()...)
	specs = append(specs, inspectTools()...)
	specs = append(specs, analysisTools()...)
	return specs
}
