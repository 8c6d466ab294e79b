package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
)

// ClearSpills prepares clear_range's clear of the values of rng on sheet
// for the dynamic arrays there (formulas lists the sheet's formulas, cells
// the cells of rng that exist). Excel's Clear Contents of an anchor takes
// its spill along: the values each anchor in rng spilled are cleared here,
// wherever they are. It leaves a spilled cell of an anchor outside rng
// alone (the anchor's result fills it; nothing of its own is there to
// clear): such cells are left out of the cells returned. It returns the
// edit set of the clear: rng and the spill ranges cleared, whose readers
// must be recomputed, with the anchors whose spill rng meets kept as they
// are (fresh: their values stay, not in the way of their own spill).
func ClearSpills(b *Book, sheet string, rng cellarea.Range, formulas []FormulaAt, cells []existingCell) ([]existingCell, *recalc.EditSet, error) {
	var gone []recalc.OldAnchor
	var kept []FormulaAt
	edits := &recalc.EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: rng.C1, R1: rng.R1, C2: rng.C2, R2: rng.R2}}}
	for _, fc := range formulas {
		if !fc.Dynamic {
			continue
		}
		spill, err := grid.ParseRange(fc.ArrayRef)
		if err != nil || !spill.Overlaps(rng) {
			continue
		}
		if rng.Has(spill.C1, spill.R1) {
			gone = append(gone, recalc.OldAnchor{Col: spill.C1, Row: spill.R1, Spill: spill})
			edits.Areas = append(edits.Areas, cellarea.Area{Sheet: sheet, C1: spill.C1, R1: spill.R1, C2: spill.C2, R2: spill.R2})
		} else {
			kept = append(kept, fc)
			edits.Fresh = append(edits.Fresh, cellarea.Area{Sheet: sheet, C1: spill.C1, R1: spill.R1, C2: spill.C1, R2: spill.R1})
		}
	}
	if err := recalc.ClearOldSpills(b.f, sheet, gone, nil); err != nil {
		return nil, nil, err
	}
	if len(kept) == 0 {
		return cells, edits, nil
	}
	spilled := SpilledBy(kept)
	out := cells[:0]
	for _, c := range cells {
		if !spilled(c.col, c.row) {
			out = append(out, c)
		}
	}
	return out, edits, nil
}
