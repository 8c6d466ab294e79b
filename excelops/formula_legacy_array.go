package excelops

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// A legacy (Ctrl+Shift+Enter) array formula over several cells is stored
// once, on its first cell (<f t="array" ref="I1:J3">); the other cells of
// its range hold only values. Excel computes the array once and lays it
// over the range (a single row or column repeats, cells past a larger
// array are #N/A). The engine rewrites such a formula into one formula per
// cell instead, which is wrong for any array of another shape than the
// range and for functions that take a range whole. So none of the range's
// cells gets a computed value: when the first cell is recomputed, every
// cell of the range loses its cached value, and the workbook is marked to
// be recalculated on open, as for other inexact formulas.

// legacyArrayRange returns the range of the legacy array formula whose
// first cell is c, when the engine rewrites it per cell: its ref is a
// range, even of one cell (X1:X1, where SUM(A1:A3*2) becomes SUM(A1*2));
// a dynamic array anchor, which the calculator spills itself, is not one.
func legacyArrayRange(c *excelize.XMLCell) (cellRange, bool) {
	if c == nil || c.F == nil || c.F.T != excelize.STCellFormulaTypeArray || c.F.Ref == "" {
		return cellRange{}, false
	}
	if _, ok := dynamicAnchor(c); ok {
		return cellRange{}, false
	}
	if !strings.Contains(c.F.Ref, ":") {
		return cellRange{}, false // one cell, computed whole
	}
	r, err := parseRange(c.F.Ref)
	return r, err == nil
}

// isLegacyArrayOverCells reports whether sheet!ref is the first cell of a
// legacy array formula the engine rewrites per cell (legacyArrayRange).
func isLegacyArrayOverCells(f *excelize.File, sheet, ref string) bool {
	_, ok := legacyArrayRange(parsedCell(f, sheet, ref))
	return ok
}

// dropLegacyArrayValues removes the cached values of the cells of the
// legacy array formula whose first cell is at (col, row) of sheet, other
// than that first cell, and returns how many it removed. A cell of the
// range holding a formula of its own (not a shape Excel writes) is left
// to that formula.
func dropLegacyArrayValues(f *excelize.File, sheet string, col, row int) int {
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return 0
	}
	r, ok := legacyArrayRange(sheetCell(ws, col, row))
	if !ok {
		return 0
	}
	n := 0
	for y := r.r1; y <= r.r2; y++ {
		for x := r.c1; x <= r.c2; x++ {
			if x == col && y == row {
				continue
			}
			c := sheetCell(ws, x, y)
			if c == nil || c.F != nil || (c.V == "" && c.T == "" && c.IS == nil) {
				continue
			}
			c.T, c.V, c.IS = "", "", nil
			n++
		}
	}
	return n
}
