// registry-sidecar: a legacy array formula over several cells is computed
// once as an array and laid over its range (see PATCHES.md).

package excelize

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrLegacyArrayRead is the failure of a calculation that reads a cell of a
// legacy (Ctrl+Shift+Enter) array formula over several cells whose array
// the calculator cannot compute (a function it lacks, an empty array, a
// formula reading its own range): rather than compute from upstream's
// per-cell rewrite of the formula, which is wrong wherever the array has
// another shape than the range, the calculation stops without a result.
var ErrLegacyArrayRead = errors.New("not supported: reading a legacy array formula over several cells")

// legacyArrays is what one bounded calculation knows of the legacy array
// formulas it read: each one's values laid over its range, and the ones
// being computed (reading one of those again is a circular reference).
// Keys are "sheet!A1" of the formulas' first cells.
type legacyArrays struct {
	laid map[string][][]formulaArg
	busy map[string]bool
}

// legacyAnchor is a legacy array formula over several cells: its first
// cell and the coordinates of its range.
type legacyAnchor struct {
	cell                   string
	col1, row1, col2, row2 int
}

// key is the anchor's key in legacyArrays.
func (a legacyAnchor) key(sheet string) string { return sheet + "!" + a.cell }

// CalcLegacyArray computes the legacy array formula whose first cell is
// sheet!cell (<f t="array" ref="I1:J3">, not a dynamic array anchor, its
// ref a range) as Excel does, bounded like CalcCellValueContext: the
// formula once, as an array, laid over the range (layOver). It returns one
// value per cell of the range, by rows. An error is returned when the cell
// holds no such formula, when the calculator cannot compute it
// (ErrLegacyArrayRead) or when the calculation stopped. The values are
// cached as the range's cells' values, as a formula cell's computed value
// is, until the workbook's calculation caches are cleared.
func (f *File) CalcLegacyArray(ctx context.Context, sheet, cell string, lim CalcLimits) ([][]ArrayValue, error) {
	a, _, ok := f.legacyAnchorAt(sheet, cell)
	if !ok || a.cell != strings.ToUpper(cell) {
		return nil, fmt.Errorf("%s!%s holds no legacy array formula over several cells", sheet, cell)
	}
	guard := newCalcGuard(ctx, lim)
	_, err := f.calcInPieces(guard, a.key(sheet), f.getOptions().MaxCalcIterations, sheet, a.cell)
	if guard.failed() != nil {
		return nil, guard.failed()
	}
	laid := guard.legacy.laid[a.key(sheet)]
	if laid == nil {
		if err == nil {
			err = ErrLegacyArrayRead
		}
		return nil, err
	}
	out := make([][]ArrayValue, len(laid))
	for r, row := range laid {
		out[r] = make([]ArrayValue, len(row))
		for c, v := range row {
			out[r][c] = arrayValueOf(v)
		}
	}
	return out, nil
}

// legacyArrayElement returns the value of sheet!cell when it lies in the
// range of a legacy array formula over several cells (ok): its element of
// the formula's array laid over the range, with the error of an error
// value. Only a bounded calculation (one with a guard) computes it so; an
// unbounded one reads upstream's per-cell rewrite, as before.
func (f *File) legacyArrayElement(ctx *calcContext, sheet, cell string) (formulaArg, bool, error) {
	g := ctx.checks()
	if g == nil {
		return formulaArg{}, false, nil
	}
	a, part, ok := f.legacyAnchorAt(sheet, cell)
	if !part {
		return formulaArg{}, false, nil
	}
	if !ok { // a range cell whose first cell Excel would not write so
		err := g.fail(fmt.Errorf("%w: %s!%s lies in no range it can find", ErrLegacyArrayRead, sheet, cell))
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), true, err
	}
	laid, err := f.layLegacyArray(ctx, sheet, a)
	if err != nil {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), true, err
	}
	col, row, _ := CellNameToCoordinates(cell)
	v := laid[row-a.row1][col-a.col1]
	if v.Type == ArgError {
		return v, true, errors.New(v.Error)
	}
	return v, true, nil
}

// layLegacyArray returns the values of the legacy array formula a of sheet
// laid over its range, computing its formula as an array the first time
// the calculation needs it. The values are cached for the cells of the
// range too, so that later calculations read them as they read a formula
// cell's value. A failure stops the calculation (the guard's error).
func (f *File) layLegacyArray(ctx *calcContext, sheet string, a legacyAnchor) ([][]formulaArg, error) {
	g, key := ctx.checks(), a.key(sheet)
	if laid, ok := g.legacy.laid[key]; ok {
		return laid, nil
	}
	if g.legacy.busy[key] {
		return nil, g.fail(fmt.Errorf("%w: %s reads its own range", ErrLegacyArrayRead, key))
	}
	if g.legacy.busy == nil {
		g.legacy.busy, g.legacy.laid = map[string]bool{}, map[string][][]formulaArg{}
	}
	g.legacy.busy[key] = true
	defer delete(g.legacy.busy, key)
	m, err := f.legacyArrayOf(ctx, sheet, a)
	if err != nil {
		return nil, err
	}
	rows, cols := a.row2-a.row1+1, a.col2-a.col1+1
	if err := g.chargeCells(float64(rows), float64(cols)); err != nil {
		return nil, err
	}
	laid := layOver(m, rows, cols)
	g.legacy.laid[key] = laid
	for r, row := range laid {
		for c, v := range row {
			if name, err := CoordinatesToCellName(a.col1+c, a.row1+r); err == nil {
				f.formulaArgCache.Store(sheet+"!"+name, v)
			}
		}
	}
	return laid, nil
}

