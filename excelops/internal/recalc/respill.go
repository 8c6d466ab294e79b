package recalc

import (
	"context"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// respill computes again each dirty dynamic array anchor of all (dirty as
// refreshFormulaValues marks it) and spills its new result as write_cells
// does: the values it spilled before are cleared, the new ones written
// over the new range, or the anchor is #SPILL! when that range is
// obstructed; a result of one value leaves the anchor alone in its range.
// It returns the ranges whose cells changed (old and new spill ranges), so
// the formulas reading them are recomputed too. An anchor the calculator
// cannot compute (or not exactly: inexact) keeps its spill as it was, and
// so does one in fresh (the call spilled it already); cells in edited (what
// the edit wrote) are never cleared. An anchor spills again after the
// anchors whose spill it reads (SpillOrder over cells, what each formula
// of all reads).
func respill(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, all []sheetFormula, cells []DepCell, dirty []bool, edited, fresh []cellarea.Area, maxCells int) ([]cellarea.Area, error) {
	var cand []int
	var spills []cellarea.Area
	olds := map[int]cellarea.Range{}
	for i, sf := range all {
		if old, ok := DynamicAnchor(sf.Cell.cell); ok && dirty[i] {
			cand, olds[i] = append(cand, i), old
			spills = append(spills, cellarea.Area{Sheet: sf.sheet, C1: old.C1, R1: old.R1, C2: old.C2, R2: old.R2})
		}
	}
	var changed []cellarea.Area
	for _, i := range SpillOrder(cand, cells, spills) {
		sf, old := all[i], olds[i]
		col, row, err := excelize.CellNameToCoordinates(sf.Cell.Ref)
		if err != nil || inAreas(fresh, sf.sheet, col, row) {
			continue
		}
		if formula, ferr := f.GetCellFormula(sf.sheet, sf.Cell.Ref); ferr != nil || inexact(f, sf.sheet, sf.Cell.Ref, formula) {
			continue
		}
		one, cancel := context.WithTimeout(ctx, limits.MaxFormulaTime)
		vals, cerr := f.CalcCellArray(one, sf.sheet, sf.Cell.Ref, lim)
		cancel()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if cerr != nil || len(vals) == 0 || len(vals[0]) == 0 {
			continue
		}
		if n := len(vals) * len(vals[0]); n > maxCells {
			return nil, budget.TooLarge(fmt.Sprintf("the formula in %s spills over %d cells, more than the limit of %d", sf.Cell.Ref, n, maxCells))
		}
		rng := cellarea.Range{C1: col, R1: row, C2: col + len(vals[0]) - 1, R2: row + len(vals) - 1}
		stuck := sf.Cell.spillStuck() // it spilled nothing: its own values block nothing
		var blocked bool
		if stuck {
			if blocked, err = SpillBlocked(f, sf.sheet, rng); err != nil {
				return nil, err
			} else if blocked {
				continue // still obstructed: #SPILL! as it was
			}
		}
		// What the edit wrote into the old spill stays (and blocks it).
		kept := func(c, r int) bool { return inAreas(edited, sf.sheet, c, r) }
		if err := ClearOldSpills(f, sf.sheet, []OldAnchor{{Col: col, Row: row, Spill: old}}, kept); err != nil {
			return nil, err
		}
		if !stuck {
			if blocked, err = SpillBlocked(f, sf.sheet, rng); err != nil {
				return nil, err
			}
		}
		target := rng.String()
		if blocked || (len(vals) == 1 && len(vals[0]) == 1) {
			target = sf.Cell.Ref
		}
		if err := f.SetDynamicArrayFormula(sf.sheet, sf.Cell.Ref, target); err != nil {
			return nil, err
		}
		changed = append(changed, cellarea.Area{Sheet: sf.sheet, C1: old.C1, R1: old.R1, C2: old.C2, R2: old.R2},
			cellarea.Area{Sheet: sf.sheet, C1: rng.C1, R1: rng.R1, C2: rng.C2, R2: rng.R2})
		if blocked {
			vals = [][]excelize.ArrayValue{{{Type: excelize.CellTypeError, Value: SpillError}}}
		}
		for r, line := range vals {
			for c, v := range line {
				if err := SetTypedValue(f, sf.sheet, col+c, row+r, v); err != nil {
					return nil, err
				}
			}
		}
	}
	return changed, nil
}

// unblock marks dirty the dynamic array anchors on a sheet the edit
// changed whose spill the edit may have freed or intruded on: one showing
// #SPILL! (the edit may have cleared its way; Excel spills it as soon as
// the way is clear) and one whose spilled cells the edit wrote (Excel then
// shows #SPILL!). No reference of the formula tells either. respill
// computes them again.
func unblock(all []sheetFormula, dirty []bool, areas []cellarea.Area) {
	for i, sf := range all {
		if dirty[i] {
			continue
		}
		spill, ok := DynamicAnchor(sf.Cell.cell)
		if !ok {
			continue
		}
		stuck := sf.Cell.spillStuck()
		for _, a := range areas {
			if !strings.EqualFold(a.Sheet, sf.sheet) {
				continue
			}
			if stuck || Intrudes(a, spill) {
				dirty[i] = true
				break
			}
		}
	}
}

// Intrudes reports whether the edited area a meets the spill range other
// than in its anchor (its first cell).
func Intrudes(a cellarea.Area, spill cellarea.Range) bool {
	if a.C1 > spill.C2 || spill.C1 > a.C2 || a.R1 > spill.R2 || spill.R1 > a.R2 {
		return false
	}
	return !(a.C1 == spill.C1 && a.R1 == spill.R1 && a.C2 == spill.C1 && a.R2 == spill.R1)
}

// inAreas reports whether the cell (col, row) of sheet lies in one of areas.
func inAreas(areas []cellarea.Area, sheet string, col, row int) bool {
	for _, a := range areas {
		if strings.EqualFold(a.Sheet, sheet) && col >= a.C1 && col <= a.C2 && row >= a.R1 && row <= a.R2 {
			return true
		}
	}
	return false
}
