// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition (PATCHES.md, section N): TRIMRANGE, the Excel
// 365 function that drops the blank rows and columns at the edges of a
// range. Its scan is counted and its result charged to the guard before
// either happens.

package excelize

import "container/list"

// trimMode returns the optional trim_rows or trim_cols argument i of
// argsList: 0 none, 1 leading, 2 trailing, 3 both (the default); any
// other number is #VALUE!.
func trimMode(argsList *list.List, i int) (lead, trail bool, errArg formulaArg, ok bool) {
	mode, errArg, ok := countArg(argsList, i, 3)
	if !ok {
		return false, false, errArg, false
	}
	if mode < 0 || mode > 3 {
		return false, false, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return mode == 1 || mode == 3, mode == 2 || mode == 3, formulaArg{}, true
}

// blankSpan returns the first and end (exclusive) index of lines 0..n-1
// left once the blank lines at the start (lead) and end (trail) are
// dropped; blank(i) says whether line i is blank.
func blankSpan(n int, lead, trail bool, blank func(int) bool) (from, to int) {
	from, to = 0, n
	for lead && from < to && blank(from) {
		from++
	}
	for trail && to > from && blank(to-1) {
		to--
	}
	return from, to
}

// TRIMRANGE function returns a range or array without the blank rows and
// columns at its edges: leading (1), trailing (2) or both (3, the
// default) for rows and for columns. The result is the values, not a
// reference. The syntax of the function is:
//
//	TRIMRANGE(range,[trim_rows],[trim_cols])
func (fn *formulaFuncs) TRIMRANGE(argsList *list.List) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, "TRIMRANGE requires 1 to 3 arguments")
	}
	m, errArg, ok := fn.tableArg("TRIMRANGE", argsList, 0)
	if !ok {
		return errArg
	}
	leadRows, trailRows, errArg, ok := trimMode(argsList, 1)
	if !ok {
		return errArg
	}
	leadCols, trailCols, errArg, ok := trimMode(argsList, 2)
	if !ok {
		return errArg
	}
	if err := fn.guard().spend(2 * float64(len(m)) * float64(len(m[0]))); err != nil {
		return stopArg(err)
	}
	r0, r1 := blankSpan(len(m), leadRows, trailRows, func(r int) bool {
		for _, v := range m[r] {
			if v.Type != ArgEmpty {
				return false
			}
		}
		return true
	})
	c0, c1 := blankSpan(len(m[0]), leadCols, trailCols, func(c int) bool {
		for r := r0; r < r1; r++ {
			if m[r][c].Type != ArgEmpty {
				return false
			}
		}
		return true
	})
	if r0 == r1 || c0 == c1 {
		return fn.unsupported("TRIMRANGE of blank cells only")
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
