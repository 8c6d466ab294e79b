package tools

// referenceTools are the read-only reference analysis tools: the
// workbook's reference map, tracing a cell's precedents and dependents,
// and the impact of changing a cell (tool_refmap.go, tool_trace.go).
func referenceTools() []toolSpec {
	return []toolSpec{referenceMapTool, traceReferencesTool, impactAnalysisTool}
}
