package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestRangeArithmeticRecomputed: a one-value formula whose operators apply
// to ranges (a dynamic array formula over its own cell) and a spilled
// operator result follow an edit of what they read (SUM(A1:A3*B1:B3) is
// 1*4+2*5+3*6 = 32, then 10*4+2*5+3*6 = 68), and stay array formulas.
func TestRangeArithmeticRecomputed(t *testing.T) {
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{1, 4}, {2, 5}, {3, 6}})
	e.ok("write_cells", map[string]any{"file_path": "r.xlsx", "cell_range": "D1", "values": [][]any{{"=SUM(A1:A3*B1:B3)", "=A1:A3*2"}}})
	assert.Equal(t, "32", e.value("r.xlsx", "Sheet1", "D1"))
	assert.Equal(t, "6", e.value("r.xlsx", "Sheet1", "E3"))
	e.ok("write_cells", map[string]any{"file_path": "r.xlsx", "cell": "A1", "value": 10})
	assert.Equal(t, "68", e.value("r.xlsx", "Sheet1", "D1"))
	assert.Equal(t, "20", e.value("r.xlsx", "Sheet1", "E1"))
	sheet := part(t, e.path("r.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="D1" cm="1"><f t="array" ref="D1">SUM(A1:A3*B1:B3)</f><v>68</v></c>`)
	assert.Contains(t, sheet, `<c r="E1" cm="1"><f t="array" ref="E1:E3">A1:A3*2</f><v>20</v></c>`)
}
