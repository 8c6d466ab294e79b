package excelize

import "strings"

// sheetPartPath is the package part a worksheet relationship's target names
// (registry-sidecar): relative to xl/worksheets (../drawings/vmlDrawing1.vml)
// or absolute (/xl/drawings/commentsDrawing1.vml, as openpyxl writes them).
// Upstream kept an absolute target's leading slash, so a changed drawing was
// saved as a second zip member "/xl/drawings/..." beside the original, a
// package LibreOffice 25.2 refuses to open.
func sheetPartPath(target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(target, "/")
	}
	return "xl" + strings.TrimPrefix(target, "..")
}
