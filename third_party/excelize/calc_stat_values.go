// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import (
	"container/list"
	"math"
)

// registry-sidecar: the values a statistical function (AVERAGE, STDEV,
// VAR, AVEDEV, HARMEAN, ...) reads, by Excel's rule. A number, a boolean or
// a text number typed as an argument counts, other text typed as an
// argument is #VALUE!. Of a reference or an array only the numbers count:
// its text, booleans and blanks are skipped. An error anywhere is the
// result. The A functions (AVERAGEA, STDEVA, VARA, ...) count a reference's
// TRUE as 1 and its FALSE and text as 0, and still skip its blanks.

// fromReference tells whether arg is the value of a reference (a range or
// a single cell) or of an array, rather than a value typed as an argument.
func fromReference(arg formulaArg) bool {
	return arg.Type == ArgMatrix || arg.Type == ArgList ||
		(arg.cellRefs != nil && arg.cellRefs.Len() > 0) ||
		(arg.cellRanges != nil && arg.cellRanges.Len() > 0)
}

// statValues returns the numbers a statistical function reads from
// argsList (countA for the A functions), or the error to return.
func statValues(argsList *list.List, countA bool) ([]float64, formulaArg, bool) {
	var nums []float64
	for e := argsList.Front(); e != nil; e = e.Next() {
		arg := e.Value.(formulaArg)
		if arg.Type == ArgError {
			return nil, arg, false
		}
		if !fromReference(arg) {
			if arg.Type == ArgEmpty {
				continue
			}
			num := arg.ToNumber()
			if arg.Type == ArgString && num.Type != ArgNumber {
				return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
			}
			nums = append(nums, num.Number)
			continue
		}
		for _, v := range arg.ToList() {
			switch {
			case v.Type == ArgError:
				return nil, v, false
			case v.Type == ArgNumber && (!v.Boolean || countA):
				nums = append(nums, v.Number)
			case v.Type == ArgString && countA:
				nums = append(nums, 0)
			}
		}
	}
	return nums, formulaArg{}, true
}

// meanOf returns the arithmetic mean of nums, which is not empty.
func meanOf(nums []float64) float64 {
	sum := 0.0
	for _, n := range nums {
		sum += n
	}
	return sum / float64(len(nums))
}

// sumSquaredDeviations returns the sum of the squares of the deviations of
// nums from their mean, which is not empty.
func sumSquaredDeviations(nums []float64) float64 {
	mean, sum := meanOf(nums), 0.0
	for _, n := range nums {
		sum += (n - mean) * (n - mean)
	}
	return sum
}

// variance returns the variance of the values of argsList: of a sample
// (divided by n-1) or of the population (by n); #DIV/0! for too few values.
func variance(argsList *list.List, countA, sample bool) formulaArg {
	nums, errArg, ok := statValues(argsList, countA)
	if !ok {
		return errArg
	}
	n := float64(len(nums))
	if sample {
		n--
	}
	if n <= 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	return newNumberFormulaArg(sumSquaredDeviations(nums) / n)
}

// stdDeviation is the square root of variance.
func stdDeviation(argsList *list.List, countA, sample bool) formulaArg {
	v := variance(argsList, countA, sample)
	if v.Type != ArgNumber {
		return v
	}
	return newNumberFormulaArg(math.Sqrt(v.Number))
}

// arrayNumbers returns the numbers of an array argument (F.TEST, T.TEST,
// ...): its text, booleans and blanks skipped, its first error returned.
func arrayNumbers(arg formulaArg) ([]float64, formulaArg, bool) {
	var nums []float64
	for _, v := range arg.ToList() {
		if v.Type == ArgError {
			return nil, v, false
		}
		if v.Type == ArgNumber && !v.Boolean {
			nums = append(nums, v.Number)
		}
	}
	return nums, formulaArg{}, true
}

// withoutErrors returns m with each error value replaced by a blank (m
// itself when it holds none), for AGGREGATE's options that ignore errors.
func withoutErrors(m [][]formulaArg) [][]formulaArg {
	var out [][]formulaArg
	for r, row := range m {
		for c, v := range row {
			if v.Type == ArgError {
				if out == nil {
					out = copyMatrix(m)
				}
				out[r][c] = formulaArg{Type: ArgEmpty}
			}
		}
	}
	if out == nil {
		return m
	}
	return out
}
