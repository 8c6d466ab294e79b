// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: the functions that take a LAMBDA (PATCHES.md,
// section N): MAP, REDUCE, SCAN, BYROW, BYCOL and MAKEARRAY. Each result
// array is charged to the guard before it is allocated, and each call of
// the LAMBDA counts its tokens as steps (evalInfixExp), so the number of
// calls is bounded by MaxSteps.

package excelize

import (
	"container/list"
)

// fits reports whether def takes n arguments.
func (def lambdaDef) fits(n int) bool {
	required := 0
	for i, opt := range def.optional {
		if !opt {
			required = i + 1
		}
	}
	return n >= required && n <= len(def.params)
}

// lambdaArg returns the LAMBDA argument i of argsList when it takes n
// arguments, or the #VALUE! to return.
func (fn *formulaFuncs) lambdaArg(argsList *list.List, i, n int) (lambdaDef, formulaArg, bool) {
	arg := argAt(argsList, i)
	if arg.Type == ArgError {
		return lambdaDef{}, arg, false
	}
	def, ok := fn.ctx.lambdaOf(arg)
	if !ok || !def.fits(n) {
		return lambdaDef{}, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return def, formulaArg{}, true
}

// cellResult is one cell of a helper's result: a LAMBDA's value, a one-cell
// array as its value, a larger array #CALC! (Excel has no nested arrays),
// an empty value 0.
func cellResult(v formulaArg) formulaArg {
	switch v.Type {
	case ArgMatrix:
		if len(v.Matrix) == 1 && len(v.Matrix[0]) == 1 {
			return cellResult(v.Matrix[0][0])
		}
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	case ArgList:
		if len(v.List) == 1 {
			return cellResult(v.List[0])
		}
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	case ArgEmpty:
		return newNumberFormulaArg(0)
	}
	return v
}

// stopped reports whether the guard stopped the calculation.
func (fn *formulaFuncs) stopped() bool {
	return fn.guard().failed() != nil
}

// cellAt returns the value of m at r, c: a dimension of one repeats, a cell
// past the array's size is #N/A.
func cellAt(m [][]formulaArg, r, c int) formulaArg {
	if len(m) == 1 {
		r = 0
	}
	if len(m[0]) == 1 {
		c = 0
	}
	if r >= len(m) || c >= len(m[r]) {
		return naArg()
	}
	return m[r][c]
}

// MAP function returns an array formed by calling a LAMBDA on each value
// of the arrays (one parameter per array). The syntax of the function is:
//
//	MAP(array1,[array2,...],lambda)
func (fn *formulaFuncs) MAP(argsList *list.List) formulaArg {
	if argsList.Len() < 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "MAP requires at least 2 arguments")
	}
	n := argsList.Len() - 1
	def, errArg, ok := fn.lambdaArg(argsList, n, n)
	if !ok {
		return errArg
	}
	arrays, rows, cols := make([][][]formulaArg, n), 0, 0
	for i := range arrays {
		m, errArg, ok := arrayArg(argsList, i)
		if !ok {
			return errArg
		}
		arrays[i], rows, cols = m, max(rows, len(m)), max(cols, len(m[0]))
	}
	out, errArg, ok := fn.newArray(float64(rows), float64(cols))
	if !ok {
		return errArg
	}
	args := make([]formulaArg, n)
	for r := range out {
		for c := range out[r] {
			for i, m := range arrays {
				args[i] = cellAt(m, r, c)
			}
			if out[r][c] = cellResult(fn.applyLambda(def, args)); fn.stopped() {
				return stopArg(fn.guard().failed())
			}
		}
	}
	return newMatrixFormulaArg(out)
}

// accumulate calls a LAMBDA(accumulator, value) on each value of an array
// by rows, from initial_value; SCAN keeps every accumulator, REDUCE the
// last.
func (fn *formulaFuncs) accumulate(name string, argsList *list.List, keep bool) formulaArg {
	if argsList.Len() != 3 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 3 arguments")
	}
	def, errArg, ok := fn.lambdaArg(argsList, 2, 2)
	if !ok {
		return errArg
	}
	m, errArg, ok := arrayArg(argsList, 1)
	if !ok {
		return errArg
	}
	var out [][]formulaArg
	if keep {
		if out, errArg, ok = fn.newArray(float64(len(m)), float64(len(m[0]))); !ok {
			return errArg
		}
	}
	acc := argAt(argsList, 0)
	if isOmitted(acc) {
		acc = newNumberFormulaArg(0)
	}
	for r, row := range m {
		for c, v := range row {
			if acc = fn.applyLambda(def, []formulaArg{acc, v}); fn.stopped() {
				return stopArg(fn.guard().failed())
			}
			if keep {
				acc = cellResult(acc)
				out[r][c] = acc
			}
		}
	}
	if keep {
		return newMatrixFormulaArg(out)
	}
	if acc.Type == ArgEmpty {
		return newNumberFormulaArg(0)
	}
	return acc
}

