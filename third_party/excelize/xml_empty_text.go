// registry-sidecar: a formula's cached empty text (PATCHES.md).

package excelize

import "encoding/xml"

// SetEmptyTextResult marks (on) or unmarks the formula's cell as caching an
// empty text (CLEAN(""), IFNA(A1,"")): with t="str", excelize then writes an
// empty <v> after the <f> element, as Excel does, where encoding/xml would
// omit the empty value and leave the formula uncomputed to a reader. The
// mark belongs to this formula element: a value written to the cell
// removes the formula, and the mark with it.
func (f *xlsxF) SetEmptyTextResult(on bool) {
	f.emptyText = on
}

// MarshalXML writes the <f> element as encoding/xml would, followed by an
// empty <v> when SetEmptyTextResult marked it.
func (f *xlsxF) MarshalXML(e *xml.Encoder, start xml.StartElement) error {
	type plain xlsxF // the same fields without this method
	if err := e.EncodeElement((*plain)(f), start); err != nil {
		return err
	}
	if !f.emptyText {
		return nil
	}
	v := xml.StartElement{Name: xml.Name{Local: "v"}}
	if err := e.EncodeToken(v); err != nil {
		return err
	}
	return e.EncodeToken(v.End())
}
