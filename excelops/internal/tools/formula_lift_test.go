package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLiftedFunctionsSpill: a function given a range where it takes one
// value, written with write_cells, is a dynamic array formula as Excel 365
// stores one: LEN(B1:B3) spills 5;1;6, IF over a comparison spills its
// texts, SUM(IF(A1:A3>1,1,0)) is an array formula over its own cell
// holding 2, SUMPRODUCT(LEN(B1:B3)) an ordinary formula holding 12; read
// back with read_excel, and recomputed after an edit of what they read.
func TestLiftedFunctionsSpill(t *testing.T) {
	e := newEnv(t)
	e.workbook("l.xlsx", [][]any{{1, "apple"}, {2, "x"}, {3, "banana"}})
	e.ok("write_cells", map[string]any{"file_path": "l.xlsx", "cell_range": "D1", "values": [][]any{
		{"=LEN(B1:B3)", `=IF(A1:A3>1,"big","small")`, "=SUM(IF(A1:A3>1,1,0))", "=SUMPRODUCT(LEN(B1:B3))"},
	}})
	got := e.ok("read_excel", map[string]any{"file_path": "l.xlsx", "cell_range": "D1:G3"})
	assert.Equal(t, []any{
		[]any{5.0, "small", 2.0, 12.0},
		[]any{1.0, "big", nil, nil},
		[]any{6.0, "big", nil, nil},
	}, got["values"], got)
	sheet := part(t, e.path("l.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="D1" cm="1"><f t="array" ref="D1:D3">LEN(B1:B3)</f><v>5</v></c>`)
	assert.Contains(t, sheet, `<c r="F1" cm="1"><f t="array" ref="F1">SUM(IF(A1:A3&gt;1,1,0))</f><v>2</v></c>`)
	assert.Contains(t, sheet, `<c r="G1"><f>SUMPRODUCT(LEN(B1:B3))</f><v>12</v></c>`)

	e.ok("write_cells", map[string]any{"file_path": "l.xlsx", "cell_range": "A1:B1", "values": [][]any{{5, "kiwis"}}})
	got = e.ok("read_excel", map[string]any{"file_path": "l.xlsx", "cell_range": "D1:G1"})
	assert.Equal(t, []any{[]any{5.0, "big", 3.0, 12.0}}, got["values"], got)
}
