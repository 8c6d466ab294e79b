package tools

import (
	"fmt"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainFormulaIntersected: a workbook made before Excel 365 (plain
// formulas, no dynamic array metadata) holds =A1:A10*2 in row 5, which
// Excel computes as A5*2 (implicit intersection), and in row 12, outside
// the range, #VALUE!; a write to A5 recomputes them so, and keeps them
// plain formulas. SUM(A1:A10*2), which the engine does not intersect,
// stays without a value. The oracle case intersection_plain_formulas
// (tests/oracle/cases_intersection.py) checks the same against LibreOffice.
func TestPlainFormulaIntersected(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for i := 1; i <= 10; i++ {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i), i*i))
	}
	for ref, formula := range map[string]string{"D5": "A1:A10*2", "D12": "A1:A10*2", "E5": "SUM(A1:A10*2)", "F5": "A1:A10"} {
		require.NoError(t, f.SetCellFormula("Sheet1", ref, formula))
	}
	require.NoError(t, f.SaveAs(e.path("old.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "old.xlsx", "cell": "A5", "value": 7})
	got := e.ok("read_excel", map[string]any{"file_path": "old.xlsx", "cell_range": "D5:F5"})
	assert.Equal(t, []any{[]any{14.0, "=SUM(A1:A10*2)", 7.0}}, got["values"], got)
	assert.Equal(t, "#VALUE!", e.value("old.xlsx", "Sheet1", "D12"))
	sheet := part(t, e.path("old.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="D5"><f>A1:A10*2</f><v>14</v></c>`)
}
