package splicepath

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
)

// What a write_cells plan writes, as the recalc splice sees it.

// spliceWrites is what a write_cells plan writes, for the recalc splice:
// its block (the edit area, as on the excelize path) and each cell's
// content, shared with the plan's Cell function, which writes the cached
// values recalcPlan stores here.
type cellWrites struct {
	area  cellarea.Area
	cells map[[2]int]cellContent // (row, col) -> content
	// spilled reports cells added to cells by dynamic arrays (values
	// spilled, or an overwritten anchor's spill cleared); spills are the
	// ranges written formulas spilled over.
	spilled bool
	spills  []cellarea.Range
	// elsewhere holds, by worksheet part, the cells of dynamic arrays on
	// other sheets spilled again over their own ranges (their anchors
	// with the new cached value): respillElsewhere.
	elsewhere map[string]map[[2]int]cellContent
}

// spillsWritten reports whether dynamic arrays added cells to the write.
func (w *cellWrites) spillsWritten() bool { return w.spilled }

// hasFormulas reports whether the write holds a formula.
func (w *cellWrites) hasFormulas() bool {
	for _, cc := range w.cells {
		if cc.kind == 'f' {
			return true
		}
	}
	return false
}

// cachedResult is a computed cached value: t and v as recalc.ComputeFormula
// returns them (v == "" for none, except t "str": an empty text).
type cachedResult struct{ t, v string }

// arrayRangeMeets reports whether the range ref of an array formula holds
// one of the written cells ((row, col) keys) other than its anchor.
func arrayRangeMeets(ref []byte, written map[[2]int]cellContent) bool {
	rng, err := grid.ParseRange(string(ref))
	if err != nil || (rng.C1 == rng.C2 && rng.R1 == rng.R2) {
		return false
	}
	for key := range written {
		r, c := key[0], key[1]
		if (r != rng.R1 || c != rng.C1) && r >= rng.R1 && r <= rng.R2 && c >= rng.C1 && c <= rng.C2 {
			return true
		}
	}
	return false
}
