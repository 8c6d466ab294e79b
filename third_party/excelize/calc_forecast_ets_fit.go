// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: fitting and forecasting the additive exponential
// smoothing model of calc_forecast_ets.go (PATCHES.md, section N).

package excelize

import (
	"math"
	"time"
)

// smooth runs the smoothing equations over the data with the current
// constants, one-step forecasts included, and measures the fit. The
// seasonal indexes carry over from the previous run where the equations
// read an index of the first season, as Calc's do.
func (m *etsModel) smooth() error {
	n := len(m.y)
	if err := m.guard.spend(float64(n)); err != nil {
		return err
	}
	for i := 1; i < n; i++ {
		if m.eds {
			m.base[i] = m.alpha*m.y[i] + (1-m.alpha)*(m.base[i-1]+m.trend[i-1])
			m.trend[i] = m.gamma*(m.base[i]-m.base[i-1]) + (1-m.gamma)*m.trend[i-1]
			m.fc[i] = m.base[i-1] + m.trend[i-1]
			continue
		}
		k := i
		if i > m.period {
			k = i - m.period
		}
		m.base[i] = m.alpha*(m.y[i]-m.season[k]) + (1-m.alpha)*(m.base[i-1]+m.trend[i-1])
		m.season[i] = m.beta*(m.y[i]-m.base[i]) + (1-m.beta)*m.season[k]
		m.trend[i] = m.gamma*(m.base[i]-m.base[i-1]) + (1-m.gamma)*m.trend[i-1]
		m.fc[i] = m.base[i-1] + m.trend[i-1] + m.season[k]
	}
	m.measure()
	return nil
}

// measure computes the errors of the one-step forecasts.
func (m *etsModel) measure() {
	n := len(m.y)
	var absErr, sqErr, pctErr, scale float64
	for i := 1; i < n; i++ {
		e := m.fc[i] - m.y[i]
		absErr += math.Abs(e)
		sqErr += e * e
		pctErr += math.Abs(e) / (math.Abs(m.fc[i]) + math.Abs(m.y[i]))
	}
	for i := 2; i < n; i++ {
		scale += math.Abs(m.y[i] - m.y[i-1])
	}
	k := float64(n - 1)
	m.mae = absErr / k
	m.mase = absErr / (k * scale / (k - 1))
	m.mse = sqErr / k
	m.rmse = math.Sqrt(m.mse)
	m.smape = pctErr * 2 / k
}

// bisect chooses the constant *c in [0, 1] with the least mean squared
// error by successive halving, calling inner (the search of the constants
// below it, then smooth) for each value tried.
func (m *etsModel) bisect(c *float64, inner func() error) error {
	try := func(v float64) error {
		*c = v
		return inner()
	}
	lo, hi, mid := 0.0, 1.0, 0.5
	if err := try(lo); err != nil {
		return err
	}
	errLo := m.mse
	if err := try(hi); err != nil {
		return err
	}
	errHi := m.mse
	if err := try(mid); err != nil {
		return err
	}
	if errLo == m.mse && m.mse == errHi {
		return try(0)
	}
	for hi-mid > etsResolution {
		if errHi > errLo {
			hi, errHi, mid = mid, m.mse, (lo+mid)/2
		} else {
			lo, errLo, mid = mid, m.mse, (mid+hi)/2
		}
		if err := try(mid); err != nil {
			return err
		}
	}
	switch {
	case errHi > errLo && errLo < m.mse:
		return try(lo)
	case errHi <= errLo && errHi < m.mse:
		return try(hi)
	}
	return nil
}

// fit chooses the smoothing constants: the level's by bisection, each
// value tried with the best season's (none without a season), each of
// those with the best trend's, the series smoothed again after each
// inner search (the seasonal indexes carry over, so the order of runs is
// part of the method).
func (m *etsModel) fit() error {
	if m.fitted {
		return nil
	}
	then := func(search func() error) func() error {
		return func() error {
			if err := search(); err != nil {
				return err
			}
			return m.smooth()
		}
	}
	trendFit := func() error { return m.bisect(&m.gamma, m.smooth) }
	inner := trendFit
	if m.eds {
		m.beta = 0
	} else {
		inner = func() error { return m.bisect(&m.beta, then(trendFit)) }
	}
	if err := m.bisect(&m.alpha, then(inner)); err != nil {
		return err
	}
	m.measure()
	m.fitted = true
	return nil
}

// targetX is a target date on the model's timeline (months, and the
// fraction of a month, for a monthly timeline).
func (m *etsModel) targetX(t float64) float64 {
	if m.monthDay == 0 {
		return t
	}
	d := serialDate(t)
	days := time.Date(d.Year(), d.Month()+1, 0, 0, 0, 0, 0, time.UTC).Day()
	return float64(12*d.Year()+int(d.Month())) + float64(d.Day()-m.monthDay)/float64(days)
}

// forecast is the model's value at target t (on the model's timeline): a
// point of the data, or interpolated toward the next one-step forecast,
// inside it; level plus trend plus season past it.
func (m *etsModel) forecast(t float64) float64 {
	n := len(m.y)
	last := n - 1
	if t <= m.x[last] {
		k := int((t - m.x[0]) / m.step)
		v := m.y[k]
		if f := math.Mod(t-m.x[0], m.step); f >= etsResolution {
			v += f / m.step * (m.fc[k+1] - v)
		}
		return v
	}
	ahead := func(h int) float64 {
		v := m.base[last] + float64(h)*m.trend[last]
		if !m.eds {
			v += m.season[last-m.period+h%m.period]
		}
		return v
	}
	h := int((t - m.x[last]) / m.step)
	v := ahead(h)
	if f := math.Mod(t-m.x[last], m.step); f >= etsResolution {
		v += f / m.step * (ahead(h+1) - v)
	}
	return v
}
