// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import (
	"container/list"
	"fmt"
	"math"
)

// registry-sidecar: the pairs a two-array statistical function (CORREL,
// COVAR, COVARIANCE.P, COVARIANCE.S) reads, by Excel's rule: the arrays
// have as many values (#N/A otherwise), an error in either is the result,
// and a pair where either value is text, a boolean or a blank is left out;
// a pair holding 0 counts. Upstream left out pairs holding 0 (CORREL) or
// averaged the arrays before leaving pairs out (COVARIANCE).

// numberPairs returns the numeric pairs of two array arguments, or the
// error to return.
func numberPairs(array1, array2 formulaArg) ([]float64, []float64, formulaArg, bool) {
	left, right := array1.ToList(), array2.ToList()
	if len(left) != len(right) {
		return nil, nil, newErrorFormulaArg(formulaErrorNA, formulaErrorNA), false
	}
	var xs, ys []float64
	for i := range left {
		for _, v := range []formulaArg{left[i], right[i]} {
			if v.Type == ArgError {
				return nil, nil, v, false
			}
		}
		if isPlainNumber(left[i]) && isPlainNumber(right[i]) {
			xs = append(xs, left[i].Number)
			ys = append(ys, right[i].Number)
		}
	}
	return xs, ys, formulaArg{}, true
}

// isPlainNumber tells whether an array's value is a number (not a boolean).
func isPlainNumber(v formulaArg) bool {
	return v.Type == ArgNumber && !v.Boolean
}

// pairMoments returns the sums of the products of the deviations of xs and
// ys from their means: of xs with ys, xs with xs, and ys with ys.
func pairMoments(xs, ys []float64) (sxy, sxx, syy float64) {
	mx, my := meanOf(xs), meanOf(ys)
	for i := range xs {
		dx, dy := xs[i]-mx, ys[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	return sxy, sxx, syy
}

// CORREL function calculates the Pearson Product-Moment Correlation
// Coefficient for two sets of values. The syntax of the function is:
//
//	CORREL(array1,array2)
func (fn *formulaFuncs) CORREL(argsList *list.List) formulaArg {
	if argsList.Len() != 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "CORREL requires 2 arguments")
	}
	xs, ys, errArg, ok := numberPairs(argsList.Front().Value.(formulaArg), argsList.Back().Value.(formulaArg))
	if !ok {
		return errArg
	}
	if len(xs) == 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	sxy, sxx, syy := pairMoments(xs, ys)
	if sxx == 0 || syy == 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	return newNumberFormulaArg(sxy / math.Sqrt(sxx*syy))
}

// covar is an implementation of the formula functions COVAR,
// COVARIANCE.P and COVARIANCE.S.
func (fn *formulaFuncs) covar(name string, argsList *list.List) formulaArg {
	if argsList.Len() != 2 {
		return newErrorFormulaArg(formulaErrorVALUE, fmt.Sprintf("%s requires 2 arguments", name))
	}
	xs, ys, errArg, ok := numberPairs(argsList.Front().Value.(formulaArg), argsList.Back().Value.(formulaArg))
	if !ok {
		return errArg
	}
	n := float64(len(xs))
	if name == "COVARIANCE.S" {
		n--
	}
	if n <= 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	sxy, _, _ := pairMoments(xs, ys)
	return newNumberFormulaArg(sxy / n)
}
