package recalc

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDirtyFormulas(t *testing.T) {
	cell := func(sheet string, col, row int) cellarea.Area {
		return cellarea.Area{Sheet: sheet, C1: col, R1: row, C2: col, R2: row}
	}
	cells := []DepCell{
		{At: cell("Report", 1, 1), Deps: []cellarea.Area{cell("inputs", 1, 1)}},                          // reads the edit (names compare case-insensitively)
		{At: cell("Deep", 1, 1), Deps: []cellarea.Area{cell("Report", 1, 1)}},                            // reads a dirty formula
		{At: cell("Report", 2, 1), Deps: []cellarea.Area{cell("Inputs", 2, 1)}},                          // unrelated
		{At: cell("Inputs", 1, 1), Deps: []cellarea.Area{cell("Inputs", 9, 9)}},                          // overwritten by the edit
		{At: cell("Other", 1, 1), Wide: true},                                                            // may read anything
		{At: cell("Inputs", 3, 1), Deps: []cellarea.Area{{Sheet: "Inputs", C1: 1, R1: 1, C2: 1, R2: 5}}}, // a range holding the edit
	}
	got := DirtyFormulas(cells, []cellarea.Area{cell("Inputs", 1, 1)}, true)
	assert.Equal(t, []bool{true, true, false, true, true, true}, got)
	assert.Equal(t, []bool{false, false, false, false, false, false}, DirtyFormulas(cells, nil, true))
}

func TestDirtyFormulasLongChainFallsBackToAll(t *testing.T) {
	// B_r reads B_(r-1): each round adds one cell; the check budget ends it.
	n := 3000
	cells := make([]DepCell, n)
	for r := 1; r <= n; r++ {
		cells[r-1] = DepCell{At: cellarea.Area{Sheet: "S", C1: 2, R1: r, C2: 2, R2: r}, Deps: []cellarea.Area{{Sheet: "S", C1: 2, R1: r - 1, C2: 2, R2: r - 1}}}
	}
	cells[0].Deps = []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}
	unrelated := DepCell{At: cellarea.Area{Sheet: "S", C1: 9, R1: 9, C2: 9, R2: 9}, Deps: []cellarea.Area{{Sheet: "S", C1: 8, R1: 8, C2: 8, R2: 8}}}
	got := DirtyFormulas(append(cells, unrelated), []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, true)
	for i, d := range got[:n] {
		require.True(t, d, i)
	}
	assert.True(t, got[n], "past the budget everything counts as dirty")
}
