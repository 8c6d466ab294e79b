// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import (
	"container/list"
	"math"
)

// registry-sidecar: the moments and means of AVERAGE, AVERAGEA, AVEDEV,
// HARMEAN, SKEW, SKEW.P and KURT, over the values calc_stat_values.go
// reads (Microsoft's formulas on each function's page).

// average returns the mean of the values of argsList, #DIV/0! for none.
func average(argsList *list.List, countA bool) formulaArg {
	nums, errArg, ok := statValues(argsList, countA)
	if !ok {
		return errArg
	}
	if len(nums) == 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	return newNumberFormulaArg(meanOf(nums))
}

// averageDeviation returns the mean of the absolute deviations of the
// values of argsList from their mean, #NUM! for none.
func averageDeviation(argsList *list.List) formulaArg {
	nums, errArg, ok := statValues(argsList, false)
	if !ok {
		return errArg
	}
	if len(nums) == 0 {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	mean, sum := meanOf(nums), 0.0
	for _, n := range nums {
		sum += math.Abs(n - mean)
	}
	return newNumberFormulaArg(sum / float64(len(nums)))
}

// harmonicMean returns the reciprocal of the mean of the reciprocals of
// the values of argsList, #NUM! for none or a value not above 0.
func harmonicMean(argsList *list.List) formulaArg {
	nums, errArg, ok := statValues(argsList, false)
	if !ok {
		return errArg
	}
	if len(nums) == 0 {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	sum := 0.0
	for _, n := range nums {
		if n <= 0 {
			return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
		}
		sum += 1 / n
	}
	return newNumberFormulaArg(float64(len(nums)) / sum)
}

// standardMoment returns the sum of the k-th powers of the standardized
// values of nums (standardized by the sample or population deviation),
// and false when the deviation is 0.
func standardMoment(nums []float64, k float64, sample bool) (float64, bool) {
	n := float64(len(nums))
	if sample {
		n--
	}
	sd := math.Sqrt(sumSquaredDeviations(nums) / n)
	if sd == 0 || math.IsNaN(sd) {
		return 0, false
	}
	mean, sum := meanOf(nums), 0.0
	for _, v := range nums {
		sum += math.Pow((v-mean)/sd, k)
	}
	return sum, true
}

// skewness returns SKEW (sample) or SKEW.P (population) of the values of
// argsList; #DIV/0! for fewer than 3 values or no deviation.
func skewness(argsList *list.List, sample bool) formulaArg {
	nums, errArg, ok := statValues(argsList, false)
	if !ok {
		return errArg
	}
	n := float64(len(nums))
	if n < 3 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	sum, ok := standardMoment(nums, 3, sample)
	if !ok {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	if sample {
		return newNumberFormulaArg(sum * n / ((n - 1) * (n - 2)))
	}
	return newNumberFormulaArg(sum / n)
}

// kurtosis returns KURT of the values of argsList; #DIV/0! for fewer than
// 4 values or no deviation.
func kurtosis(argsList *list.List) formulaArg {
	nums, errArg, ok := statValues(argsList, false)
	if !ok {
		return errArg
	}
	n := float64(len(nums))
	if n < 4 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	sum, ok := standardMoment(nums, 4, true)
	if !ok {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	return newNumberFormulaArg(sum*n*(n+1)/((n-1)*(n-2)*(n-3)) - 3*(n-1)*(n-1)/((n-2)*(n-3)))
}
