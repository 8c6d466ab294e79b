package splicepath

import (
	"context"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Dynamic array anchors the recalc splice recomputes, as
// refreshFormulaValues does on the excelize path (unblock, then respill):
// an anchor on the written sheet that reads what the write changed, whose
// spill the write lands in, or that shows #SPILL! (the write may have
// cleared its way), is computed again and spilled again (its old spill
// cleared, the new values written, or #SPILL! when the new range is
// obstructed; one still obstructed is left as it is). The ranges it
// clears and fills are edited areas in turn: the formulas reading them
// are recomputed. An anchor spills again after the anchors whose spill it
// reads (recalc.SpillOrder). An anchor on another sheet that reads what the write
// changed is computed again there when its spill range keeps its shape
// (respill_other.go), and declines otherwise.

// respillAnchors returns the formulas of all the write makes dirty (areas
// are what it changed: the block and the spills written so far), after
// spilling again every dynamic array anchor that needs it (see above);
// each one is marked fresh, its new content among the written cells of w.
func (sb *Book) respillAnchors(ctx context.Context, sheets []calcSheet, all []calcFormula, cells []recalc.DepCell, areas []cellarea.Area, sheet, part string, w *cellWrites, early map[string]*earlyCopy) ([]bool, error) {
	dirty := recalc.DirtyFormulas(cells, areas, true)
	var cand []int
	var spills []cellarea.Area
	for i, f := range all {
		if !f.dynamic || f.fresh {
			continue
		}
		if !dirty[i] && (f.part != part || !(f.stuck || intrudesAny(areas, f.ref))) {
			continue
		}
		if f.part != part && f.stuck {
			return nil, engine.NoSplice("a dynamic array to recompute on another sheet shows #SPILL!")
		}
		spill, ok := cellarea.ParseArea(f.ref, f.at.Sheet)
		if !ok {
			spill = f.at // respillOne declines it
		}
		cand, spills = append(cand, i), append(spills, spill)
	}
	var changed []cellarea.Area
	for _, i := range recalc.SpillOrder(cand, cells, spills) {
		var ch []cellarea.Area
		var err error
		if all[i].part == part {
			ch, err = sb.respillOne(ctx, sheets, all, i, sheet, part, w, early)
		} else {
			ch, err = sb.respillElsewhere(ctx, sheets, all, i, part, w, early)
		}
		if err != nil {
			return nil, err
		}
		changed = append(changed, ch...)
	}
	if len(changed) == 0 {
		return dirty, nil
	}
	return recalc.DirtyFormulas(cells, append(areas, changed...), true), nil
}

// anchorToRecompute returns the recorded spill range of the anchor f, or
// why the calculator cannot compute it again (who names it).
func anchorToRecompute(f calcFormula, who string) (cellarea.Range, error) {
	old, err := grid.ParseRange(f.ref)
	if err != nil || old.C1 != f.at.C1 || old.R1 != f.at.R1 {
		return cellarea.Range{}, engine.NoSplice(who + " names an unreadable range")
	}
	if err := calculable(f, who); err != nil {
		return cellarea.Range{}, err
	}
	if recalc.CallsUncomputable(f.text) {
		return cellarea.Range{}, engine.NoSplice(who + " calls a function the calculator lacks")
	}
	return old, nil
}

// computeAnchor computes the anchor all[i] again, on sheet of a calculator
// copy holding the cells it reads, and returns its values, or why it
// declines (who names it).
func (sb *Book) computeAnchor(ctx context.Context, sheets []calcSheet, all []calcFormula, i int, sheet, part string, w *cellWrites, early map[string]*earlyCopy, who string) ([][]excelize.ArrayValue, error) {
	compute := make([]bool, len(all))
	compute[i] = true
	calc, err := sb.calculatorFor(ctx, sheets, all, compute, part, w, early)
	if err != nil {
		return nil, err
	}
	defer calc.Close()
	if recalc.InexactInArrays(calc, sheet, all[i].text) {
		return nil, engine.NoSplice(who + " is not computed exactly")
	}
	vals, cerr, err := sb.calcArray(ctx, calc, sheet, all[i])
	if err != nil {
		return nil, err
	}
	if cerr != nil {
		return nil, engine.NoSplice(who + " cannot be computed")
	}
	return vals, nil
}

// intrudesAny reports whether one of areas (all on the anchor's sheet)
// meets the spill range ref other than in its anchor.
func intrudesAny(areas []cellarea.Area, ref string) bool {
	spill, err := grid.ParseRange(ref)
	if err != nil {
		return false
	}
	for _, a := range areas {
		if recalc.Intrudes(a, spill) {
			return true
		}
	}
	return false
}

// respillOne computes the anchor all[i] (on the written sheet) again and
// puts its new spill among the written cells of w; it returns the ranges
// whose cells changed: the old spill and the new one (none for an anchor
// showing #SPILL! whose new range is still obstructed: it stays as it is).
func (sb *Book) respillOne(ctx context.Context, sheets []calcSheet, all []calcFormula, i int, sheet, part string, w *cellWrites, early map[string]*earlyCopy) ([]cellarea.Area, error) {
	f := all[i]
	const who = "a dynamic array to recompute"
	old, err := anchorToRecompute(f, who)
	if err != nil {
		return nil, err
	}
	vals, err := sb.computeAnchor(ctx, sheets, all, i, sheet, part, w, early, who)
	if err != nil {
		return nil, err
	}
	// The old spill is cleared, except what the write wrote there, before
	// the new range is checked (a call that declines or fails drops w).
	for r := old.R1; r <= old.R2; r++ {
		for c := old.C1; c <= old.C2; c++ {
			if _, ok := w.cells[[2]int{r, c}]; ok || (r == old.R1 && c == old.C1) {
				continue
			}
			w.cells[[2]int{r, c}] = cellContent{spilled: true}
		}
	}
	w.spilled = true
	p, err := sb.placeSpill(ctx, part, f, vals, w)
	if err != nil {
		return nil, err
	}
	if !p.ok {
		return nil, engine.NoSplice("the cell metadata part holds other metadata")
	}
	if p.blocked && f.stuck {
		all[i].fresh = true // #SPILL! as it was
		return nil, nil
	}
	w.cells[[2]int{f.at.R1, f.at.C1}] = p.put(w, cellContent{kind: 'f', formula: f.text}, vals)
	all[i].fresh = true
	rng := p.rng
	if !p.blocked && (len(vals) > 1 || len(vals[0]) > 1) {
		w.spills = append(w.spills, rng)
	}
	return []cellarea.Area{{Sheet: sheet, C1: old.C1, R1: old.R1, C2: old.C2, R2: old.R2}, {Sheet: sheet, C1: rng.C1, R1: rng.R1, C2: rng.C2, R2: rng.R2}}, nil
}
