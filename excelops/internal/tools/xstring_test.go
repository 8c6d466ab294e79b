package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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

// xstringTexts are texts whose file form differs from them: a control
// character XML cannot hold, a literal text that reads as an escape, both.
var xstringTexts = []struct{ text, xml string }{
	{"\x04abc", "_x0004_abc"},
	{"_x0041_", "_x005F_x0041_"},
	{"a\x1Fb_x005F_\uFFFF", "a_x001F_b_x005F_x005F__xFFFF_"},
}

// TestWrittenTextIsAnXstring checks that write_cells stores a text as
// Excel does (_x0004_ for U+0004, _x005F_ before an escape-like text) on
// both save paths, and that read_excel and excelize read the text back. A
// text that reads as an escape goes to the shared strings on either path
// (the splice path hands it over), where openpyxl decodes it too.
func TestWrittenTextIsAnXstring(t *testing.T) {
	controls := []int{0}    // no escape-like piece
	every := []int{0, 1, 2} // all of xstringTexts
	const sheetPart, sharedPart = "xl/worksheets/sheet1.xml", "xl/sharedStrings.xml"
	for _, c := range []struct {
		name   string
		splice bool
		texts  []int  // indexes in xstringTexts
		part   string // where the texts land
	}{
		{"splice path", true, controls, sheetPart},
		{"excelize path", false, every, sharedPart},
		{"escape-like text, splice on", true, every, sharedPart},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, WithSplice(c.splice))
			e.workbook("t.xlsx", [][]any{{"x"}})
			before := entryCRCs(t, e.path("t.xlsx"))
			var col [][]any
			var want []any
			for _, i := range c.texts {
				col, want = append(col, []any{xstringTexts[i].text}), append(want, []any{xstringTexts[i].text})
			}
			e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell_range": "B1", "values": col})
			after := entryCRCs(t, e.path("t.xlsx"))
			assert.Equal(t, c.part == sheetPart, before[sharedPart] == after[sharedPart], "the path taken")
			xml := e.zipPart("t.xlsx", c.part)
			assert.NotContains(t, xml, "\uFFFD")
			for row, i := range c.texts {
				x := xstringTexts[i]
				assert.Contains(t, xml, ">"+x.xml+"<", x.text)
				assert.Equal(t, x.text, e.value("t.xlsx", "Sheet1", grid.CellName(2, row+1)), "excelize reads the text")
			}
			got := e.ok("read_excel", map[string]any{"file_path": "t.xlsx", "range": grid.CellName(2, 1) + ":" + grid.CellName(2, len(c.texts))})
			assert.Equal(t, want, got["values"])
		})
	}
}

// escapedBook writes a workbook holding xstringTexts as a file made by
// Excel holds them: escaped shared strings in A1:A3, the same texts as
// escaped inline strings (excelize's stream writer) in B1:B3.
func (e *env) escapedBook(name string) {
	e.t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet2")
	if err != nil {
		_, err = f.NewSheet("Sheet2")
		require.NoError(e.t, err)
		sw, err = f.NewStreamWriter("Sheet2")
	}
	require.NoError(e.t, err)
	for i, x := range xstringTexts {
		require.NoError(e.t, f.SetCellStr("Sheet1", grid.CellName(1, i+1), x.text))
		require.NoError(e.t, sw.SetRow(grid.CellName(1, i+1), []any{x.text}))
	}
	require.NoError(e.t, sw.Flush())
	require.NoError(e.t, f.SaveAs(e.path(name)))
	shared, inline := e.zipPart(name, "xl/sharedStrings.xml"), e.zipPart(name, "xl/worksheets/sheet2.xml")
	for _, x := range xstringTexts {
		require.Contains(e.t, shared, ">"+x.xml+"<")
		require.Contains(e.t, inline, "<is><t>"+x.xml+"</t></is>")
	}
}

