package excelops

import (
	"context"
	"fmt"
)

// Dynamic array anchors the recalc splice recomputes: an anchor on the
// written sheet that reads what the write changed, or whose spill the
// write lands in, is computed again and spilled again as respill does on
// the excelize path (its old spill cleared, the new values written, or
// #SPILL! when the new range is obstructed). The ranges it clears and
// fills are edited areas in turn, so the formulas reading them, anchors
// among them, are marked again, up to maxRespillRounds times.

// maxRespillRounds bounds the rounds of anchors spilled again because an
// earlier round's spill changed what they read.
const maxRespillRounds = 8

// respillAnchors returns the formulas of all the write makes dirty (areas
// are what it changed: the block and the spills written so far), after
// spilling again every dirty dynamic array anchor (see above); each one is
// marked fresh, its new content among the written cells of w.
func (sb *spliceBook) respillAnchors(ctx context.Context, sheets []calcSheet, all []calcFormula, cells []depCell, areas []sheetArea, sheet, part string, w *spliceWrites, early map[string]*earlyCopy) ([]bool, error) {
	for round := 0; ; round++ {
		dirty := dirtyFormulas(cells, areas, true)
		var pending []int
		for i, f := range all {
			if f.dynamic && !f.fresh && (dirty[i] || (f.part == part && intrudesRef(w.area, f.ref))) {
				pending = append(pending, i)
			}
		}
		if len(pending) == 0 {
			return dirty, nil
		}
		if round == maxRespillRounds {
			return nil, noSplice("dynamic arrays read each other's spills too deep")
		}
		for _, i := range pending {
			if all[i].part != part {
				return nil, noSplice("a dynamic array to recompute is on another sheet")
			}
			changed, err := sb.respillOne(ctx, sheets, all, i, sheet, part, w, early)
			if err != nil {
				return nil, err
			}
			areas = append(areas, changed...)
		}
	}
}

// intrudesRef reports whether the written block a meets the spill range
// ref other than in its anchor.
func intrudesRef(a sheetArea, ref string) bool {
	spill, err := parseRange(ref)
	return err == nil && intrudes(a, spill)
}

// respillOne computes the anchor all[i] (on the written sheet) again and
// puts its new spill among the written cells of w; it returns the ranges
// whose cells changed: the old spill and the new one.
func (sb *spliceBook) respillOne(ctx context.Context, sheets []calcSheet, all []calcFormula, i int, sheet, part string, w *spliceWrites, early map[string]*earlyCopy) ([]sheetArea, error) {
	f := all[i]
	ref := cellName(f.at.c1, f.at.r1)
	old, err := parseRange(f.ref)
	if err != nil || old.c1 != f.at.c1 || old.r1 != f.at.r1 {
		return nil, noSplice("a dynamic array to recompute names an unreadable range")
	}
	if err := calculable(f, "a dynamic array to recompute"); err != nil {
		return nil, err
	}
	if callsUncomputable(f.text) {
		return nil, noSplice("a dynamic array to recompute calls a function the calculator lacks")
	}
	compute := make([]bool, len(all))
	compute[i] = true
	need, err := upstream(all, compute)
	if err != nil {
		return nil, err
	}
	calc, err := sb.scratchFile(ctx, sheets, all, need, part, w, early)
	if err != nil {
		return nil, err
	}
	defer calc.Close()
	if inexactInArrays(calc, sheet, f.text) {
		return nil, noSplice("a dynamic array to recompute is not computed exactly")
	}
	one, cancel := context.WithTimeout(ctx, maxFormulaTime)
	vals, cerr := calc.CalcCellArray(one, sheet, ref, sb.svc.limits.calc())
	cancel()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cerr != nil || len(vals) == 0 || len(vals[0]) == 0 {
		return nil, noSplice("a dynamic array to recompute cannot be computed")
	}
	if n := len(vals) * len(vals[0]); n > sb.svc.limits.MaxWriteCells {
		return nil, limitErr(fmt.Sprintf("the formula in %s spills over %d cells, more than the limit of %d", ref, n, sb.svc.limits.MaxWriteCells))
	}
	cm, ok, err := sb.spillMetadata()
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, noSplice("the cell metadata part holds other metadata")
	}
	// The old spill is cleared, except what the write wrote there.
	for r := old.r1; r <= old.r2; r++ {
		for c := old.c1; c <= old.c2; c++ {
			if _, ok := w.cells[[2]int{r, c}]; ok || (r == old.r1 && c == old.c1) {
				continue
			}
			w.cells[[2]int{r, c}] = cellContent{spilled: true}
		}
	}
	w.spilled = true
	rng := cellRange{f.at.c1, f.at.r1, f.at.c1 + len(vals[0]) - 1, f.at.r1 + len(vals) - 1}
	blocked := false
	if len(vals) > 1 || len(vals[0]) > 1 {
		if blocked, err = sb.spillOccupied(ctx, part, rng, w); err != nil {
			return nil, err
		}
	}
	cc := cellContent{kind: 'f', formula: f.text, array: rng.String(), cm: cm}
	if blocked {
		cc.array = ref
		vals = nil
		cc.cachedType, cc.cachedValue = "e", spillError
	} else {
		cc.cachedType, cc.cachedValue = cachedTypeOf(vals[0][0]), vals[0][0].Value
		if len(vals) > 1 || len(vals[0]) > 1 {
			w.spills = append(w.spills, rng)
		}
	}
	w.cells[[2]int{f.at.r1, f.at.c1}] = cc
	all[i].fresh = true
	for r, row := range vals {
		for c, v := range row {
			if r > 0 || c > 0 {
				w.cells[[2]int{rng.r1 + r, rng.c1 + c}] = spilledContent(v)
			}
		}
	}
	return []sheetArea{{sheet, old.c1, old.r1, old.c2, old.r2}, {sheet, rng.c1, rng.r1, rng.c2, rng.r2}}, nil
}
