// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar additions: Excel 365 functions that return arrays
// (PATCHES.md, section 12): SEQUENCE, TAKE, DROP, CHOOSEROWS, CHOOSECOLS,
// VSTACK, HSTACK, TOCOL, TOROW and EXPAND. Each returns a matrix; the cell
// it is entered in spills it (CalcCellArray, dynamic_array.go). Every
// result is charged to the calculation's guard (calc_limits.go) before it
// is allocated.

package excelize

import (
	"container/list"
	"math"
)

// maxArrayCells is the most cells an array function builds: a worksheet's
// rows times its columns (Excel's own bound on a spill).
const maxArrayCells = float64(TotalRows) * float64(MaxColumns)

// matrixOf returns arg as rows of values: a range or array as it is, a list
// as one row, one value as a 1 x 1 array. A matrix with no cell is nil.
func matrixOf(arg formulaArg) [][]formulaArg {
	switch arg.Type {
	case ArgMatrix:
		if len(arg.Matrix) == 0 || len(arg.Matrix[0]) == 0 {
			return nil
		}
		return arg.Matrix
	case ArgList:
		if len(arg.List) == 0 {
			return nil
		}
		return [][]formulaArg{arg.List}
	}
	return [][]formulaArg{{arg}}
}

// arrayArg returns the array argument i of argsList as rows, or the error
// to return: an error value passed as the array, or #CALC! for none.
func arrayArg(argsList *list.List, i int) ([][]formulaArg, formulaArg, bool) {
	arg := argAt(argsList, i)
	if arg.Type == ArgError {
		return nil, arg, false
	}
	m := matrixOf(arg)
	if m == nil {
		return nil, newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC), false
	}
	return m, arg, true
}

// countArg returns the optional integer argument i of argsList: def when it
// is absent or empty, ok false with the error to return otherwise.
func countArg(argsList *list.List, i int, def float64) (float64, formulaArg, bool) {
	if argsList.Len() <= i || argAt(argsList, i).Type == ArgEmpty {
		return def, formulaArg{}, true
	}
	return intArg(argAt(argsList, i))
}

// newArray allocates a rows x cols array once the guard has counted it;
// ok false with the error to return when it is too big.
func (fn *formulaFuncs) newArray(rows, cols float64) ([][]formulaArg, formulaArg, bool) {
	if rows*cols > maxArrayCells {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	if err := fn.guard().chargeCells(rows, cols); err != nil {
		return nil, stopArg(err), false
	}
	if err := fn.guard().spend(rows * cols); err != nil {
		return nil, stopArg(err), false
	}
	out := make([][]formulaArg, int(rows))
	for r := range out {
		out[r] = make([]formulaArg, int(cols))
	}
	return out, formulaArg{}, true
}

// SEQUENCE function returns an array of sequential numbers. The syntax of
// the function is:
//
//	SEQUENCE(rows,[columns],[start],[step])
func (fn *formulaFuncs) SEQUENCE(argsList *list.List) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, "SEQUENCE requires 1 to 4 arguments")
	}
	var nums [4]float64
	for i, def := range []float64{1, 1, 1, 1} {
		arg := argAt(argsList, i)
		if argsList.Len() <= i || arg.Type == ArgEmpty {
			nums[i] = def
			continue
		}
		if arg, ok := scalarArg(arg); !ok || arg.Type == ArgError {
			if !ok {
				return unsupportedArg("SEQUENCE with an array argument")
			}
			return arg
		}
		n := arg.ToNumber()
		if n.Type != ArgNumber {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		nums[i] = n.Number
	}
	rows, cols, start, step := math.Trunc(nums[0]), math.Trunc(nums[1]), nums[2], nums[3]
	if rows < 0 || cols < 0 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if rows == 0 || cols == 0 {
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			out[r][c] = newNumberFormulaArg(start + step*float64(r*int(cols)+c))
		}
	}
	return newMatrixFormulaArg(out)
}

// spanOf returns the first and end (exclusive) index of the n items TAKE
// (keep) or DROP (!keep) leaves of size: counted from the start when n is
// positive, from the end when negative. ok is false when nothing is left.
func spanOf(n float64, size int, keep bool) (from, to int, ok bool) {
	k := int(math.Min(math.Abs(n), float64(size)))
	switch {
	case keep && n >= 0:
		from, to = 0, k
	case keep:
		from, to = size-k, size
	case n >= 0:
		from, to = k, size
	default:
		from, to = 0, size-k
	}
	return from, to, to > from
}

