// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import (
	"container/list"
	"math"
)

// registry-sidecar: TREND and GROWTH on the least squares fit of LINEST and
// LOGEST (calc_linest.go). Upstream's own regression answered #NUM! to
// plain calls (TREND(A1:A6,D1:D6)). An error in known_y's or known_x's is
// passed on; the values are those of new_x's, or of known_x's (1, 2, 3...
// without them) when omitted, shaped like them.

// trendArg returns argument i of argsList as a number matrix, the error to
// return, or ok false when it is omitted.
func trendArg(argsList *list.List, i int) ([][]float64, formulaArg, bool) {
	arg := argAt(argsList, i)
	if isOmitted(arg) {
		return nil, formulaArg{}, false
	}
	rows := matrixOf(arg)
	for _, row := range rows {
		for _, v := range row {
			if v.Type == ArgError {
				return nil, v, true
			}
		}
	}
	m, errArg := newNumberMatrix(newMatrixFormulaArg(rows), false)
	if errArg.Type == ArgError || len(m) == 0 || len(m[0]) == 0 {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), true
	}
	return m, formulaArg{}, true
}

// trendPoints returns the points the fit is evaluated at, one slice of k
// x values each, and the shape of the result (rows, columns).
func trendPoints(ys, newXs [][]float64, k int) ([][]float64, int, int, bool) {
	rows, cols := len(newXs), len(newXs[0])
	var points [][]float64
	switch {
	case k == 1:
		for _, row := range newXs {
			for _, v := range row {
				points = append(points, []float64{v})
			}
		}
		return points, rows, cols, true
	case len(ys[0]) == 1 && cols == k:
		return newXs, rows, 1, true
	case len(ys) == 1 && rows == k:
		for c := range cols {
			point := make([]float64, k)
			for r := range rows {
				point[r] = newXs[r][c]
			}
			points = append(points, point)
		}
		return points, 1, cols, true
	}
	return nil, 0, 0, false
}

// trend is TREND, or GROWTH (a fit of LN(y), its values e^v) when
// exponential.
func (fn *formulaFuncs) trend(name string, argsList *list.List, exponential bool) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 1 to 4 arguments")
	}
	ys, errArg, _ := trendArg(argsList, 0)
	if errArg.Type == ArgError {
		return errArg
	}
	xs, errArg, hasX := trendArg(argsList, 1)
	if errArg.Type == ArgError {
		return errArg
	}
	newXs, errArg, hasNewX := trendArg(argsList, 2)
	if errArg.Type == ArgError {
		return errArg
	}
	constant := true
	if arg := argAt(argsList, 3); !isOmitted(arg) {
		b := arg.ToBool()
		if b.Type != ArgNumber {
			return b
		}
		constant = b.Number == 1
	}
	x, y, ok := regressionData(ys, xs)
	if !ok {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	if err := fn.guard().spend(float64(len(x)) * float64(len(y)) * float64(len(x))); err != nil {
		return stopArg(err)
	}
	if exponential {
		for i, v := range y {
			if v <= 0 {
				return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
			}
			y[i] = math.Log(v)
		}
	}
	if len(y) < len(x)+1 && (constant || len(y) < len(x)) {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	slopes, intercept, ok := leastSquares(x, y, constant)
	if !ok {
		return unsupportedArg(name + " of collinear x values")
	}
	if !hasNewX {
		newXs = xs
		if !hasX {
			newXs = make([][]float64, len(ys))
			for r, row := range ys {
				newXs[r] = make([]float64, len(row))
				for c := range row {
					newXs[r][c] = float64(r*len(row) + c + 1)
				}
			}
		}
	}
	points, rows, cols, ok := trendPoints(ys, newXs, len(x))
	if !ok {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	out := make([][]formulaArg, rows)
	for i, point := range points {
		v := intercept
		for k, s := range slopes {
			v += s * point[k]
		}
		if exponential {
			v = math.Exp(v)
		}
		out[i/cols] = append(out[i/cols], newNumberFormulaArg(v))
	}
	return newMatrixFormulaArg(out)
}
