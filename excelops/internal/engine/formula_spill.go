package engine

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// SpillError is the value of an anchor whose spill range is obstructed.
const SpillError = "#SPILL!"

// OldAnchor is a dynamic array anchor a write_cells call overwrites, and
// the range its values spilled over.
type OldAnchor struct {
	Col, Row int
	spill    CellRange
	Formula  string // as stored, when anchorsOf listed it
}

// DynamicAnchor returns the spill range of the cell if it is a dynamic
// array anchor (cm set, f t="array" with a ref).
func DynamicAnchor(c *excelize.XMLCell) (CellRange, bool) {
	if c == nil || c.Cm == nil || c.F == nil || c.F.T != "array" || c.F.Ref == "" {
		return CellRange{}, false
	}
	r, err := grid.ParseRange(c.F.Ref)
	return r, err == nil
}

// SheetCell returns the parsed cell at (col, row) of ws, or nil. excelize
// keeps a worksheet's rows in ascending order, the rows it prepared one per
// index: the row is looked up by index, else by a binary search.
func SheetCell(ws *excelize.XMLWorksheet, col, row int) *excelize.XMLCell {
	ref := grid.CellName(col, row)
	rows := ws.SheetData.Row
	i := row - 1
	if i >= len(rows) || rows[i].R != row {
		i = sort.Search(len(rows), func(k int) bool { return rows[k].R >= row })
		if i == len(rows) || rows[i].R != row {
			return nil
		}
	}
	cells := rows[i].C
	if col-1 < len(cells) && cells[col-1].R == ref {
		return &cells[col-1]
	}
	for j := range cells {
		if cells[j].R == ref {
			return &cells[j]
		}
	}
	return nil
}

// AnchorsUnder returns the dynamic array anchors among the cells plan
// writes, read before the writes.
func (b *Book) AnchorsUnder(sheet string, plan []CellWrite) ([]OldAnchor, error) {
	ws, err := b.f.Worksheet(sheet)
	if err != nil {
		return nil, err
	}
	var out []OldAnchor
	for _, w := range plan {
		if spill, ok := DynamicAnchor(SheetCell(ws, w.Col, w.Row)); ok {
			out = append(out, OldAnchor{Col: w.Col, Row: w.Row, spill: spill})
		}
	}
	return out, nil
}

// UndoAnchors is clearOldSpills on the book's engine.
func (b *Book) UndoAnchors(sheet string, old []OldAnchor, kept func(col, row int) bool) error {
	return clearOldSpills(b.f, sheet, old, kept)
}

// clearOldSpills undoes the anchors a call overwrote: each anchor loses its
// cell metadata (a formula written there is a plain one until spillFormulas
// makes it an anchor again), and the values it spilled are cleared, except
// in cells the call wrote.
func clearOldSpills(f *excelize.File, sheet string, old []OldAnchor, kept func(col, row int) bool) error {
	if len(old) == 0 {
		return nil
	}
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return err
	}
	for _, a := range old {
		if c := SheetCell(ws, a.Col, a.Row); c != nil {
			c.Cm = nil
			if c.F != nil && c.F.T == "array" {
				c.F.T, c.F.Ref = "", ""
			}
		}
		for r := a.spill.R1; r <= a.spill.R2; r++ {
			for col := a.spill.C1; col <= a.spill.C2; col++ {
				if (r == a.Row && col == a.Col) || (kept != nil && kept(col, r)) {
					continue
				}
				if c := SheetCell(ws, col, r); c != nil && c.F == nil {
					c.T, c.V, c.IS = "", "", nil
				}
			}
		}
	}
	return nil
}

// spillFormulas makes each formula plan wrote that returns an array of more
// than one value a dynamic array formula, as Excel 365 stores one: the
// anchor holds the formula (f t="array" ref=the spill range, cm pointing at
// the dynamic array metadata) and the first value, the other cells of the
// range the other values. When a cell of the range other than the anchor
// holds anything (a value or formula, one written by this call included), a
// merged range overlaps it, or it passes the sheet's edge, the anchor is
// #SPILL! and nothing spills. A formula the calculator cannot compute (or
// not exactly: inexactInArrays), or whose result is one value,
// stays an ordinary formula, except one whose operators apply to a range
// (SUM(A1:A5*B1:B5)): it is a dynamic array formula over its own cell. It returns the
// ranges values spilled over. A spill of more than maxCells cells is a
// KindLimit error, as a block of that many values would be.
func spillFormulas(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, sheet string, plan []CellWrite, maxCells int) ([]CellRange, error) {
	var spilled []CellRange
	for _, w := range plan {
		if w.Formula == "" || !formulatext.MaySpill(w.Formula) || CallsUncomputable(w.Formula) || InexactInArrays(f, sheet, w.Formula) {
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
			return nil, LimitErr(fmt.Sprintf("the formula in %s spills over %d cells, more than the limit of %d", ref, n, maxCells))
		}
		rng := CellRange{C1: w.Col, R1: w.Row, C2: w.Col + len(vals[0]) - 1, R2: w.Row + len(vals) - 1}
		blocked, err := spillBlocked(f, sheet, rng)
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
			if err := setTypedValue(f, sheet, w.Col, w.Row, excelize.ArrayValue{Type: excelize.CellTypeError, Value: SpillError}); err != nil {
				return nil, err
			}
			continue
		}
		for r, row := range vals {
			for c, v := range row {
				if err := setTypedValue(f, sheet, w.Col+c, w.Row+r, v); err != nil {
					return nil, err
				}
			}
		}
		spilled = append(spilled, rng)
	}
	return spilled, nil
}

