package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
)

// SpilledBy returns a test of whether the cell (col, row) is a spilled
// cell of one of the dynamic array anchors among formulas (a cell of its
// spill range other than the anchor). Such a cell shows the anchor's
// result and holds nothing of its own: Excel's Replace leaves it alone (it
// replaces in what cells hold, and the anchor's result follows), so
// find_replace skips it.
func SpilledBy(formulas []FormulaAt) func(col, row int) bool {
	var spills []cellarea.Range
	for _, fc := range formulas {
		if !fc.Dynamic {
			continue
		}
		if r, err := grid.ParseRange(fc.ArrayRef); err == nil && r.Cells() > 1 {
			spills = append(spills, r)
		}
	}
	return func(col, row int) bool {
		for _, r := range spills {
			if r.Has(col, row) && (col != r.C1 || row != r.R1) {
				return true
			}
		}
		return false
	}
}
