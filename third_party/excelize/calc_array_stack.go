// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar additions (PATCHES.md, section 12): VSTACK, HSTACK,
// TOCOL, TOROW and EXPAND, array functions that reshape or join arrays.
// Their results are charged to the guard before they are allocated.

package excelize

import (
	"container/list"
	"math"
)

// naArg is the #N/A an array function pads a short row or column with.
func naArg() formulaArg {
	return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
}

// stack is VSTACK (vertical) and HSTACK: the arrays one after the other,
// the shorter ones padded with #N/A.
func (fn *formulaFuncs) stack(name string, argsList *list.List, vertical bool) formulaArg {
	if argsList.Len() < 1 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires at least 1 argument")
	}
	var parts [][][]formulaArg
	rows, cols := 0, 0
	for i := 0; i < argsList.Len(); i++ {
		m, errArg, ok := arrayArg(argsList, i)
		if !ok && errArg.Type == ArgError && errArg.Error != formulaErrorCALC {
			m = [][]formulaArg{{errArg}} // an error value is one cell of the result
		} else if !ok {
			return errArg
		}
		parts = append(parts, m)
		if vertical {
			rows, cols = rows+len(m), max(cols, len(m[0]))
		} else {
			rows, cols = max(rows, len(m)), cols+len(m[0])
		}
	}
	out, errArg, ok := fn.newArray(float64(rows), float64(cols))
	if !ok {
		return errArg
	}
	at := 0
	for _, m := range parts {
		h, w := len(m), cols
		if !vertical {
			h, w = rows, len(m[0])
		}
		for r := 0; r < h; r++ {
			for c := 0; c < w; c++ {
				v := naArg()
				if r < len(m) && c < len(m[r]) {
					v = m[r][c]
				}
				if vertical {
					out[at+r][c] = v
				} else {
					out[r][at+c] = v
				}
			}
		}
		if vertical {
			at += len(m)
		} else {
			at += len(m[0])
		}
	}
	return newMatrixFormulaArg(out)
}

// VSTACK function appends arrays vertically. The syntax of the function
// is:
//
//	VSTACK(array1,[array2],...)
func (fn *formulaFuncs) VSTACK(argsList *list.List) formulaArg {
	return fn.stack("VSTACK", argsList, true)
}

// HSTACK function appends arrays horizontally. The syntax of the function
// is:
//
//	HSTACK(array1,[array2],...)
func (fn *formulaFuncs) HSTACK(argsList *list.List) formulaArg {
	return fn.stack("HSTACK", argsList, false)
}

// isBlankArg reports whether v is an empty cell of a range.
func isBlankArg(v formulaArg) bool {
	return v.Type == ArgEmpty || (v.Type == ArgString && v.String == "")
}

// flatten is TOCOL (column) and TOROW: the array's values in one line,
// read row by row or (scan_by_column) column by column, without blanks
// (ignore 1 or 3) or errors (ignore 2 or 3).
func (fn *formulaFuncs) flatten(name string, argsList *list.List, column bool) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 1 to 3 arguments")
	}
	m, errArg, ok := arrayArg(argsList, 0)
	if !ok {
		return errArg
	}
	ignore, errArg, ok := countArg(argsList, 1, 0)
	if !ok {
		return errArg
	}
	if ignore < 0 || ignore > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	byCol := false
	if argsList.Len() == 3 && argAt(argsList, 2).Type != ArgEmpty {
		b, ok := scalarArg(argAt(argsList, 2))
		if !ok {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		if b = b.ToBool(); b.Type == ArgError {
			return b
		}
		byCol = b.Number != 0
	}
	if err := fn.guard().spend(float64(len(m)) * float64(len(m[0]))); err != nil {
		return stopArg(err)
	}
	var line []formulaArg
	keep := func(v formulaArg) {
		if (ignore == 1 || ignore == 3) && isBlankArg(v) || (ignore == 2 || ignore == 3) && v.Type == ArgError {
			return
		}
		line = append(line, v)
	}
	if byCol {
		for c := range m[0] {
			for r := range m {
				keep(m[r][c])
			}
		}
	} else {
		for _, row := range m {
			for _, v := range row {
				keep(v)
			}
		}
	}
	if len(line) == 0 {
		return newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC)
	}
	if !column {
		return newMatrixFormulaArg([][]formulaArg{line})
	}
	out := make([][]formulaArg, len(line))
	for i, v := range line {
		out[i] = []formulaArg{v}
	}
	return newMatrixFormulaArg(out)
}

// TOCOL function returns an array as one column. The syntax of the
// function is:
//
//	TOCOL(array,[ignore],[scan_by_column])
func (fn *formulaFuncs) TOCOL(argsList *list.List) formulaArg {
	return fn.flatten("TOCOL", argsList, true)
}

// TOROW function returns an array as one row. The syntax of the function
// is:
//
//	TOROW(array,[ignore],[scan_by_column])
func (fn *formulaFuncs) TOROW(argsList *list.List) formulaArg {
	return fn.flatten("TOROW", argsList, false)
}

// EXPAND function pads an array to the given rows and columns. The syntax
// of the function is:
//
//	EXPAND(array,rows,[columns],[pad_with])
func (fn *formulaFuncs) EXPAND(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, "EXPAND requires 2 to 4 arguments")
	}
	m, errArg, ok := arrayArg(argsList, 0)
	if !ok {
		return errArg
	}
	rows, errArg, ok := countArg(argsList, 1, float64(len(m)))
	if !ok {
		return errArg
	}
	cols, errArg, ok := countArg(argsList, 2, float64(len(m[0])))
	if !ok {
		return errArg
	}
	if rows < float64(len(m)) || cols < float64(len(m[0])) || math.IsNaN(rows*cols) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	pad := naArg()
	if argsList.Len() == 4 && argAt(argsList, 3).Type != ArgEmpty {
		p, ok := scalarArg(argAt(argsList, 3))
		if !ok {
			return unsupportedArg("EXPAND with an array pad_with")
		}
		pad = p
	}
	out, errArg, ok := fn.newArray(rows, cols)
	if !ok {
		return errArg
	}
	for r := range out {
		for c := range out[r] {
			if r < len(m) && c < len(m[r]) {
				out[r][c] = m[r][c]
			} else {
				out[r][c] = pad
			}
		}
	}
	return newMatrixFormulaArg(out)
}