// spillBlocked reports whether rng cannot take a spill: it passes the
// sheet's edge, a merged range overlaps it, or a cell other than its
// top-left one holds a value or a formula.
func spillBlocked(f *excelize.File, sheet string, rng CellRange) (bool, error) {
	if rng.R2 > grid.LastRow || rng.C2 > excelize.MaxColumns {
		return true, nil
	}
	merges, err := f.GetMergeCells(sheet)
	if err != nil {
		return false, err
	}
	for _, m := range merges {
		if mr, err := grid.ParseRange(m.GetStartAxis() + ":" + m.GetEndAxis()); err == nil &&
			mr.C1 <= rng.C2 && rng.C1 <= mr.C2 && mr.R1 <= rng.R2 && rng.R1 <= mr.R2 {
			return true, nil
		}
	}
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return false, err
	}
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		if row.R < rng.R1 || row.R > rng.R2 {
			continue
		}
		for j := range row.C {
			c := &row.C[j]
			col, r, err := excelize.CellNameToCoordinates(c.R)
			if err != nil || col < rng.C1 || col > rng.C2 || (col == rng.C1 && r == rng.R1) {
				continue
			}
			if c.F != nil || c.V != "" || c.IS != nil {
				return true, nil
			}
		}
	}
	return false, nil
}

// setTypedValue stores v in the cell (col, row) as a plain value of its
// type, keeping the cell's style; the anchor's formula, if the cell is the
// anchor, is kept and v becomes its cached value.
func setTypedValue(f *excelize.File, sheet string, col, row int, v excelize.ArrayValue) error {
	ref := grid.CellName(col, row)
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return err
	}
	if c := SheetCell(ws, col, row); c != nil && c.F != nil {
		formulaCell{Ref: ref, cell: c}.setCached(cachedTypeOf(v), v.Value)
		return nil
	}
	switch v.Type {
	case excelize.CellTypeInlineString:
		return f.SetCellStr(sheet, ref, v.Value)
	case excelize.CellTypeUnset:
		return nil
	}
	if err := f.SetCellDefault(sheet, ref, "0"); err != nil {
		return err
	}
	c := SheetCell(ws, col, row)
	if c == nil {
		return newError(failure.KindDamaged, "file is damaged: sheet "+strconv.Quote(sheet)+" lost cell "+ref+" while it was written", nil)
	}
	c.T, c.V, c.IS = cachedTypeOf(v), v.Value, nil
	return nil
}

// cachedTypeOf is the t attribute of a cell holding v ("" for a number).
func cachedTypeOf(v excelize.ArrayValue) string {
	switch v.Type {
	case excelize.CellTypeBool:
		return "b"
	case excelize.CellTypeError:
		return "e"
	case excelize.CellTypeInlineString:
		return "str"
	}
	return ""
}

// CachedOf returns an anchor's cached value as the file holds it: its type
// (cachedTypeOf) and its text, escaped as an ST_Xstring when it is a text
// (_x0004_ for U+0004, as computeFormula gives a formula's text result).
func CachedOf(v excelize.ArrayValue) (t, text string) {
	t = cachedTypeOf(v)
	if t == "str" {
		return t, excelize.EscapeXstring(v.Value)
	}
	return t, v.Value
}

// spillStuck reports whether c is a dynamic array anchor whose spill was
// blocked: recomputing its formula alone would store its first value where
// Excel shows #SPILL!, so a refresh leaves it.
func (c formulaCell) spillStuck() bool {
	_, ok := DynamicAnchor(c.cell)
	return ok && c.cell.T == "e" && c.cell.V == SpillError
}

// spillWrites undoes the anchors write_cells overwrote (old, read before its
// writes) and spills the formulas it wrote (spillFormulas); it returns every
// range whose cells changed besides the block: old spills and new ones.
func spillWrites(b *Book, sheet string, plan []CellWrite, old []OldAnchor) ([]CellRange, error) {
	written := make(map[[2]int]bool, len(plan))
	for _, w := range plan {
		written[[2]int{w.Col, w.Row}] = true
	}
	if err := clearOldSpills(b.f, sheet, old, func(c, r int) bool { return written[[2]int{c, r}] }); err != nil {
		return nil, err
	}
	spills, err := spillFormulas(b.CallContext(), b.f, b.Svc.Limits.Calc(), sheet, plan, b.Svc.Limits.MaxWriteCells)
	for _, a := range old {
		spills = append(spills, a.spill)
	}
	return spills, err
}

// SpillBlock spills the formulas plan wrote into block on sh (old: the
// anchors the writes overwrote, from anchorsUnder), widens the sheet's
// extent over block and every spill and, on a sheet the call did not
// create, sets the call's edit set: only formulas reading the block or a
// spill range need recomputing.
func (b *Book) SpillBlock(sh SheetRef, block CellRange, plan []CellWrite, old []OldAnchor) error {
	spills, err := spillWrites(b, sh.Name, plan, old)
	if err != nil {
		return err
	}
	sh.Ext.Widen(block.R1, block.C1)
	sh.Ext.Widen(block.R2, block.C2)
	areas := []SheetArea{{Sheet: sh.Name, C1: block.C1, R1: block.R1, C2: block.C2, R2: block.R2}}
	for _, r := range spills {
		sh.Ext.Widen(r.R2, r.C2)
		areas = append(areas, SheetArea{Sheet: sh.Name, C1: r.C1, R1: r.R1, C2: r.C2, R2: r.R2})
	}
	if !sh.Created {
		b.Edits = &EditSet{Areas: areas, fresh: formulaCellsOf(sh.Name, plan)}
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
	return setTypedValue(f, sheet, w.Col, w.Row, v)
}
