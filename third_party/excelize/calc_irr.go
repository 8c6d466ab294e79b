// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import (
	"container/list"
	"math"
)

// registry-sidecar: IRR by Newton's method from the guess, as Microsoft's
// IRR page describes it (at most 20 tries, else #NUM!) and LibreOffice
// computes it. Upstream's bisection stopped 1E-8 away from the root and
// found roots Excel does not. Only the numbers of values count; an error
// among them is the result.

// irrMaxTries is the number of tries before IRR gives up (Microsoft's IRR
// page: 20).
const irrMaxTries = 20

// irrPrecision is the change of the rate below which IRR has converged.
const irrPrecision = 1e-7

// irrNewton returns the rate at which the net present value of values
// (the first undiscounted) is 0, found by Newton's method from guess, and
// false when 20 steps do not converge.
func irrNewton(values []float64, guess float64) (float64, bool) {
	x := guess
	for range irrMaxTries {
		var npv, slope float64
		for i, v := range values {
			t := float64(i)
			npv += v / math.Pow(1+x, t)
			slope -= t * v / math.Pow(1+x, t+1)
		}
		next := x - npv/slope
		if math.IsNaN(next) || math.IsInf(next, 0) {
			return 0, false
		}
		step := math.Abs(next - x)
		x = next
		if step < irrPrecision {
			return x, true
		}
	}
	return 0, false
}

// IRR function returns the Internal Rate of Return for a supplied series of
// periodic cash flows (i.e. an initial investment value and a series of net
// income values). The syntax of the function is:
//
//	IRR(values,[guess])
func (fn *formulaFuncs) IRR(argsList *list.List) formulaArg {
	if argsList.Len() < 1 {
		return newErrorFormulaArg(formulaErrorVALUE, "IRR requires at least 1 argument")
	}
	if argsList.Len() > 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "IRR allows at most 2 arguments")
	}
	values, errArg, ok := arrayNumbers(argsList.Front().Value.(formulaArg))
	if !ok {
		return errArg
	}
	guess := newNumberFormulaArg(0.1)
	if argsList.Len() > 1 {
		if guess = argsList.Back().Value.(formulaArg).ToNumber(); guess.Type != ArgNumber {
			return guess
		}
	}
	rate, ok := irrNewton(values, guess.Number)
	if !ok {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	return newNumberFormulaArg(rate)
}
