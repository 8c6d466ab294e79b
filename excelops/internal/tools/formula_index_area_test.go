package tools

import (
	"fmt"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainIndexAreaIntersected: a workbook made before Excel 365 holds
// plain formulas taking a whole column or row with INDEX; a write to A5
// recomputes them as Excel and LibreOffice do (the oracle case
// intersection_index_area checks the same values against LibreOffice
// 25.2): the cell of the column in the formula's row, #VALUE! in a row
// outside it, the whole column inside SUM; SUM of an operator on it,
// which Excel intersects and the engine does not, stays without a value.
func TestPlainIndexAreaIntersected(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for i := 1; i <= 10; i++ {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i), i*i))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i), i*10))
	}
	for ref, formula := range map[string]string{"E5": "INDEX(A1:A10,0)", "E12": "INDEX(A1:A10,0)",
		"F5": "INDEX(A1:B10,0,1)*2", "G5": "SUM(INDEX(A1:B10,0,1))", "H5": "SUM(INDEX(A1:B10,0,1)*2)",
		"A12": "INDEX(A5:B5,1,0)"} {
		require.NoError(t, f.SetCellFormula("Sheet1", ref, formula))
	}
	require.NoError(t, f.SaveAs(e.path("old.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "old.xlsx", "cell": "A5", "value": 7})
	got := e.ok("read_excel", map[string]any{"file_path": "old.xlsx", "cell_range": "E5:H5"})
	assert.Equal(t, []any{[]any{7.0, 14.0, 367.0, "=SUM(INDEX(A1:B10,0,1)*2)"}}, got["values"], got)
	assert.Equal(t, "#VALUE!", e.value("old.xlsx", "Sheet1", "E12"))
	assert.Equal(t, "7", e.value("old.xlsx", "Sheet1", "A12"))
	sheet := part(t, e.path("old.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="E5"><f>INDEX(A1:A10,0)</f><v>7</v></c>`, "still a plain formula")
}

// TestWriteCellsIndexAreaSpills: written by write_cells (a dynamic array
// formula, as Excel 365 enters it), INDEX with a row or column of 0 spills
// the column, row or area; SUM of an operator on it is an array formula
// over its own cell; INDEX of one cell and SUM of the column are ordinary
// formulas. The oracle case spill_index_area checks the values against
// LibreOffice 25.2.
func TestWriteCellsIndexAreaSpills(t *testing.T) {
	cases := []struct {
		name, formula, anchorXML string
		want                     map[string]string // cell -> value ("" must be empty)
	}{
		{"a column", "=INDEX(A1:B3,0,1)",
			`<c r="D1" cm="1"><f t="array" ref="D1:D3">INDEX(A1:B3,0,1)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "D2": "1", "D3": "3", "D4": ""}},
		{"a row", "=INDEX(A1:B3,3,0)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E1">INDEX(A1:B3,3,0)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "E1": "ink", "D2": ""}},
		{"the whole area", "=INDEX(A1:B2,0,0)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E2">INDEX(A1:B2,0,0)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "E1": "pens", "D2": "1", "E2": "pads", "D3": "", "F1": ""}},
		{"a column under an operator", "=INDEX(A1:A5,0)*10",
			`<c r="D1" cm="1"><f t="array" ref="D1:D5">INDEX(A1:A5,0)*10</f><v>30</v></c>`,
			map[string]string{"D1": "30", "D5": "10", "D6": ""}},
		{"sum of an operator on a column", "=SUM(INDEX(A1:B5,0,1)*2)",
			`<c r="D1" cm="1"><f t="array" ref="D1">SUM(INDEX(A1:B5,0,1)*2)</f><v>20</v></c>`,
			map[string]string{"D1": "20", "D2": ""}},
		{"sum of a column", "=SUM(INDEX(A1:B5,0,1))",
			`<c r="D1"><f>SUM(INDEX(A1:B5,0,1))</f><v>10</v></c>`,
			map[string]string{"D1": "10", "D2": ""}},
		{"one cell", "=INDEX(A1:B5,4,1)",
			`<c r="D1"><f>INDEX(A1:B5,4,1)</f><v>2</v></c>`,
			map[string]string{"D1": "2", "D2": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			spillBook(e)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": tc.formula})
			assert.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), tc.anchorXML)
			f := e.open("s.xlsx")
			for cell, want := range tc.want {
				got, err := f.GetCellValue("Sheet1", cell)
				require.NoError(t, err)
				assert.Equal(t, want, got, cell)
			}
		})
	}
}