// legacyArrayOf computes the formula of the legacy array a, as stored on
// its first cell, as an array: as CalcCellArray computes a formula, its
// first cell the entry of a calculation of its own within ctx's guard.
func (f *File) legacyArrayOf(ctx *calcContext, sheet string, a legacyAnchor) ([][]formulaArg, error) {
	g := ctx.checks()
	formula, err := f.getCellFormula(sheet, a.cell, false)
	if err != nil {
		return nil, g.fail(err)
	}
	own := &calcContext{
		entry:             a.key(sheet),
		maxCalcIterations: ctx.maxCalcIterations,
		iterations:        make(map[string]uint),
		iterationsCache:   make(map[string]formulaArg),
		guard:             g,
	}
	was := g.array
	g.array = true
	token, err := f.calcFormula(own, sheet, a.cell, formula)
	g.array = was
	if g.failed() != nil {
		return nil, g.failed()
	}
	if err != nil {
		if token.Type == ArgError && token.Error == token.String {
			return [][]formulaArg{{token}}, nil // an Excel error fills the range
		}
		return nil, g.fail(fmt.Errorf("%w: %v", ErrLegacyArrayRead, err))
	}
	m := matrixOf(token)
	if m == nil || len(m[0]) == 0 {
		return nil, g.fail(fmt.Errorf("%w: %s returns an empty array", ErrLegacyArrayRead, a.key(sheet)))
	}
	return m, nil
}

// legacyAnchorAt returns the legacy array formula over several cells whose
// range holds sheet!cell (its first cell or another): part says the cell
// is one of such a range (isLegacyArrayPart), ok that its formula was found.
func (f *File) legacyAnchorAt(sheet, cell string) (a legacyAnchor, part, ok bool) {
	col, row, err := CellNameToCoordinates(cell)
	if err != nil {
		return legacyAnchor{}, false, false
	}
	var own *xlsxC
	_, _ = f.getCellStringFunc(sheet, cell, func(_ *xlsxWorksheet, c *xlsxC) (string, bool, error) {
		own = c
		return "", true, nil
	})
	if own == nil || !isLegacyArrayPart(own) {
		return legacyAnchor{}, false, false
	}
	if own.F != nil {
		a, ok = legacyAnchorOf(own)
		return a, true, ok
	}
	ws, err := f.workSheetReader(sheet)
	if err != nil {
		return legacyAnchor{}, true, false
	}
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for i := range ws.SheetData.Row {
		if ws.SheetData.Row[i].R > row {
			break
		}
		for j := range ws.SheetData.Row[i].C {
			c := &ws.SheetData.Row[i].C[j]
			if c.F == nil || !isLegacyArrayPart(c) {
				continue
			}
			if a, ok := legacyAnchorOf(c); ok && a.col1 <= col && col <= a.col2 && a.row1 <= row && row <= a.row2 {
				return a, true, true
			}
		}
	}
	return legacyAnchor{}, true, false
}

// legacyAnchorOf is the legacy array formula whose first cell is c (a
// legacy array part with its <f>).
func legacyAnchorOf(c *xlsxC) (legacyAnchor, bool) {
	coords, err := rangeRefToCoordinates(c.F.Ref)
	if err != nil {
		return legacyAnchor{}, false
	}
	_ = sortCoordinates(coords)
	col, row, err := CellNameToCoordinates(c.R)
	if err != nil || col != coords[0] || row != coords[1] {
		return legacyAnchor{}, false // not the range's first cell: not a shape Excel writes
	}
	name, _ := CoordinatesToCellName(col, row)
	return legacyAnchor{cell: name, col1: coords[0], row1: coords[1], col2: coords[2], row2: coords[3]}, true
}

// isLegacyArrayPart reports whether c lies in the range of a legacy array
// formula the calculator lays over several cells (a ref with a colon): its
// first cell (<f t="array" ref="I1:J3">, not a dynamic array anchor) or
// another cell of the range, which holds the per-cell rewrite
// setArrayFormulaCells stored.
func isLegacyArrayPart(c *xlsxC) bool {
	if c.F == nil {
		return c.f != "" // only setArrayFormulaCells sets f on a cell without <f>
	}
	if c.F.T != STCellFormulaTypeArray || isDynamicArrayAnchor(c) {
		return false
	}
	// A range, even of one cell (R1:R1, as LibreOffice may write it):
	// setArrayFormulaCells rewrites its formula too (SUM(A1:A3) read as
	// SUM(A1)).
	return strings.Contains(c.F.Ref, ":")
}
