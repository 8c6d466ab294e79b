// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: FORECAST.ETS, FORECAST.ETS.SEASONALITY and
// FORECAST.ETS.STAT over the model of calc_forecast_ets.go (PATCHES.md,
// section N).

package excelize

import (
	"container/list"
	"errors"
	"math"
)

const (
	// maxSeasonality is the longest season Excel takes (a year of hours).
	maxSeasonality = 8760
	// maxETSHorizon bounds how many steps past the data a forecast goes:
	// the count is an integer, exact in a float64 up to 2^53 (Calc
	// forecasts 1E+12 steps ahead).
	maxETSHorizon = 1 << 53
)

// etsNumber is a result of the model: #NUM! when it is not a finite
// number (a series too short to measure).
func etsNumber(v float64) formulaArg {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	return newNumberFormulaArg(v)
}

// etsOption reads the optional number argument i of argsList: def when
// absent or empty.
func etsOption(argsList *list.List, i int, def float64) (float64, formulaArg, bool) {
	if argsList.Len() <= i || argAt(argsList, i).Type == ArgEmpty {
		return def, formulaArg{}, true
	}
	arg, ok := scalarArg(argAt(argsList, i))
	if !ok {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	if arg.Type == ArgError {
		return 0, arg, false
	}
	n := arg.ToNumber()
	if n.Type != ArgNumber {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return n.Number, formulaArg{}, true
}

// etsSeries reads the values (argument vi) and the timeline (argument ti):
// numbers of the same shape.
func etsSeries(argsList *list.List, vi, ti int) (x, y []float64, errArg formulaArg, ok bool) {
	var cols [2][]float64
	var shapes [2][2]int
	for k, i := range []int{vi, ti} {
		arg := argAt(argsList, i)
		if arg.Type == ArgError {
			return nil, nil, arg, false
		}
		m := matrixOf(arg)
		if m == nil {
			return nil, nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
		}
		shapes[k] = [2]int{len(m), len(m[0])}
		for _, row := range m {
			for _, v := range row {
				if v.Type == ArgError {
					return nil, nil, v, false
				}
				if v.Type != ArgNumber {
					return nil, nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
				}
				cols[k] = append(cols[k], v.Number)
			}
		}
	}
	if shapes[0] != shapes[1] || len(cols[0]) < 2 {
		return nil, nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return cols[1], cols[0], formulaArg{}, true
}

// etsModelArgs builds the model of values vi and timeline ti, with the
// seasonality argument si (-1: detected, as FORECAST.ETS.SEASONALITY
// always does), data completion ci and aggregation ai.
func (fn *formulaFuncs) etsModelArgs(argsList *list.List, vi, ti, si, ci, ai int) (*etsModel, formulaArg, bool) {
	aggregation, errArg, ok := etsOption(argsList, ai, 1)
	if !ok {
		return nil, errArg, false
	}
	if aggregation = math.Trunc(aggregation); aggregation < 1 || aggregation > 7 {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	complete, errArg, ok := etsOption(argsList, ci, 1)
	if !ok {
		return nil, errArg, false
	}
	if complete = math.Trunc(complete); complete != 0 && complete != 1 {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	seasonality := 1.0
	if si >= 0 {
		if seasonality, errArg, ok = etsOption(argsList, si, 1); !ok {
			return nil, errArg, false
		}
		if seasonality != math.Trunc(seasonality) || seasonality < 0 || seasonality > maxSeasonality {
			return nil, newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM), false
		}
	}
	x, y, errArg, ok := etsSeries(argsList, vi, ti)
	if !ok {
		return nil, errArg, false
	}
	if err := fn.guard().chargeCells(float64(len(x)), 8); err != nil {
		return nil, stopArg(err), false
	}
	m, err := newETSModel(fn.guard(), x, y, int(seasonality), complete == 1, int(aggregation))
	if err == nil {
		err = m.fit()
	}
	if err != nil {
		var e etsError
		if errors.As(err, &e) {
			return nil, newErrorFormulaArg(string(e), string(e)), false
		}
		return nil, stopArg(err), false
	}
	return m, formulaArg{}, true
}

// etsTarget reads the target date, the first argument of the function
// name: a number, else the error to return (false). Several target dates
// never come here: the call is lifted over them (calc_array_lift.go); an
// array that still does is left uncomputed.
func (fn *formulaFuncs) etsTarget(argsList *list.List, name string) (formulaArg, bool) {
	target, ok := scalarArg(argAt(argsList, 0))
	if !ok {
		return fn.unsupported(name + " of several target dates"), false
	}
	if target.Type == ArgError {
		return target, false
	}
	if target = target.ToNumber(); target.Type != ArgNumber {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return target, true
}

// FORECASTdotETS function forecasts a value at a target date from a series
// by additive triple exponential smoothing. The syntax of the function
// is:
//
//	FORECAST.ETS(target_date,values,timeline,[seasonality],[data_completion],[aggregation])
func (fn *formulaFuncs) FORECASTdotETS(argsList *list.List) formulaArg {
	if argsList.Len() < 3 || argsList.Len() > 6 {
		return newErrorFormulaArg(formulaErrorVALUE, "FORECAST.ETS requires 3 to 6 arguments")
	}
	target, ok := fn.etsTarget(argsList, "FORECAST.ETS")
	if !ok {
		return target
	}
	m, errArg, ok := fn.etsModelArgs(argsList, 1, 2, 3, 4, 5)
	if !ok {
		return errArg
	}
	first := math.Inf(1)
	for _, e := range argAt(argsList, 2).ToList() {
		first = math.Min(first, e.Number)
	}
	if target.Number < first {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	t := m.targetX(target.Number)
	if (t-m.x[len(m.x)-1])/m.step > maxETSHorizon {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	return etsNumber(m.forecast(t))
}

// FORECASTdotETSdotSEASONALITY function returns the length of the season
// FORECAST.ETS detects in a series. The syntax of the function is:
//
//	FORECAST.ETS.SEASONALITY(values,timeline,[data_completion],[aggregation])
func (fn *formulaFuncs) FORECASTdotETSdotSEASONALITY(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, "FORECAST.ETS.SEASONALITY requires 2 to 4 arguments")
	}
	m, errArg, ok := fn.etsModelArgs(argsList, 0, 1, -1, 2, 3)
	if !ok {
		return errArg
	}
	return newNumberFormulaArg(float64(m.period))
}

// FORECASTdotETSdotSTAT function returns a statistic of the model
// FORECAST.ETS fits to a series: 1 alpha, 2 beta (trend), 3 gamma
// (season), 4 MASE, 5 SMAPE, 6 MAE, 7 RMSE, 8 the step of the timeline.
// The syntax of the function is:
//
//	FORECAST.ETS.STAT(values,timeline,statistic_type,[seasonality],[data_completion],[aggregation])
func (fn *formulaFuncs) FORECASTdotETSdotSTAT(argsList *list.List) formulaArg {
	if argsList.Len() < 3 || argsList.Len() > 6 {
		return newErrorFormulaArg(formulaErrorVALUE, "FORECAST.ETS.STAT requires 3 to 6 arguments")
	}
	kind, errArg, ok := etsOption(argsList, 2, 0)
	if !ok {
		return errArg
	}
	if kind = math.Trunc(kind); kind < 1 || kind > 8 {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	m, errArg, ok := fn.etsModelArgs(argsList, 0, 1, 3, 4, 5)
	if !ok {
		return errArg
	}
	stats := [...]float64{m.alpha, m.gamma, m.beta, m.mase, m.smape, m.mae, m.rmse, m.step}
	return etsNumber(stats[int(kind)-1])
}
