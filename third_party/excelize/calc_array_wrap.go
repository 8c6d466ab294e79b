// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar additions (PATCHES.md, section N): WRAPROWS, WRAPCOLS
// and RANDARRAY, Excel 365 functions that build an array of a size their
// arguments give. Each result is charged to the guard before it is
// allocated.

package excelize

import (
	"container/list"
	"math"
	"math/rand/v2"
)

// wrap is WRAPROWS (byRow) and WRAPCOLS: the values of a one-row or
// one-column array laid out count to a row (or column), the last one
// padded with pad_with (default #N/A).
func (fn *formulaFuncs) wrap(name string, argsList *list.List, byRow bool) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 2 or 3 arguments")
	}
	m, errArg, ok := fn.tableArg(name, argsList, 0)
	if !ok {
		return errArg
	}
	if len(m) > 1 && len(m[0]) > 1 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	count, errArg, ok := intArg(argAt(argsList, 1))
	if !ok {
		return errArg
	}
	if count < 1 {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	pad := naArg()
	if argsList.Len() == 3 && argAt(argsList, 2).Type != ArgEmpty {
		p, ok := scalarArg(argAt(argsList, 2))
		if !ok {
			return fn.unsupported(name + " with an array pad_with")
		}
		pad = p
	}
	var line []formulaArg
	for _, row := range m {
		line = append(line, row...)
	}
	lines := math.Ceil(float64(len(line)) / count)
	rows, cols := lines, count
	if !byRow {
		rows, cols = count, lines
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			i := r*int(cols) + c
			if !byRow {
				i = c*int(rows) + r
			}
			if i < len(line) {
				out[r][c] = line[i]
			} else {
				out[r][c] = pad
			}
		}
	}
	return newMatrixFormulaArg(out)
}

// WRAPROWS function wraps a row or column of values into rows of the given
// length. The syntax of the function is:
//
//	WRAPROWS(vector,wrap_count,[pad_with])
func (fn *formulaFuncs) WRAPROWS(argsList *list.List) formulaArg {
	return fn.wrap("WRAPROWS", argsList, true)
}

// WRAPCOLS function wraps a row or column of values into columns of the
// given length. The syntax of the function is:
//
//	WRAPCOLS(vector,wrap_count,[pad_with])
func (fn *formulaFuncs) WRAPCOLS(argsList *list.List) formulaArg {
	return fn.wrap("WRAPCOLS", argsList, false)
}

// numberArgAt returns the optional number argument i of argsList: def when
// it is absent or empty, the error to return for text or an error value,
// unsupported for an array of more than one value.
func (fn *formulaFuncs) numberArgAt(name string, argsList *list.List, i int, def float64) (float64, formulaArg, bool) {
	if argsList.Len() <= i || argAt(argsList, i).Type == ArgEmpty {
		return def, formulaArg{}, true
	}
	arg, ok := scalarArg(argAt(argsList, i))
	if !ok {
		return 0, fn.unsupported(name + " with an array argument"), false
	}
	if arg.Type == ArgError {
		return 0, arg, false
	}
	n := arg.ToNumber()
	if n.Type != ArgNumber || math.IsNaN(n.Number) || math.IsInf(n.Number, 0) {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return n.Number, formulaArg{}, true
}

// RANDARRAY function returns an array of random numbers between min and
// max (0 and 1 by default), whole numbers when integer is TRUE. It is
// volatile: every calculation draws new numbers. The syntax of the
// function is:
//
//	RANDARRAY([rows],[columns],[min],[max],[integer])
func (fn *formulaFuncs) RANDARRAY(argsList *list.List) formulaArg {
	if argsList.Len() > 5 {
		return newErrorFormulaArg(formulaErrorVALUE, "RANDARRAY accepts at most 5 arguments")
	}
	var nums [5]float64
	for i, def := range []float64{1, 1, 0, 1, 0} {
		n, errArg, ok := fn.numberArgAt("RANDARRAY", argsList, i, def)
		if !ok {
			return errArg
		}
		nums[i] = n
	}
	rows, cols, lo, hi, whole := math.Trunc(nums[0]), math.Trunc(nums[1]), nums[2], nums[3], nums[4] != 0
	if rows < 0 || cols < 0 || lo > hi || whole && (lo != math.Trunc(lo) || hi != math.Trunc(hi)) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if rows == 0 || cols == 0 {
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	}
	if whole && hi-lo+1 > 1<<62 {
		return fn.unsupported("RANDARRAY of whole numbers spanning more than 2^62")
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			if whole {
				out[r][c] = newNumberFormulaArg(lo + float64(rand.Int64N(int64(hi-lo)+1)))
			} else {
				out[r][c] = newNumberFormulaArg(lo + rand.Float64()*(hi-lo))
			}
		}
	}
	return newMatrixFormulaArg(out)
}
