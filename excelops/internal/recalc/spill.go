package recalc

import (
	"sort"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// SpillError is the value of an anchor whose spill range is obstructed.
const SpillError = "#SPILL!"

// OldAnchor is a dynamic array anchor a write_cells call overwrites, and
// the range its values spilled over.
type OldAnchor struct {
	Col, Row int
	Spill    cellarea.Range
	Formula  string // as stored, when anchorsOf listed it
}

// DynamicAnchor returns the spill range of the cell if it is a dynamic
// array anchor (cm set, f t="array" with a ref).
func DynamicAnchor(c *excelize.XMLCell) (cellarea.Range, bool) {
	if c == nil || c.Cm == nil || c.F == nil || c.F.T != "array" || c.F.Ref == "" {
		return cellarea.Range{}, false
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

// ClearOldSpills undoes the anchors a call overwrote: each anchor loses its
// cell metadata (a formula written there is a plain one until spillFormulas
// makes it an anchor again), and the values it spilled are cleared, except
// in cells the call wrote.
func ClearOldSpills(f *excelize.File, sheet string, old []OldAnchor, kept func(col, row int) bool) error {
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
		for r := a.Spill.R1; r <= a.Spill.R2; r++ {
			for col := a.Spill.C1; col <= a.Spill.C2; col++ {
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

// SpillBlocked reports whether rng cannot take a spill: it passes the
// sheet's edge, a merged range overlaps it, or a cell other than its
// top-left one holds a value or a formula.
func SpillBlocked(f *excelize.File, sheet string, rng cellarea.Range) (bool, error) {
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

// SetTypedValue stores v in the cell (col, row) as a plain value of its
// type, keeping the cell's style; the anchor's formula, if the cell is the
// anchor, is kept and v becomes its cached value.
func SetTypedValue(f *excelize.File, sheet string, col, row int, v excelize.ArrayValue) error {
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
		return failure.New(failure.KindDamaged, "file is damaged: sheet "+strconv.Quote(sheet)+" lost cell "+ref+" while it was written", nil)
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
// (_x0004_ for U+0004, as ComputeFormula gives a formula's text result).
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