// REDUCE function reduces an array to an accumulated value by calling a
// LAMBDA(accumulator, value) on each value. The syntax of the function is:
//
//	REDUCE([initial_value],array,lambda)
func (fn *formulaFuncs) REDUCE(argsList *list.List) formulaArg {
	return fn.accumulate("REDUCE", argsList, false)
}

// SCAN function scans an array by calling a LAMBDA(accumulator, value) on
// each value and returns the array of each intermediate value. The syntax
// of the function is:
//
//	SCAN([initial_value],array,lambda)
func (fn *formulaFuncs) SCAN(argsList *list.List) formulaArg {
	return fn.accumulate("SCAN", argsList, true)
}

// byLine calls a LAMBDA on each row (or column) of an array and returns
// one column (or row) of the results.
func (fn *formulaFuncs) byLine(name string, argsList *list.List, byRow bool) formulaArg {
	if argsList.Len() != 2 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 2 arguments")
	}
	def, errArg, ok := fn.lambdaArg(argsList, 1, 1)
	if !ok {
		return errArg
	}
	m, errArg, ok := arrayArg(argsList, 0)
	if !ok {
		return errArg
	}
	lines, size := len(m), len(m[0])
	if !byRow {
		lines, size = size, lines
	}
	rows, cols := float64(lines), 1.0
	if !byRow {
		rows, cols = cols, rows
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	if err := fn.guard().chargeCells(float64(size), 1); err != nil {
		return stopArg(err)
	}
	for k := range lines {
		var line [][]formulaArg
		if byRow {
			line = [][]formulaArg{m[k]}
		} else {
			line = make([][]formulaArg, size)
			for r := range line {
				line[r] = []formulaArg{m[r][k]}
			}
		}
		v := cellResult(fn.applyLambda(def, []formulaArg{newMatrixFormulaArg(line)}))
		if fn.stopped() {
			return stopArg(fn.guard().failed())
		}
		if byRow {
			out[k][0] = v
		} else {
			out[0][k] = v
		}
	}
	return newMatrixFormulaArg(out)
}

// BYROW function applies a LAMBDA to each row of an array and returns a
// column of the results. The syntax of the function is:
//
//	BYROW(array,lambda)
func (fn *formulaFuncs) BYROW(argsList *list.List) formulaArg {
	return fn.byLine("BYROW", argsList, true)
}

// BYCOL function applies a LAMBDA to each column of an array and returns a
// row of the results. The syntax of the function is:
//
//	BYCOL(array,lambda)
func (fn *formulaFuncs) BYCOL(argsList *list.List) formulaArg {
	return fn.byLine("BYCOL", argsList, false)
}

// MAKEARRAY function returns a rows x columns array whose values a
// LAMBDA(row, column) computes. The syntax of the function is:
//
//	MAKEARRAY(rows,cols,lambda)
func (fn *formulaFuncs) MAKEARRAY(argsList *list.List) formulaArg {
	if argsList.Len() != 3 {
		return newErrorFormulaArg(formulaErrorVALUE, "MAKEARRAY requires 3 arguments")
	}
	def, errArg, ok := fn.lambdaArg(argsList, 2, 2)
	if !ok {
		return errArg
	}
	var size [2]float64
	for i := range size {
		n, errArg, ok := intArg(argAt(argsList, i))
		if !ok {
			return errArg
		}
		if n < 1 {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		size[i] = n
	}
	out, errArg, ok := fn.newArray(size[0], size[1])
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			args := []formulaArg{newNumberFormulaArg(float64(r + 1)), newNumberFormulaArg(float64(c + 1))}
			if out[r][c] = cellResult(fn.applyLambda(def, args)); fn.stopped() {
				return stopArg(fn.guard().failed())
			}
		}
	}
	return newMatrixFormulaArg(out)
}
