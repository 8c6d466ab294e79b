// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar additions (PATCHES.md, section N): FILTER and SORT,
// Excel 365 functions that select or reorder the rows or columns of an
// array. Their results are charged to the guard before they are
// allocated, and the sort's comparisons are counted before it runs.

package excelize

import (
	"container/list"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// errUnsupported stops a calculation that needs what the calculator
// cannot do as Excel does.
var errUnsupported = errors.New("formula calculation needs what the calculator does not support")

// unsupported stops the calculation fn belongs to (the failure sticks, so
// IFERROR or ISERROR around the call cannot turn it into a value) and
// returns the error argument of a function that cannot compute what.
func (fn *formulaFuncs) unsupported(what string) formulaArg {
	if g := fn.guard(); g != nil {
		g.fail(fmt.Errorf("%w: %s", errUnsupported, what))
	}
	return unsupportedArg(what)
}

// tableArg returns argument i of argsList as a rectangular array, or the
// error to return: an error value passed as the array, #CALC! for an
// empty one. The calculator has no arithmetic on arrays (an operator
// applied to a range gives one value, or drops the argument), so a
// value that is not a range, an array constant or a function's array is
// refused as unsupported instead of being taken for a one-cell array,
// and so is an array constant whose rows differ in length (the parser
// drops the error values of a constant).
func (fn *formulaFuncs) tableArg(name string, argsList *list.List, i int) ([][]formulaArg, formulaArg, bool) {
	arg := argAt(argsList, i)
	switch arg.Type {
	case ArgError:
		return nil, arg, false
	case ArgMatrix, ArgList:
	default:
		return nil, fn.unsupported(name + " of a value that is not a range or an array"), false
	}
	m := matrixOf(arg)
	if m == nil {
		return nil, newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC), false
	}
	for _, row := range m {
		if len(row) != len(m[0]) {
			return nil, fn.unsupported(name + " of an array whose rows differ in length"), false
		}
	}
	return m, arg, true
}

// includeFlags reads FILTER's include argument, a column of one value per
// row of an array of rows x cols or a row of one value per column, as
// keep flags; byRow says which. Text (an empty text too) is #VALUE!, an
// error value is returned as it is, a blank cell is FALSE.
func includeFlags(m [][]formulaArg, rows, cols int) (flags []bool, byRow bool, errArg formulaArg, ok bool) {
	var line []formulaArg
	switch {
	case len(m[0]) == 1 && len(m) == rows:
		byRow = true
		for _, r := range m {
			line = append(line, r[0])
		}
	case len(m) == 1 && len(m[0]) == cols:
		line = m[0]
	default:
		return nil, false, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	flags = make([]bool, len(line))
	for i, v := range line {
		switch {
		case v.Type == ArgError:
			return nil, false, v, false
		case v.Type == ArgEmpty:
		case v.Type == ArgNumber:
			flags[i] = v.Number != 0
		default:
			return nil, false, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
		}
	}
	return flags, byRow, formulaArg{}, true
}

// FILTER function returns the rows (or columns) of an array whose include
// value is TRUE or a number other than 0. The syntax of the function is:
//
//	FILTER(array,include,[if_empty])
func (fn *formulaFuncs) FILTER(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, "FILTER requires 2 or 3 arguments")
	}
	m, errArg, ok := fn.tableArg("FILTER", argsList, 0)
	if !ok {
		return errArg
	}
	inc, errArg, ok := fn.tableArg("FILTER", argsList, 1)
	if !ok {
		return errArg
	}
	if err := fn.guard().spend(float64(len(inc)) * float64(len(inc[0]))); err != nil {
		return stopArg(err)
	}
	flags, byRow, errArg, ok := includeFlags(inc, len(m), len(m[0]))
	if !ok {
		return errArg
	}
	var keep []int
	for i, f := range flags {
		if f {
			keep = append(keep, i)
		}
	}
	if len(keep) == 0 {
		if argsList.Len() == 3 && argAt(argsList, 2).Type != ArgEmpty {
			return argAt(argsList, 2)
		}
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	}
	rows, cols := float64(len(keep)), float64(len(m[0]))
	if !byRow {
		rows, cols = float64(len(m)), float64(len(keep))
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			if byRow {
				out[r][c] = m[keep[r]][c]
			} else {
				out[r][c] = m[r][keep[c]]
			}
		}
	}
	return newMatrixFormulaArg(out)
}

