// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: the prediction interval of the model of
// calc_forecast_ets.go, behind FORECAST.ETS.CONFINT (PATCHES.md, section
// N). Microsoft does not publish Excel's method; this follows LibreOffice
// Calc's FORECAST.ETS.PI.ADD, which Calc reads Excel's function as, so that
// Calc can judge the results.

package excelize

import (
	"container/list"
	"math"
	"math/rand/v2"
	"sort"
)

const (
	// etsScenarios is how many random paths the interval of a seasonal
	// model is read from, as in Calc.
	etsScenarios = 1000
	// maxETSSimulation bounds the path steps of one seasonal interval
	// (scenarios times steps ahead) when no step budget does: a target a
	// million steps past the data.
	maxETSSimulation = 1e9
	// etsSeed1 and etsSeed2 seed the random paths of every call alike, so
	// that a recalculation gives the same value (Calc draws anew each time).
	etsSeed1, etsSeed2 = 0x6574732e636f6e66, 0x696e742e70617468
)

// etsCoefficient is the growth of the interval of a model without a season
// i steps past the first (0-based) at confidence level, as Calc computes
// it: sqrt(1 + level/(1+o)^3 * ((1+4o+5o^2) + 2i level (1+3o) + 2i^2
// level^2)) with o = 1 - level. The textbook form (Hyndman et al., the
// prediction interval of Holt's linear method) has the level's smoothing
// constant where Calc puts the confidence level; Calc is followed, as it
// is the judge of these values.
func etsCoefficient(i, level float64) float64 {
	o := 1 - level
	return math.Sqrt(1 + level/math.Pow(1+o, 3)*((1+4*o+5*o*o)+2*i*level*(1+3*o)+2*i*i*level*level))
}

// etsInterval is the interval (the half width) at steps ahead of the
// data, interpolated as Calc does for d (the distance past the data on the
// model's timeline) between whole steps: from whole step n = d/step to n+1
// by fmod(d, step) itself, not divided by the step (Calc's; the same for a
// step of 1). Within the first step, where Calc reads past the end of its
// table (its value there is the first step's times one less the fraction,
// as if it read 0), the interval grows from 0 at the last point to the
// first step's. width(k) is the interval k whole steps ahead (k >= 1).
func (m *etsModel) etsInterval(d float64, width func(k int) float64) float64 {
	whole := int(d / m.step)
	frac := math.Mod(d, m.step)
	if whole == 0 {
		return width(1) * d / m.step
	}
	v := width(whole)
	if frac != 0 {
		v += frac * (width(whole+1) - v)
	}
	return v
}

// edsInterval is the interval of a model without a season at distance d
// past the data: z x rmse x c(k-1)/c(0) k steps ahead, z the standard
// normal quantile of (1+level)/2.
func (m *etsModel) edsInterval(d, level float64) float64 {
	z := -math.Sqrt2 * math.Erfcinv(1+level)
	c0 := etsCoefficient(0, level)
	return m.etsInterval(d, func(k int) float64 {
		return z * m.rmse * etsCoefficient(float64(k-1), level) / c0
	})
}