// takeDrop is TAKE (keep) and DROP (!keep).
func (fn *formulaFuncs) takeDrop(name string, argsList *list.List, keep bool) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 2 or 3 arguments")
	}
	m, errArg, ok := arrayArg(argsList, 0)
	if !ok {
		return errArg
	}
	def := float64(len(m))
	if !keep {
		def = 0
	}
	rows, errArg, ok := countArg(argsList, 1, def)
	if !ok {
		return errArg
	}
	if !keep {
		def = 0
	} else {
		def = float64(len(m[0]))
	}
	cols, errArg, ok := countArg(argsList, 2, def)
	if !ok {
		return errArg
	}
	r0, r1, okR := spanOf(rows, len(m), keep)
	c0, c1, okC := spanOf(cols, len(m[0]), keep)
	if !okR || !okC {
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	}
	out, errArg, ok := fn.newArray(float64(r1-r0), float64(c1-c0))
	if !ok {
		return errArg
	}
	for r := range out {
		copy(out[r], m[r0+r][c0:c1])
	}
	return newMatrixFormulaArg(out)
}

// TAKE function returns rows or columns from the start or end of an array.
// The syntax of the function is:
//
//	TAKE(array,rows,[columns])
func (fn *formulaFuncs) TAKE(argsList *list.List) formulaArg {
	return fn.takeDrop("TAKE", argsList, true)
}

// DROP function removes rows or columns from the start or end of an array.
// The syntax of the function is:
//
//	DROP(array,rows,[columns])
func (fn *formulaFuncs) DROP(argsList *list.List) formulaArg {
	return fn.takeDrop("DROP", argsList, false)
}

// chooseIndexes returns the 0-based indexes the arguments from the second
// on name, each 1..size or -size..-1 (from the end); ok false with the
// error to return for any other.
func chooseIndexes(argsList *list.List, size int) ([]int, formulaArg, bool) {
	var out []int
	for e := argsList.Front().Next(); e != nil; e = e.Next() {
		for _, v := range e.Value.(formulaArg).ToList() {
			if v.Type == ArgError {
				return nil, v, false
			}
			n := v.ToNumber()
			if n.Type != ArgNumber {
				return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
			}
			i := int(math.Max(math.Min(math.Trunc(n.Number), float64(size+1)), float64(-size-1)))
			switch {
			case i >= 1 && i <= size:
				out = append(out, i-1)
			case i <= -1 && i >= -size:
				out = append(out, size+i)
			default:
				return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
			}
		}
	}
	return out, formulaArg{}, true
}

// choose is CHOOSEROWS (byRow) and CHOOSECOLS.
func (fn *formulaFuncs) choose(name string, argsList *list.List, byRow bool) formulaArg {
	if argsList.Len() < 2 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires at least 2 arguments")
	}
	m, errArg, ok := arrayArg(argsList, 0)
	if !ok {
		return errArg
	}
	size := len(m[0])
	if byRow {
		size = len(m)
	}
	idx, errArg, ok := chooseIndexes(argsList, size)
	if !ok {
		return errArg
	}
	rows, cols := float64(len(idx)), float64(len(m[0]))
	if !byRow {
		rows, cols = float64(len(m)), float64(len(idx))
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			if byRow {
				out[r][c] = m[idx[r]][c]
			} else {
				out[r][c] = m[r][idx[c]]
			}
		}
	}
	return newMatrixFormulaArg(out)
}

// CHOOSEROWS function returns the given rows of an array. The syntax of the
// function is:
//
//	CHOOSEROWS(array,row_num1,[row_num2],...)
func (fn *formulaFuncs) CHOOSEROWS(argsList *list.List) formulaArg {
	return fn.choose("CHOOSEROWS", argsList, true)
}

// CHOOSECOLS function returns the given columns of an array. The syntax of
// the function is:
//
//	CHOOSECOLS(array,col_num1,[col_num2],...)
func (fn *formulaFuncs) CHOOSECOLS(argsList *list.List) formulaArg {
	return fn.choose("CHOOSECOLS", argsList, false)
}
