package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteCellsImplicitIntersection writes =@A1:A5 and reads it back: the
// file holds _xlfn.SINGLE(A1:A5), as Excel 365 saves @; its value is the
// cell of A1:A5 in the formula's row (Microsoft's "Implicit intersection
// operator: @"), #VALUE! from a row outside it; read_excel shows the @.
func TestWriteCellsImplicitIntersection(t *testing.T) {
	e := newEnv(t)
	e.workbook("i.xlsx", [][]any{{10}, {20}, {30}, {40}, {50}})
	e.ok("write_cells", map[string]any{"file_path": "i.xlsx", "cell": "C3", "value": "=@A1:A5"})
	e.ok("write_cells", map[string]any{"file_path": "i.xlsx", "cell": "C7", "value": "=@A1:A5"})
	sheet := part(t, e.path("i.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="C3"><f>_xlfn.SINGLE(A1:A5)</f><v>30</v></c>`)
	assert.Contains(t, sheet, `<c r="C7" t="e"><f>_xlfn.SINGLE(A1:A5)</f><v>#VALUE!</v></c>`)
	got := e.ok("read_excel", map[string]any{"file_path": "i.xlsx", "cell_range": "C3", "formulas": "formulas"})
	require.NotEmpty(t, got["values"])
	assert.Equal(t, []any{"=@A1:A5"}, got["values"].([]any)[0])
}
