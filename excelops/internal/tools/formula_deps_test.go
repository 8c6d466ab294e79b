package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDirtyFormulas(t *testing.T) {
	cell := func(sheet string, col, row int) recalc.SheetArea {
		return recalc.SheetArea{Sheet: sheet, C1: col, R1: row, C2: col, R2: row}
	}
	cells := []recalc.DepCell{
		{At: cell("Report", 1, 1), Deps: []recalc.SheetArea{cell("inputs", 1, 1)}},                          // reads the edit (names compare case-insensitively)
		{At: cell("Deep", 1, 1), Deps: []recalc.SheetArea{cell("Report", 1, 1)}},                            // reads a dirty formula
		{At: cell("Report", 2, 1), Deps: []recalc.SheetArea{cell("Inputs", 2, 1)}},                          // unrelated
		{At: cell("Inputs", 1, 1), Deps: []recalc.SheetArea{cell("Inputs", 9, 9)}},                          // overwritten by the edit
		{At: cell("Other", 1, 1), Wide: true},                                                               // may read anything
		{At: cell("Inputs", 3, 1), Deps: []recalc.SheetArea{{Sheet: "Inputs", C1: 1, R1: 1, C2: 1, R2: 5}}}, // a range holding the edit
	}
	got := recalc.DirtyFormulas(cells, []recalc.SheetArea{cell("Inputs", 1, 1)}, true)
	assert.Equal(t, []bool{true, true, false, true, true, true}, got)
	assert.Equal(t, []bool{false, false, false, false, false, false}, recalc.DirtyFormulas(cells, nil, true))
}

func TestDirtyFormulasLongChainFallsBackToAll(t *testing.T) {
	// B_r reads B_(r-1): each round adds one cell; the check budget ends it.
	n := 3000
	cells := make([]recalc.DepCell, n)
	for r := 1; r <= n; r++ {
		cells[r-1] = recalc.DepCell{At: recalc.SheetArea{Sheet: "S", C1: 2, R1: r, C2: 2, R2: r}, Deps: []recalc.SheetArea{{Sheet: "S", C1: 2, R1: r - 1, C2: 2, R2: r - 1}}}
	}
	cells[0].Deps = []recalc.SheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}
	unrelated := recalc.DepCell{At: recalc.SheetArea{Sheet: "S", C1: 9, R1: 9, C2: 9, R2: 9}, Deps: []recalc.SheetArea{{Sheet: "S", C1: 8, R1: 8, C2: 8, R2: 8}}}
	got := recalc.DirtyFormulas(append(cells, unrelated), []recalc.SheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, true)
	for i, d := range got[:n] {
		require.True(t, d, i)
	}
	assert.True(t, got[n], "past the budget everything counts as dirty")
}

func TestUnrelatedEditKeepsCachedValues(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "12"))
	require.NoError(t, f.SetCellValue("Sheet1", "B1", 12)) // WEBSERVICE: Excel's, not the engine's
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", `WEBSERVICE(A1)`))
	require.NoError(t, f.SetCellValue("Sheet1", "C1", 3))
	require.NoError(t, f.SetCellFormula("Sheet1", "C1", "D1*3"))
	require.NoError(t, f.SaveAs(e.path("u.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "u.xlsx", "cell": "D1", "value": 2})
	got := e.ok("read_excel", map[string]any{"file_path": "u.xlsx", "range": "B1:C1"})
	assert.Equal(t, []any{[]any{"12", 6.0}}, got["values"], "B1 does not read D1: its value stays")
	e.ok("write_cells", map[string]any{"file_path": "u.xlsx", "cell": "A1", "value": "13"})
	got = e.ok("read_excel", map[string]any{"file_path": "u.xlsx", "range": "B1:C1"})
	assert.Equal(t, []any{[]any{`=WEBSERVICE(A1)`, 6.0}}, got["values"], "B1 reads A1: its stale value goes")
}
