package engine

import (
	"context"
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// RefuseLegacyArrayPart refuses a write of some but not all cells of a
// legacy array formula on sheet, as Excel does ("You can't change part of
// an array"): the formula's value is laid over its whole range, so a cell
// of the range written alone would be overwritten by the next recalculation.
// Writing every cell of the range replaces the array.
func (b *Book) RefuseLegacyArrayPart(sheet string, plan []CellWrite) error {
	all, err := b.FormulaCells(sheet)
	if err != nil {
		return err
	}
	var written map[[2]int]bool
	for _, fc := range all {
		if fc.ArrayRef == "" || fc.Dynamic {
			continue
		}
		arr, err := grid.ParseRange(fc.ArrayRef)
		if err != nil {
			continue
		}
		if written == nil {
			written = make(map[[2]int]bool, len(plan))
			for _, w := range plan {
				written[[2]int{w.Col, w.Row}] = true
			}
		}
		in, out := 0, 0
		for y := arr.R1; y <= arr.R2; y++ {
			for x := arr.C1; x <= arr.C2; x++ {
				if written[[2]int{x, y}] {
					in++
				} else {
					out++
				}
			}
		}
		if in > 0 && out > 0 {
			return failure.Invalid("cannot write part of the array formula in %s (anchored at %s): write all of %s or none of it, or clear it first with clear_range", fc.ArrayRef, fc.Ref, fc.ArrayRef)
		}
	}
	return nil
}

// FormulaScope returns what the formulas written to b may refer to.
func (b *Book) FormulaScope() *recalc.FormulaScope {
	sheets, _ := b.SheetList()
	var names []recalc.ScopedName
	for _, dn := range b.NameDefinitions() {
		names = append(names, recalc.ScopedName{Name: dn.Name, Sheet: dn.Sheet})
	}
	return recalc.NewFormulaScope(sheets, names, func() []recalc.TableInfo {
		var out []recalc.TableInfo
		if b.f == nil {
			return nil
		}
		b.f.Pkg.Range(func(key, value any) bool {
			name, ok := key.(string)
			raw, isBytes := value.([]byte)
			if ok && isBytes && recalc.IsTablePart(name) {
				out = append(out, recalc.ParseTablePart(raw)...)
			}
			return true
		})
		return out
	})
}

// CheckWriteNames refuses a write whose formulas, on the sheet host, refer
// to a sheet, defined name or table the workbook does not have. The
// references were taken from the tokens when the call was planned; the
// scope is read once for the call, and only when a formula has one.
func CheckWriteNames(plan []CellWrite, host string, scope func() *recalc.FormulaScope) error {
	var sc *recalc.FormulaScope
	for _, w := range plan {
		if w.refs == nil {
			continue
		}
		if sc == nil {
			sc = scope()
			sc.AddSheet(host)
		}
		if err := sc.CheckRefs("cell "+grid.CellName(w.Col, w.Row), host, w.Formula, w.refs); err != nil {
			return err
		}
	}
	return nil
}

// AnchorsUnder returns the dynamic array anchors among the cells plan
// writes, read before the writes.
func (b *Book) AnchorsUnder(sheet string, plan []CellWrite) ([]recalc.OldAnchor, error) {
	ws, err := b.f.Worksheet(sheet)
	if err != nil {
		return nil, err
	}
	var out []recalc.OldAnchor
	for _, w := range plan {
		if spill, ok := recalc.DynamicAnchor(recalc.SheetCell(ws, w.Col, w.Row)); ok {
			out = append(out, recalc.OldAnchor{Col: w.Col, Row: w.Row, Spill: spill})
		}
	}
	return out, nil
}

// UndoAnchors is recalc.ClearOldSpills on the book's engine.
func (b *Book) UndoAnchors(sheet string, old []recalc.OldAnchor, kept func(col, row int) bool) error {
	return recalc.ClearOldSpills(b.f, sheet, old, kept)
}

// spillFormulas makes each formula plan wrote that returns an array of more
// than one value a dynamic array formula, as Excel 365 stores one: the
// anchor holds the formula (f t="array" ref=the spill range, cm pointing at
// the dynamic array metadata) and the first value, the other cells of the
// range the other values. When a cell of the range other than the anchor
// holds anything (a value or formula, one written by this call included), a
// merged range overlaps it, or it passes the sheet's edge, the anchor is
// #SPILL! and nothing spills. A formula the calculator cannot compute (or
// not exactly: recalc.InexactInArrays), or whose result is one value,
// stays an ordinary formula, except one whose operators apply to a range
// (SUM(A1:A5*B1:B5)): it is a dynamic array formula over its own cell. It returns the
// ranges values spilled over. A spill of more than maxCells cells is a
// KindLimit error, as a block of that many values would be.
func spillFormulas(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, sheet string, plan []CellWrite, maxCells int) ([]cellarea.Range, error) {
	var spilled []cellarea.Range
	for _, w := range plan {
		if w.Formula == "" || !formulatext.MaySpill(w.Formula) || recalc.CallsUncomputable(w.Formula) || recalc.InexactInArrays(f, sheet, w.Formula) {
			continue
		}
		ref := grid.CellName(w.Col, w.Row)
		one, cancel := context.WithTimeout(ctx, limits.MaxFormulaTime)
		vals, err := f.CalcCellArray(one, sheet, ref, lim)
		cancel()
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if err != nil || len(vals) == 0 || len(vals[0]) == 0 {
			continue // uncomputable: an ordinary formula
		}
		if len(vals) == 1 && len(vals[0]) == 1 {
			// one value: an ordinary formula, unless a plain formula would
			// intersect the ranges its operators apply to
			if formulatext.NeedsArrayFormula(w.Formula) {
				if err := anchorOneValue(f, sheet, w, vals[0][0]); err != nil {
					return nil, err
				}
			}
			continue
		}
		if n := len(vals) * len(vals[0]); n > maxCells {
			return nil, budget.TooLarge(fmt.Sprintf("the formula in %s spills over %d cells, more than the limit of %d", ref, n, maxCells))
		}
		rng := cellarea.Range{C1: w.Col, R1: w.Row, C2: w.Col + len(vals[0]) - 1, R2: w.Row + len(vals) - 1}
		blocked, err := recalc.SpillBlocked(f, sheet, rng)
		if err != nil {
			return nil, err
		}
		target := rng.String()
		if blocked {
			target = ref
		}
		if err := f.SetDynamicArrayFormula(sheet, ref, target); err != nil {
			if errors.Is(err, excelize.ErrDynamicArrayMetadata) {
				continue // metadata of another kind: an ordinary formula, as before
			}
			return nil, err
		}
		if blocked {
			if err := recalc.SetTypedValue(f, sheet, w.Col, w.Row, excelize.ArrayValue{Type: excelize.CellTypeError, Value: recalc.SpillError}); err != nil {
				return nil, err
			}
			continue
		}
		for r, row := range vals {
			for c, v := range row {
				if err := recalc.SetTypedValue(f, sheet, w.Col+c, w.Row+r, v); err != nil {
					return nil, err
				}
			}
		}
		spilled = append(spilled, rng)
	}
	return spilled, nil
}

// spillWrites undoes the anchors write_cells overwrote (old, read before its
// writes) and spills the formulas it wrote (spillFormulas); it returns every
// range whose cells changed besides the block: old spills and new ones.
func spillWrites(b *Book, sheet string, plan []CellWrite, old []recalc.OldAnchor) ([]cellarea.Range, error) {
	written := make(map[[2]int]bool, len(plan))
	for _, w := range plan {
		written[[2]int{w.Col, w.Row}] = true
	}
	if err := recalc.ClearOldSpills(b.f, sheet, old, func(c, r int) bool { return written[[2]int{c, r}] }); err != nil {
		return nil, err
	}
	spills, err := spillFormulas(b.CallContext(), b.f, b.Svc.Limits.Calc(), sheet, plan, b.Svc.Limits.MaxWriteCells)
	for _, a := range old {
		spills = append(spills, a.Spill)
	}
	return spills, err
}

// SpillBlock spills the formulas plan wrote into block on sh (old: the
// anchors the writes overwrote, from anchorsUnder), widens the sheet's
// extent over block and every spill and, on a sheet the call did not
// create, sets the call's edit set: only formulas reading the block or a
// spill range need recomputing.
func (b *Book) SpillBlock(sh SheetRef, block cellarea.Range, plan []CellWrite, old []recalc.OldAnchor) error {
	spills, err := spillWrites(b, sh.Name, plan, old)
	if err != nil {
		return err
	}
	sh.Ext.Widen(block.R1, block.C1)
	sh.Ext.Widen(block.R2, block.C2)
	areas := []cellarea.Area{{Sheet: sh.Name, C1: block.C1, R1: block.R1, C2: block.C2, R2: block.R2}}
	for _, r := range spills {
		sh.Ext.Widen(r.R2, r.C2)
		areas = append(areas, cellarea.Area{Sheet: sh.Name, C1: r.C1, R1: r.R1, C2: r.C2, R2: r.R2})
	}
	if !sh.Created {
		b.Edits = &recalc.EditSet{Areas: areas, Fresh: formulaCellsOf(sh.Name, plan)}
	}
	return nil
}

// anchorOneValue makes the formula w wrote a dynamic array formula over
// its own cell, holding v.
func anchorOneValue(f *excelize.File, sheet string, w CellWrite, v excelize.ArrayValue) error {
	if err := f.SetDynamicArrayFormula(sheet, grid.CellName(w.Col, w.Row), grid.CellName(w.Col, w.Row)); err != nil {
		if errors.Is(err, excelize.ErrDynamicArrayMetadata) {
			return nil // metadata of another kind: an ordinary formula
		}
		return err
	}
	return recalc.SetTypedValue(f, sheet, w.Col, w.Row, v)
}

// formulaCellsOf returns the cells of plan that hold formulas, one area
// each: the formulas write_cells spilled itself.
func formulaCellsOf(sheet string, plan []CellWrite) []cellarea.Area {
	var out []cellarea.Area
	for _, w := range plan {
		if w.Formula != "" {
			out = append(out, cellarea.Area{Sheet: sheet, C1: w.Col, R1: w.Row, C2: w.Col, R2: w.Row})
		}
	}
	return out
}

// CalcValue computes the formula at sheet!ref of b as CalcCellValue does
// with RawCellValue, within the service's calculation limits, the call's
// context and maxFormulaTime.
func (b *Book) CalcValue(sheet, ref string) (string, error) {
	one, cancel := context.WithTimeout(b.CallContext(), limits.MaxFormulaTime)
	defer cancel()
	return b.f.CalcCellValueContext(one, sheet, ref, b.Svc.Limits.Calc(), excelize.Options{RawCellValue: true})
}
