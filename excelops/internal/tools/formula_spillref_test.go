package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpillReferences writes formulas reading a whole spill (C3#): stored
// as Excel stores them, read back as typed, computed over the spill as it
// is now, and recomputed when the spill changes size; =C3# spills a copy;
// a spill reference to a cell that anchors nothing has no value.
func TestSpillReferences(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell_range": "E1", "values": [][]any{{"=SUM(C3#)", "=ROWS(Sheet1!$C$3#)", "=C3#"}}})
	sheet := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<f>SUM(_xlfn.ANCHORARRAY(C3))</f><v>6</v>`)
	assert.Contains(t, sheet, `<f>ROWS(_xlfn.ANCHORARRAY(Sheet1!$C$3))</f><v>3</v>`)
	assert.Contains(t, sheet, `<c r="G1" cm="1"><f t="array" ref="G1:G3">_xlfn.ANCHORARRAY(C3)</f><v>1</v></c>`)
	got := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "cell_range": "E1:G1", "formulas": "formulas"})
	require.NotEmpty(t, got["values"])
	assert.Equal(t, []any{"=SUM(C3#)", "=ROWS(Sheet1!$C$3#)", "=C3#"}, got["values"].([]any)[0])
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(4,1,10)"})
	assert.Equal(t, "46", e.value("s.xlsx", "Sheet1", "E1"))
	assert.Equal(t, "4", e.value("s.xlsx", "Sheet1", "F1"))
	for i, want := range []string{"10", "11", "12", "13"} {
		assert.Equal(t, want, e.value("s.xlsx", "Sheet1", grid.CellName(7, i+1)))
	}
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "H1", "value": "=SUM(A9#)"})
	assert.NotEqual(t, "0", e.value("s.xlsx", "Sheet1", "H1"), "no spill at A9: #REF! in Excel, never a number")
}
