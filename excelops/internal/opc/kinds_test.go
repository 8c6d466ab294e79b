package opc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSheetKind: the relationship's type decides, the part's folder when
// the type says nothing.
func TestSheetKind(t *testing.T) {
	for _, c := range []struct{ relType, part, want string }{
		{"http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet", "xl/worksheets/sheet1.xml", Worksheet},
		{"http://schemas.openxmlformats.org/officeDocument/2006/relationships/chartsheet", "xl/chartsheets/sheet1.xml", Chartsheet},
		{"http://schemas.microsoft.com/office/2006/relationships/xlMacrosheet", "xl/worksheets/sheet2.xml", Macrosheet},
		{"http://schemas.microsoft.com/office/2006/relationships/xlIntlMacrosheet", "xl/macrosheets/intl1.xml", Macrosheet},
		{"http://schemas.openxmlformats.org/officeDocument/2006/relationships/dialogsheet", "xl/dialogsheets/sheet1.xml", Dialogsheet},
		{"", "xl/macrosheets/sheet1.xml", Macrosheet},
		{"", "xl/chartsheets/sheet1.xml", Chartsheet},
		{"", "xl/worksheets/sheet1.xml", Worksheet},
	} {
		assert.Equal(t, c.want, SheetKind(c.relType, c.part), "%s %s", c.relType, c.part)
	}
}