// TestEscapedTextReads checks that the tools reading sheet XML themselves
// (read_excel, search_excel_values) decode the escapes of shared and
// inline strings, and that find_replace keeps a changed text escaped.
func TestEscapedTextReads(t *testing.T) {
	for _, on := range []bool{true, false} {
		e := newEnv(t, WithSplice(on))
		e.escapedBook("e.xlsx")
		var want []any
		for _, x := range xstringTexts {
			want = append(want, []any{x.text})
		}
		for _, sheet := range []string{"Sheet1", "Sheet2"} {
			got := e.ok("read_excel", map[string]any{"file_path": "e.xlsx", "sheet_name": sheet, "range": "A1:A3"})
			assert.Equal(t, want, got["values"], sheet)
		}
		got := e.ok("search_excel_values", map[string]any{"file_path": "e.xlsx", "query": "_x0041_", "match_mode": "exact"})
		assert.Equal(t, float64(2), got["total_matches"], "the literal text, once per sheet")
		got = e.ok("search_excel_values", map[string]any{"file_path": "e.xlsx", "query": "\x04abc", "match_mode": "exact"})
		assert.Equal(t, float64(2), got["total_matches"], "the control character")

		// the calculator reads the texts, not their file form (the splice
		// path copies the cells a formula reads into a scratch workbook)
		e.ok("write_cells", map[string]any{"file_path": "e.xlsx", "cell_range": "C1",
			"values": [][]any{{"=LEN(A1)", "=LEN(A2)", "=CODE(A1)", "=LEN(Sheet2!A2)"}}})
		got = e.ok("read_excel", map[string]any{"file_path": "e.xlsx", "range": "C1:F1"})
		assert.Equal(t, []any{[]any{float64(4), float64(7), float64(4), float64(7)}}, got["values"])

		e.ok("find_replace", map[string]any{"file_path": "e.xlsx", "find": "abc", "replace": "xyz"})
		e.ok("find_replace", map[string]any{"file_path": "e.xlsx", "find": "41", "replace": "42"})
		for _, sheet := range []string{"Sheet1", "Sheet2"} {
			got := e.ok("read_excel", map[string]any{"file_path": "e.xlsx", "sheet_name": sheet, "range": "A1:A2"})
			assert.Equal(t, []any{[]any{"\x04xyz"}, []any{"_x0042_"}}, got["values"], sheet)
		}
		shared := e.zipPart("e.xlsx", "xl/sharedStrings.xml")
		assert.Contains(t, shared, ">_x0004_xyz<")
		assert.Contains(t, shared, ">_x005F_x0042_<")
	}
}

// TestSpilledTextEscapedInTheFile checks that the texts of a dynamic
// array's spill are stored as Excel stores them and read back as texts.
func TestSpilledTextEscapedInTheFile(t *testing.T) {
	for _, on := range []bool{true, false} {
		e := newEnv(t, WithSplice(on))
		e.workbook("s.xlsx", [][]any{{"x"}})
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "B1", "value": `=SEQUENCE(2)&UNICHAR(4)&"_x0041_"`})
		xml := e.zipPart("s.xlsx", "xl/worksheets/sheet1.xml") + e.zipPart("s.xlsx", "xl/sharedStrings.xml")
		assert.Contains(t, xml, ">1_x0004__x005F_x0041_<", "the anchor's cached text")
		assert.Contains(t, xml, ">2_x0004__x005F_x0041_<", "a spilled text")
		got := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "range": "B1:B2"})
		assert.Equal(t, []any{[]any{"1\x04_x0041_"}, []any{"2\x04_x0041_"}}, got["values"])
		// a spill computed again when a cell it reads changes
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C1", "value": `=SEQUENCE(2)&UNICHAR(5)&A1`})
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "A1", "value": "_x0042_"})
		got = e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "range": "C1:C2"})
		assert.Equal(t, []any{[]any{"1\x05_x0042_"}, []any{"2\x05_x0042_"}}, got["values"], "splice %v", on)
		assert.Equal(t, "1\x05_x0042_", e.value("s.xlsx", "Sheet1", "C1"))
	}
}
