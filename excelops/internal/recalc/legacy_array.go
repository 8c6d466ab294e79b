package recalc

import (
	"context"
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// A legacy (Ctrl+Shift+Enter) array formula over several cells is stored
// once, on its first cell (<f t="array" ref="I1:J3">); the other cells of
// its range hold only values. Excel computes the array once and lays it
// over the range (a single row or column repeats, a single value fills the
// range, cells past a smaller array are #N/A); so does the calculator
// (excelize.CalcLegacyArray), and when the first cell is recomputed every
// cell of the range gets its laid-out value, the others as plain values
// without a formula, as Excel stores them. A formula the engine cannot
// compute exactly (legacyArrayValues) leaves every cell of its range
// without a value, as do the formulas reading it (legacy_taint.go),
// and the workbook is marked to be recalculated on open.

// legacyArrayRange returns the range of the legacy array formula whose
// first cell is c, when the calculator lays it over its range
// (CalcLegacyArray): its ref is a range, even of one cell (X1:X1, as
// LibreOffice writes one); a dynamic array anchor, which the calculator
// spills itself, is not one.
func legacyArrayRange(c *excelize.XMLCell) (cellarea.Range, bool) {
	if c == nil || c.F == nil || c.F.T != excelize.STCellFormulaTypeArray || c.F.Ref == "" {
		return cellarea.Range{}, false
	}
	if _, ok := DynamicAnchor(c); ok {
		return cellarea.Range{}, false
	}
	if !strings.Contains(c.F.Ref, ":") {
		return cellarea.Range{}, false // one cell, computed whole
	}
	r, err := grid.ParseRange(c.F.Ref)
	return r, err == nil
}

// isLegacyArrayOverCells reports whether sheet!ref is the first cell of a
// legacy array formula laid over its range (legacyArrayRange).
func isLegacyArrayOverCells(f *excelize.File, sheet, ref string) bool {
	_, ok := legacyArrayRange(ParsedCell(f, sheet, ref))
	return ok
}

// LegacyArrayValues returns the cached values of every cell of the range
// of the legacy array formula whose first cell is sheet!ref, by rows, as
// the calculator lays its array over the range; nil when the engine cannot
// compute it exactly: a function it lacks or computes around
// (callsUncomputable), what it computes unlike Excel even as an array
// formula (InexactInArrays), a reference cut by a deletion, or a formula
// the calculator refuses (see ComputeFormula for lim and the time bound).
// err is ctx's error when ctx ended.
func LegacyArrayValues(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, sheet, ref string) (laid [][]CachedCell, err error) {
	defer func() {
		if recover() != nil {
			laid, err = nil, nil // as ComputeFormula: no value rather than a failed call
		}
	}()
	if !legacyExact(f, sheet, ref) {
		return nil, nil
	}
	one, cancel := context.WithTimeout(ctx, limits.MaxFormulaTime)
	defer cancel()
	vals, cerr := f.CalcLegacyArray(one, sheet, ref, lim)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if cerr != nil {
		return nil, nil
	}
	laid = make([][]CachedCell, len(vals))
	for r, row := range vals {
		laid[r] = make([]CachedCell, len(row))
		for c, v := range row {
			t, text := CachedOf(v)
			if t == "str" && grid.CheckText(ref, v.Value) != nil {
				t, text = "e", "#VALUE!"
			}
			laid[r][c] = CachedCell{t, text}
		}
	}
	return laid, nil
}

// CachedCell is a cell's cached value: its type ("" for a number, "b",
// "e", "str") and text, as formulaCell.setCached takes them.
type CachedCell struct{ Type, Value string }

// placeLegacyArray stores laid (legacyArrayValues) as the cached values of
// the cells of the range of the legacy array formula whose first cell is
// at (col, row) of sheet, other than that first cell, or removes their
// values when laid is nil. It returns how many values changed and how many
// it removed. A cell of the range holding a formula of its own (not a
// shape Excel writes) is left to that formula; an empty text, which a cell
// without a formula cannot hold, leaves the cell without a value.
func placeLegacyArray(f *excelize.File, sheet string, col, row int, laid [][]CachedCell) (changed, dropped int, err error) {
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return 0, 0, nil
	}
	r, ok := legacyArrayRange(SheetCell(ws, col, row))
	if !ok {
		return 0, 0, nil
	}
	if laid == nil || len(laid) != r.R2-r.R1+1 {
		return 0, dropLegacyValues(ws, r), nil
	}
	for y := r.R1; y <= r.R2; y++ {
		if len(laid[y-r.R1]) != r.C2-r.C1+1 {
			return 0, dropLegacyValues(ws, r), nil
		}
		for x := r.C1; x <= r.C2; x++ {
			want := laid[y-r.R1][x-r.C1]
			if x == col && y == row {
				continue // the first cell holds its own
			}
			c := SheetCell(ws, x, y)
			if want.Type == "str" && want.Value == "" { // an empty text: none
				if c != nil && c.F == nil && (c.V != "" || c.T != "" || c.IS != nil) {
					c.T, c.V, c.IS = "", "", nil
					dropped++
				}
				continue
			}
			if c == nil {
				if err := f.SetCellDefault(sheet, grid.CellName(x, y), "0"); err != nil {
					return changed, dropped, err
				}
				c = SheetCell(ws, x, y)
			}
			if c == nil || c.F != nil {
				continue
			}
			if c.V != want.Value || CachedKind(c.T) != CachedKind(want.Type) || c.IS != nil {
				changed++
			}
			c.T, c.V, c.IS = want.Type, want.Value, nil
		}
	}
	return changed, dropped, nil
}

// dropLegacyValues removes the values of the cells of the legacy array
// formula's range r on ws other than its first, and returns how many it
// removed; only the cells the sheet holds are visited, however large r is.
func dropLegacyValues(ws *excelize.XMLWorksheet, r cellarea.Range) int {
	n := 0
	rows := ws.SheetData.Row
	for i := sort.Search(len(rows), func(i int) bool { return rows[i].R >= r.R1 }); i < len(rows) && rows[i].R <= r.R2; i++ {
		for j := range rows[i].C {
			c := &rows[i].C[j]
			x, y, err := excelize.CellNameToCoordinates(c.R)
			if err != nil || x < r.C1 || x > r.C2 || (x == r.C1 && y == r.R1) || c.F != nil {
				continue
			}
			if c.V != "" || c.T != "" || c.IS != nil {
				c.T, c.V, c.IS = "", "", nil
				n++
			}
		}
	}
	return n
}
