package engine

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// chartNS is the namespace of the c: prefix of a drawing's chart frame.
const chartNS = "http://schemas.openxmlformats.org/drawingml/2006/chart"

// redeclareChartPrefix repairs the drawings excelize re-encoded while
// moving their anchors on an insert or delete of rows or columns: it
// rewrites each anchor's graphic frame and drops the xmlns:c declaration
// Excel and openpyxl put on <c:chart>, leaving an unbound prefix that
// makes the drawing unreadable (openpyxl: "unbound prefix"). The frames
// are the GraphicFrame strings of the anchors of the drawings excelize
// keeps parsed in File.Drawings.
func (b *Book) redeclareChartPrefix() {
	b.f.Drawings.Range(func(_, v any) bool {
		dr, ok := v.(*excelize.XMLDrawing)
		if !ok || dr == nil {
			return true
		}
		for _, anchors := range [][]*excelize.XMLAnchor{dr.TwoCellAnchor, dr.OneCellAnchor, dr.AbsoluteAnchor} {
			for _, a := range anchors {
				if a != nil {
					a.GraphicFrame = declareChartPrefix(a.GraphicFrame)
				}
			}
		}
		return true
	})
}

// declareChartPrefix adds xmlns:c to every <c:chart element of frame that
// lacks it.
func declareChartPrefix(frame string) string {
	if !strings.Contains(frame, "<c:chart") || strings.Contains(frame, "xmlns:c=") {
		return frame
	}
	return strings.ReplaceAll(frame, "<c:chart ", `<c:chart xmlns:c="`+chartNS+`" `)
}
