package excelops

import (
	"reflect"
	"strings"
)

// chartNS is the namespace of the c: prefix of a drawing's chart frame.
const chartNS = "http://schemas.openxmlformats.org/drawingml/2006/chart"

// redeclareChartPrefix repairs the drawings excelize re-encoded while
// moving their anchors on an insert or delete of rows or columns: it
// rewrites each anchor's graphic frame and drops the xmlns:c declaration
// Excel and openpyxl put on <c:chart>, leaving an unbound prefix that
// makes the drawing unreadable (openpyxl: "unbound prefix"). The frames
// are the exported GraphicFrame strings of the anchors excelize keeps in
// File.Drawings, reached through reflection; a shape it does not expect
// is left alone.
func (b *book) redeclareChartPrefix() {
	b.f.Drawings.Range(func(_, dr any) bool {
		v := reflect.ValueOf(dr)
		if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
			return true
		}
		for _, field := range []string{"TwoCellAnchor", "OneCellAnchor", "AbsoluteAnchor"} {
			list := v.Elem().FieldByName(field)
			if !list.IsValid() || list.Kind() != reflect.Slice {
				continue
			}
			for i := 0; i < list.Len(); i++ {
				a := reflect.Indirect(list.Index(i))
				if a.Kind() != reflect.Struct {
					continue
				}
				frame := a.FieldByName("GraphicFrame")
				if frame.Kind() == reflect.String && frame.CanSet() {
					frame.SetString(declareChartPrefix(frame.String()))
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
