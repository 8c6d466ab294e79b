package splicepath

import (
	"context"
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Dynamic arrays on the recalc splice: write_cells of a formula that may
// spill computes its whole result before the other formulas, as the
// excelize path's spillFormulas does, and writes it as Excel 365 does (the
// anchor's <f t="array" ref=...> and cm, the values in the cells of the
// range, #SPILL! when the range is obstructed). The values become cells
// the write writes (spliceWrites.cells), so the calculator and the
// rewrite see them as they see the write's own; the ranges they fill, and
// the old spills of anchors the write overwrote (cleared first), are
// edited areas whose readers are recomputed.

// errStopWalk ends a walk of a worksheet that has seen what it looks for.
var errStopWalk = errors.New("walk done")

// clearOldSpills clears, in w, the values the dynamic array anchors
// the write overwrote (old) had spilled, except in cells the write
// writes, as the engine does on the excelize path, and returns their
// ranges. A formula inside such a range (a damaged anchor) declines.
func clearOldSpills(all []calcFormula, sheet, part string, old []calcFormula, w *cellWrites) ([]cellarea.Area, error) {
	var areas []cellarea.Area
	for _, a := range old {
		spill, err := grid.ParseRange(a.ref)
		if err != nil || spill.C1 != a.at.C1 || spill.R1 != a.at.R1 {
			return nil, engine.NoSplice("an overwritten dynamic array names an unreadable range")
		}
		if (spill.R2-spill.R1+1)*(spill.C2-spill.C1+1) > maxScratchCells {
			return nil, engine.NoSplice("an overwritten dynamic array spilled over more cells than the calculator copies")
		}
		for _, f := range all {
			if f.part == part && spill.Has(f.at.C1, f.at.R1) && (f.at.C1 != spill.C1 || f.at.R1 != spill.R1) {
				return nil, engine.NoSplice("a formula lies in the spill range of an overwritten dynamic array")
			}
		}
		for r := spill.R1; r <= spill.R2; r++ {
			for c := spill.C1; c <= spill.C2; c++ {
				if _, ok := w.cells[[2]int{r, c}]; ok {
					continue // the anchor, or a cell the write writes
				}
				w.cells[[2]int{r, c}] = cellContent{spilled: true}
				w.spilled = true
			}
		}
		areas = append(areas, cellarea.Area{Sheet: sheet, C1: spill.C1, R1: spill.R1, C2: spill.C2, R2: spill.R2})
	}
	return areas, nil
}

// spillWritten computes the written formulas of all (sorted in sheet, row
// and column order) that may spill, as spillFormulas does, on a calculator
// workbook of the cells they read; each one that becomes a dynamic array
// anchor is marked fresh (its cached value is set, not computed again).
// It returns the ranges the spills fill.
func (sb *Book) spillWritten(ctx context.Context, sheets []calcSheet, all []calcFormula, sheet, part string, w *cellWrites, early map[string]*earlyCopy) ([]cellarea.Area, error) {
	compute := make([]bool, len(all))
	found := false
	for i, f := range all {
		cc, ok := w.cells[[2]int{f.at.R1, f.at.C1}]
		if !ok || f.part != part || cc.kind != 'f' || !formulatext.MaySpill(f.text) || recalc.CallsUncomputable(f.text) {
			continue
		}
		if err := calculable(f, "a formula to recompute"); err != nil {
			return nil, err
		}
		compute[i], found = true, true
	}
	if !found {
		return nil, nil
	}
	calc, err := sb.calculatorFor(ctx, sheets, all, compute, part, w, early)
	if err != nil {
		return nil, err
	}
	defer calc.Close()
	var areas []cellarea.Area
	for i, f := range all {
		if !compute[i] || recalc.InexactInArrays(calc, sheet, f.text) {
			continue
		}
		vals, cerr, err := sb.calcArray(ctx, calc, sheet, f)
		if err != nil {
			return nil, err
		}
		if cerr != nil || len(vals) == 1 && len(vals[0]) == 1 && !formulatext.NeedsArrayFormula(f.text) {
			continue // uncomputable, or one value: an ordinary formula
		}
		p, err := sb.placeSpill(ctx, part, f, vals, w)
		if err != nil {
			return nil, err
		}
		if !p.ok {
			continue // metadata of another kind: an ordinary formula, as on the excelize path
		}
		key := [2]int{f.at.R1, f.at.C1}
		w.cells[key] = p.put(w, w.cells[key], vals)
		all[i].fresh = true
		if !p.blocked {
			w.spilled = true
			w.spills = append(w.spills, p.rng)
			areas = append(areas, cellarea.Area{Sheet: sheet, C1: p.rng.C1, R1: p.rng.R1, C2: p.rng.C2, R2: p.rng.R2})
		}
	}
	return areas, nil
}

// calcArray computes the formula f (on sheet) whole on the calculator
// calc, as CalcCellArray does, within maxFormulaTime. cerr says the
// calculator could not (or gave no value); err is ctx's error when the
// call ended.
func (sb *Book) calcArray(ctx context.Context, calc *excelize.File, sheet string, f calcFormula) (vals [][]excelize.ArrayValue, cerr, err error) {
	one, cancel := context.WithTimeout(ctx, limits.MaxFormulaTime)
	vals, cerr = calc.CalcCellArray(one, sheet, grid.CellName(f.at.C1, f.at.R1), sb.svc.Limits.Calc())
	cancel()
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	if cerr == nil && (len(vals) == 0 || len(vals[0]) == 0) {
		cerr = errors.New("no value")
	}
	return vals, cerr, nil
}

// spillPlace is where the array an anchor computed goes: its range, the
// dynamic array metadata's cm, whether the range is obstructed (the anchor
// shows #SPILL!), and ok, false when the metadata part holds metadata of
// another kind (no dynamic array can be written).
type spillPlace struct {
	anchor  string
	rng     cellarea.Range
	cm      uint
	blocked bool
	ok      bool
}

// placeSpill finds where the array vals that the anchor f computed goes:
// a limit error when it spills over more cells than one call writes, the
// metadata's cm, and whether the range (more than the anchor) is
// obstructed, as recalc.SpillBlocked sees it on the excelize path.
func (sb *Book) placeSpill(ctx context.Context, part string, f calcFormula, vals [][]excelize.ArrayValue, w *cellWrites) (spillPlace, error) {
	p := spillPlace{anchor: grid.CellName(f.at.C1, f.at.R1), rng: cellarea.Range{C1: f.at.C1, R1: f.at.R1, C2: f.at.C1 + len(vals[0]) - 1, R2: f.at.R1 + len(vals) - 1}}
	if n := len(vals) * len(vals[0]); n > sb.svc.Limits.MaxWriteCells {
		return p, budget.TooLarge(fmt.Sprintf("the formula in %s spills over %d cells, more than the limit of %d", p.anchor, n, sb.svc.Limits.MaxWriteCells))
	}
	var err error
	if p.cm, p.ok, err = sb.spillMetadata(); err != nil || !p.ok {
		return p, err
	}
	if len(vals) > 1 || len(vals[0]) > 1 {
		p.blocked, err = sb.spillOccupied(ctx, part, p.rng, w)
	}
	return p, err
}

// put returns the anchor cc as the place makes it (its spill range and cm,
// its first value cached, or #SPILL! over the anchor alone when blocked)
// and, unless blocked, writes the other values of vals into w as spilled
// cells.
func (p spillPlace) put(w *cellWrites, cc cellContent, vals [][]excelize.ArrayValue) cellContent {
	cc.array, cc.cm = p.rng.String(), p.cm
	if p.blocked {
		cc.array = p.anchor
		cc.cachedType, cc.cachedValue = "e", recalc.SpillError
		return cc
	}
	cc.cachedType, cc.cachedValue = recalc.CachedOf(vals[0][0])
	for r, row := range vals {
		for c, v := range row {
			if r > 0 || c > 0 {
				w.cells[[2]int{p.rng.R1 + r, p.rng.C1 + c}] = spilledContent(v)
			}
		}
	}
	return cc
}

// calculable declines (engine.ErrNoSplice, with a reason beginning with who) a
// formula the recalc splice's calculator cannot be given exactly: one
// that may read anything, or reads a table.
func calculable(f calcFormula, who string) error {
	switch {
	case f.wide:
		return engine.NoSplice(engine.WideReason(f.text, who))
	case f.table:
		return engine.NoSplice(who + " holds a structured reference")
	}
	return nil
}

// spilledContent is the cell content of one spilled value, as
// recalc.SetTypedValue stores it (an empty text leaves the cell empty).
func spilledContent(v excelize.ArrayValue) cellContent {
	cc := cellContent{spilled: true, text: v.Value}
	switch v.Type {
	case excelize.CellTypeBool:
		cc.kind = 'b'
	case excelize.CellTypeError:
		cc.kind = 'e'
	case excelize.CellTypeInlineString:
		cc.kind = 's'
	case excelize.CellTypeUnset:
		cc.text = ""
	default:
		cc.kind = 'n'
	}
	return cc
}

// spillOccupied reports whether rng cannot take a spill, as recalc.SpillBlocked
// decides it on the excelize path: it passes the sheet's edge, or a cell
// other than its top-left one holds a value or a formula, after the
// write (w) as far as it went. The worksheet part is walked over rng's
// rows only. A merged range over rng declines the rewrite instead
// (splice.Plan.KeepClear): the excelize path makes the anchor #SPILL!.
func (sb *Book) spillOccupied(ctx context.Context, part string, rng cellarea.Range, w *cellWrites) (bool, error) {
	if rng.R2 > grid.LastRow || rng.C2 > excelize.MaxColumns {
		return true, nil
	}
	inside := func(r, c int) bool { return rng.Has(c, r) && (r != rng.R1 || c != rng.C1) }
	for key, cc := range w.cells {
		if inside(key[0], key[1]) && cc.kind != 0 {
			return true, nil
		}
	}
	found := false
	err := sb.walkSpillCells(ctx, part, rng, func(c *sheetxml.Cell) bool {
		if _, written := w.cells[[2]int{c.Row, c.Col}]; written {
			return false // what the write leaves there was checked above
		}
		found = c.Formula || len(c.Value) > 0 || string(c.Type) == "inlineStr"
		return found
	})
	return found, err
}

// walkSpillCells calls visit with each cell of the worksheet part that lies
// in the spill range rng other than its anchor (its top-left cell), in
// sheet order, walking the part over rng's rows only, until visit returns
// true.
func (sb *Book) walkSpillCells(ctx context.Context, part string, rng cellarea.Range, visit func(c *sheetxml.Cell) (stop bool)) error {
	err := walkPart(ctx, opc.FindPart(sb.zr, part), func(ev sheetxml.Event, wk *sheetxml.Walker) error {
		if ev == sheetxml.RowStart {
			switch {
			case wk.Row > rng.R2:
				return errStopWalk
			case wk.Row < rng.R1:
				wk.SkipRow(MaxSkippedRow)
			}
			return nil
		}
		c := &wk.Cell
		if ev != sheetxml.CellDone || !rng.Has(c.Col, c.Row) || (c.Row == rng.R1 && c.Col == rng.C1) {
			return nil
		}
		if visit(c) {
			return errStopWalk
		}
		return nil
	})
	if err != nil && !errors.Is(err, errStopWalk) {
		return err
	}
	return nil
}

// withoutWritten returns the copied cells that the write does not
// replace (cells is not changed).
func withoutWritten(cells []scratchCell, written map[[2]int]cellContent) []scratchCell {
	out := make([]scratchCell, 0, len(cells))
	for _, c := range cells {
		if _, ok := written[[2]int{c.row, c.col}]; !ok {
			out = append(out, c)
		}
	}
	return out
}

// withSpills is plan that also rebuilds the cells dynamic arrays added to
// the write w (plan.Cell writes them from w.cells), and declines the
// rewrite when a merged range meets a spill range.
func withSpills(plan splice.Plan, w *cellWrites) splice.Plan {
	if w == nil || !w.spilled {
		return plan
	}
	plan.Rows, plan.Cols = withCells(plan, w.cells)
	for _, s := range w.spills {
		plan.KeepClear = append(plan.KeepClear, [4]int{s.C1, s.R1, s.C2, s.R2})
	}
	return plan
}