// simulatedInterval is the interval of a seasonal model at distance d past
// the data, as Calc reads it from random paths: each of etsScenarios paths
// runs the smoothing equations on from the last point, each step's value
// the model's one-step forecast plus rmse x NORMSINV(u), u uniform in
// [0.5, 1) (Calc's draw, never below the forecast); the interval at a step
// is the (1+level)/2 percentile of the paths' values there less their
// median. The paths advance together step by step, so only a season of
// each is kept.
func (m *etsModel) simulatedInterval(d, level float64) (float64, error) {
	whole := int(d / m.step)
	last := whole
	if whole == 0 || math.Mod(d, m.step) != 0 {
		last++
	}
	if float64(last)*etsScenarios > maxETSSimulation {
		return 0, errETSHorizon
	}
	if err := m.guard.spend(float64(last) * etsScenarios); err != nil {
		return 0, err
	}
	p := max(m.period, 1)
	if err := m.guard.charge(float64(etsScenarios*(p+3)) * 8); err != nil {
		return 0, err
	}
	n := len(m.y)
	base, trend := make([]float64, etsScenarios), make([]float64, etsScenarios)
	season, values := make([]float64, etsScenarios*p), make([]float64, etsScenarios)
	for k := range etsScenarios {
		base[k], trend[k] = m.base[n-1], m.trend[n-1]
		if m.season != nil {
			copy(season[k*p:(k+1)*p], m.season[n-p:])
		}
	}
	rng := rand.New(rand.NewPCG(etsSeed1, etsSeed2))
	widths := map[int]float64{}
	for step := 1; step <= last; step++ {
		j := (step - 1) % p
		for k := range etsScenarios {
			s := &season[k*p+j]
			y := base[k] + trend[k] + *s + m.rmse*(-math.Sqrt2*math.Erfcinv(1+rng.Float64()))
			b := m.alpha*(y-*s) + (1-m.alpha)*(base[k]+trend[k])
			trend[k] = m.gamma*(b-base[k]) + (1-m.gamma)*trend[k]
			base[k] = b
			*s = m.beta*(y-b) + (1-m.beta)**s
			values[k] = y
		}
		if step >= max(whole, 1) {
			sort.Float64s(values)
			widths[step] = percentileInc(values, (1+level)/2) - percentileInc(values, 0.5)
		}
	}
	return m.etsInterval(d, func(k int) float64 { return widths[k] }), nil
}

// percentileInc is the p-th percentile of sorted values, interpolated
// between the two nearest ranks (PERCENTILE.INC).
func percentileInc(sorted []float64, p float64) float64 {
	pos := p * float64(len(sorted)-1)
	lo := int(pos)
	if lo+1 >= len(sorted) {
		return sorted[len(sorted)-1]
	}
	return sorted[lo] + (pos-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// errETSHorizon is a seasonal interval too far past the data to simulate
// without a step budget.
const errETSHorizon = etsError("horizon")

// FORECASTdotETSdotCONFINT function returns the half width of the
// prediction interval of FORECAST.ETS's forecast at a target date past the
// data. The syntax of the function is:
//
//	FORECAST.ETS.CONFINT(target_date,values,timeline,[confidence_level],[seasonality],[data_completion],[aggregation])
func (fn *formulaFuncs) FORECASTdotETSdotCONFINT(argsList *list.List) formulaArg {
	if argsList.Len() < 3 || argsList.Len() > 7 {
		return newErrorFormulaArg(formulaErrorVALUE, "FORECAST.ETS.CONFINT requires 3 to 7 arguments")
	}
	target, ok := fn.etsTarget(argsList, "FORECAST.ETS.CONFINT")
	if !ok {
		return target
	}
	level, errArg, ok := etsOption(argsList, 3, 0.95)
	if !ok {
		return errArg
	}
	if level <= 0 || level >= 1 { // Microsoft's documented range, (0, 1)
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	m, errArg, ok := fn.etsModelArgs(argsList, 1, 2, 4, 5, 6)
	if !ok {
		return errArg
	}
	end := math.Inf(-1)
	for _, e := range argAt(argsList, 2).ToList() {
		end = math.Max(end, e.Number)
	}
	if target.Number < end { // Excel's documented #NUM!, as Calc's
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	d := m.targetX(target.Number) - m.x[len(m.x)-1]
	if d/m.step > maxETSHorizon {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	if d <= 0 { // the end of the timeline itself: Calc's Err:502
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	// Calc reads the seasonality argument, not the season found: 0 is
	// the closed form, a season detected as none is still simulated.
	if seasonality, _, _ := etsOption(argsList, 4, 1); seasonality == 0 {
		return etsNumber(m.edsInterval(d, level))
	}
	v, err := m.simulatedInterval(d, level)
	if err == errETSHorizon {
		return fn.unsupported("FORECAST.ETS.CONFINT a million steps past a seasonal series")
	}
	if err != nil {
		return stopArg(err)
	}
	return etsNumber(v)
}
