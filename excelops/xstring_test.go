package excelops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestXstring(t *testing.T) {
	for _, c := range []struct{ text, xml string }{
		{"plain", "plain"},
		{"\x04", "_x0004_"},
		{"a\x00b\x1Fc", "a_x0000_b_x001F_c"},
		{"tab\tline\nret\r", "tab\tline\nret\r"},
		{"\uFFFE\uFFFF", "_xFFFE__xFFFF_"},
		{"_x0041_", "_x005F_x0041_"},
		{"_x005F_", "_x005F_x005F_"},
		{"_x12_ _xGHIJ_ _x", "_x12_ _xGHIJ_ _x"},
		{"é\x07€", "é_x0007_€"},
	} {
		assert.Equal(t, c.xml, escapeXstring(c.text), c.text)
		assert.Equal(t, c.text, unescapeXstring(c.xml), c.xml)
	}
	assert.Equal(t, "A", unescapeXstring("_x0041_"), "Excel's escape of any character")
}

// TestFormulaTextEscapedInTheFile checks that a formula's text result
// holding a control character or an escape-like text is cached as Excel
// writes it and read back as the text.
func TestFormulaTextEscapedInTheFile(t *testing.T) {
	e := newEnv(t)
	e.workbook("t.xlsx", [][]any{{"x"}})
	e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell_range": "B1",
		"values": [][]any{{`=UNICHAR(4)&"a"`}, {`="_x0041_"`}}})
	sheet := e.zipPart("t.xlsx", "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, "<v>_x0004_a</v>")
	assert.Contains(t, sheet, "<v>_x005F_x0041_</v>")
	got := e.ok("read_excel", map[string]any{"file_path": "t.xlsx", "range": "B1:B2"})
	assert.Equal(t, []any{[]any{"\x04a"}, []any{"_x0041_"}}, got["values"])
	// INDIRECT reads anything: the write takes the excelize path
	e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell": "C1", "value": `=UNICHAR(7)&INDIRECT("A1")`})
	assert.Contains(t, e.zipPart("t.xlsx", "xl/worksheets/sheet1.xml"), "<v>_x0007_x</v>")
	got = e.ok("read_excel", map[string]any{"file_path": "t.xlsx", "range": "C1"})
	assert.Equal(t, []any{[]any{"\ax"}}, got["values"])
}
