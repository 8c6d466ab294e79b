// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: LINEST and LOGEST without their statistics
// (PATCHES.md, section N). The least squares fit reuses upstream's
// Householder QR decomposition of TREND and GROWTH (calcRowQRDecomposition
// and its helpers, ported from LibreOffice).

package excelize

import (
	"container/list"
	"math"
)

// regressionData returns the x columns (each as long as y) and y of a fit
// of known_y's on known_x's, as TREND pairs them: one x range of y's shape,
// or, for a y column (row), x columns (rows) of its length; no x is 1..n.
func regressionData(ys, xs [][]float64) ([][]float64, []float64, bool) {
	rowsY, colsY := len(ys), len(ys[0])
	var y []float64
	for _, row := range ys {
		y = append(y, row...)
	}
	if len(xs) == 0 {
		x := make([]float64, len(y))
		for i := range x {
			x[i] = float64(i + 1)
		}
		return [][]float64{x}, y, true
	}
	rowsX, colsX := len(xs), len(xs[0])
	switch {
	case rowsX == rowsY && colsX == colsY:
		var x []float64
		for _, row := range xs {
			x = append(x, row...)
		}
		return [][]float64{x}, y, true
	case colsY == 1 && rowsX == rowsY:
		cols := make([][]float64, colsX)
		for k := range cols {
			for r := range rowsX {
				cols[k] = append(cols[k], xs[r][k])
			}
		}
		return cols, y, true
	case rowsY == 1 && colsX == colsY:
		return xs, y, true
	}
	return nil, nil, false
}

// leastSquares returns the slopes of y on the columns of x and the
// intercept (0 without constant), ok false when the columns are collinear.
func leastSquares(x [][]float64, y []float64, constant bool) ([]float64, float64, bool) {
	k, n := len(x), len(y)
	means, meanY := make([]float64, k), 0.0
	x = matrixClone(x)
	ys := [][]float64{append([]float64(nil), y...)}
	if constant {
		meanY = calcMeanOverAll(ys, n)
		for i := range ys[0] {
			ys[0][i] -= meanY
		}
		calcColumnMeans(x, [][]float64{means}, k, n)
		for c := range x {
			for r := range x[c] {
				x[c][r] -= means[c]
			}
		}
	}
	vecR := make([]float64, n)
	if !calcRowQRDecomposition(x, vecR, k, n) {
		return nil, 0, false
	}
	for c := range k {
		if vecR[c] == 0 {
			return nil, 0, false
		}
		calcApplyRowsHouseholderTransformation(x, c, ys, n)
	}
	slopes := [][]float64{make([]float64, k)}
	for c := range k {
		putDouble(slopes, c, getDouble(ys, c))
	}
	calcSolveWithUpperRightTriangle(x, vecR, slopes, k, false)
	intercept := 0.0
	if constant {
		intercept = meanY - calcSumProduct([][]float64{means}, slopes, k)
	}
	return slopes[0], intercept, true
}

// linest is LINEST, or LOGEST (a fit of LN(y)) when exponential.
func (fn *formulaFuncs) linest(name string, argsList *list.List, exponential bool) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, name+" requires 1 to 4 arguments")
	}
	ys, errArg := newNumberMatrix(newMatrixFormulaArg(matrixOf(argAt(argsList, 0))), false)
	if errArg.Type == ArgError || len(ys) == 0 || len(ys[0]) == 0 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	var xs [][]float64
	if arg := argAt(argsList, 1); !isOmitted(arg) {
		if xs, errArg = newNumberMatrix(newMatrixFormulaArg(matrixOf(arg)), false); errArg.Type == ArgError || len(xs) == 0 || len(xs[0]) == 0 {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
	}
	constant := true
	if arg := argAt(argsList, 2); !isOmitted(arg) {
		b := arg.ToBool()
		if b.Type != ArgNumber {
			return b
		}
		constant = b.Number == 1
	}
	if arg := argAt(argsList, 3); !isOmitted(arg) {
		if b := arg.ToBool(); b.Type != ArgNumber || b.Number == 1 {
			return unsupportedArg(name + "'s statistics")
		}
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
	if need := len(x) + 1; len(y) < need || (!constant && len(y) < len(x)) {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	slopes, intercept, ok := leastSquares(x, y, constant)
	if !ok {
		return unsupportedArg(name + " of collinear x values")
	}
	row := make([]formulaArg, 0, len(slopes)+1)
	for i := len(slopes) - 1; i >= 0; i-- {
		row = append(row, fitValue(slopes[i], exponential))
	}
	row = append(row, fitValue(intercept, exponential))
	return newMatrixFormulaArg([][]formulaArg{row})
}

// fitValue is a coefficient as LINEST (v) or LOGEST (e^v) returns it.
func fitValue(v float64, exponential bool) formulaArg {
	if exponential {
		v = math.Exp(v)
	}
	return newNumberFormulaArg(v)
}

// LINEST function returns the coefficients of the straight line that best
// fits the data by least squares, last x first: {mn,...,m1,b}. Its
// statistics (stats TRUE) are not computed. The syntax of the function is:
//
//	LINEST(known_y's,[known_x's],[const],[stats])
func (fn *formulaFuncs) LINEST(argsList *list.List) formulaArg {
	return fn.linest("LINEST", argsList, false)
}

// LOGEST function returns the coefficients of the exponential curve
// y = b*m1^x1*...*mn^xn that best fits the data: {mn,...,m1,b}. Its
// statistics (stats TRUE) are not computed. The syntax of the function is:
//
//	LOGEST(known_y's,[known_x's],[const],[stats])
func (fn *formulaFuncs) LOGEST(argsList *list.List) formulaArg {
	return fn.linest("LOGEST", argsList, true)
}