// numberList returns argument i of argsList (a value or a vector) as
// numbers truncated toward zero, or the error to return; def when the
// argument is absent or empty.
func numberList(argsList *list.List, i int, def float64) ([]float64, formulaArg, bool) {
	if argsList.Len() <= i || argAt(argsList, i).Type == ArgEmpty {
		return []float64{def}, formulaArg{}, true
	}
	arg := argAt(argsList, i)
	if arg.Type == ArgMatrix && len(arg.Matrix) > 1 && len(arg.Matrix[0]) > 1 {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	var out []float64
	for _, v := range arg.ToList() {
		if v.Type == ArgError {
			return nil, v, false
		}
		n := v.ToNumber()
		if v.Type == ArgEmpty || isBlankArg(v) || n.Type != ArgNumber {
			return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
		}
		out = append(out, math.Trunc(n.Number))
	}
	if len(out) == 0 {
		return []float64{def}, formulaArg{}, true
	}
	return out, formulaArg{}, true
}

// sortRank is the place of a value's type in Excel's ascending sort:
// numbers, text (an empty text first), logical values, errors, and blank
// cells last.
func sortRank(v formulaArg) int {
	switch {
	case v.Type == ArgNumber && v.Boolean:
		return 2
	case v.Type == ArgNumber:
		return 0
	case v.Type == ArgError:
		return 3
	case v.Type == ArgEmpty:
		return 4
	}
	return 1
}

// compareSortValues orders a and b as Excel's ascending sort does: by
// type (sortRank), numbers and logical values by value, text ignoring
// case, every error equal to every other.
func compareSortValues(a, b formulaArg) int {
	ra, rb := sortRank(a), sortRank(b)
	if ra != rb {
		return ra - rb
	}
	switch ra {
	case 0, 2:
		switch {
		case a.Number < b.Number:
			return -1
		case a.Number > b.Number:
			return 1
		}
	case 1:
		return strings.Compare(strings.ToLower(a.Value()), strings.ToLower(b.Value()))
	}
	return 0
}

// sortKey is one key of SORT: the 0-based row or column compared, and the
// direction.
type sortKey struct {
	at         int
	descending bool
}

// sortKeys reads SORT's sort_index and sort_order arguments for lines of
// size values: one order for every index, or one per index.
func sortKeys(argsList *list.List, size int) ([]sortKey, formulaArg, bool) {
	idx, errArg, ok := numberList(argsList, 1, 1)
	if !ok {
		return nil, errArg, false
	}
	orders, errArg, ok := numberList(argsList, 2, 1)
	if !ok {
		return nil, errArg, false
	}
	if len(orders) != 1 && len(orders) != len(idx) {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	keys := make([]sortKey, len(idx))
	for i, n := range idx {
		order := orders[0]
		if len(orders) > 1 {
			order = orders[i]
		}
		if n < 1 || n > float64(size) || (order != 1 && order != -1) {
			return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
		}
		keys[i] = sortKey{at: int(n) - 1, descending: order == -1}
	}
	return keys, formulaArg{}, true
}

// compareLines orders two rows (or columns) of SORT by keys: blanks last
// whatever the direction, the rest in Excel's order or its reverse.
func compareLines(a, b []formulaArg, keys []sortKey) int {
	for _, k := range keys {
		x, y := a[k.at], b[k.at]
		if bx, by := x.Type == ArgEmpty, y.Type == ArgEmpty; bx || by {
			if bx != by {
				if bx {
					return 1
				}
				return -1
			}
			continue
		}
		c := compareSortValues(x, y)
		if k.descending {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return 0
}

// SORT function sorts the rows (or, by_col, the columns) of an array by
// the given row or column, stably. The syntax of the function is:
//
//	SORT(array,[sort_index],[sort_order],[by_col])
func (fn *formulaFuncs) SORT(argsList *list.List) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, "SORT requires 1 to 4 arguments")
	}
	m, errArg, ok := fn.tableArg("SORT", argsList, 0)
	if !ok {
		return errArg
	}
	byCol := false
	if argsList.Len() == 4 && argAt(argsList, 3).Type != ArgEmpty {
		b, ok := scalarArg(argAt(argsList, 3))
		if !ok {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		if b.Type == ArgError {
			return b
		}
		if b = b.ToBool(); b.Type == ArgError {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		byCol = b.Number != 0
	}
	out, errArg, ok := fn.newArray(float64(len(m)), float64(len(m[0])))
	if !ok {
		return errArg
	}
	lines := m
	if byCol {
		if err := fn.guard().chargeCells(float64(len(m)), float64(len(m[0]))); err != nil {
			return stopArg(err)
		}
		lines = transposeFormulaArgsMatrix(m)
	}
	keys, errArg, ok := sortKeys(argsList, len(lines[0]))
	if !ok {
		return errArg
	}
	n := float64(len(lines))
	if err := fn.guard().spend(n * math.Ceil(math.Log2(n+1)) * float64(len(keys))); err != nil {
		return stopArg(err)
	}
	sorted := slices.Clone(lines)
	slices.SortStableFunc(sorted, func(a, b []formulaArg) int { return compareLines(a, b, keys) })
	for r := range out {
		for c := range out[r] {
			if byCol {
				out[r][c] = sorted[c][r]
			} else {
				out[r][c] = sorted[r][c]
			}
		}
	}
	return newMatrixFormulaArg(out)
}
