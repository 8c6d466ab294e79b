// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: the additive triple exponential smoothing
// (Holt-Winters) model behind FORECAST.ETS, FORECAST.ETS.SEASONALITY and
// FORECAST.ETS.STAT (PATCHES.md, section N). Microsoft does not publish
// Excel's fitting procedure; this follows the method LibreOffice Calc
// documents for its FORECAST.ETS.ADD (NIST Engineering Statistics
// Handbook 6.4.3.5, seasonal indexes corrected for trend, smoothing
// constants chosen by successive bisection on the mean squared one-step
// error), so that Calc can judge the results.

package excelize

import (
	"math"
	"sort"
	"time"
)

// etsResolution is the smallest change of a smoothing constant the fit
// looks at, and the smallest fraction of a step a target interpolates.
const etsResolution = 0.001

// etsNullDate is day 0 of the serial numbers the month detection reads.
var etsNullDate = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// etsModel is one fitted series: the data (X the timeline, Y the values),
// the samples per season (period; eds when there is no season), the step
// of the timeline, and the smoothed level, trend, seasonal index and
// one-step forecast of each point. alpha smooths the level, gamma the
// trend and beta the season; mse and the other errors measure the fit.
type etsModel struct {
	x, y                        []float64
	period                      int
	eds                         bool
	step                        float64
	monthDay                    int
	alpha, beta, gamma          float64
	base, trend, season, fc     []float64
	mae, mase, mse, rmse, smape float64
	fitted                      bool
	guard                       *calcGuard
}

// etsError is why a series cannot be modelled, as the Excel error value.
type etsError string

// Error returns the error value.
func (e etsError) Error() string { return string(e) }

// serialDate is the calendar date of a serial number (its whole days).
func serialDate(x float64) time.Time {
	return etsNullDate.AddDate(0, 0, int(int32(x)))
}

// aggregateTies merges the points of equal X of the sorted data with the
// aggregation code (1 AVERAGE keeps the first point, as Calc does; 2 and 3
// count; 4 MAX; 5 MEDIAN; 6 MIN; 7 SUM) and returns the smallest step.
func (m *etsModel) aggregateTies(aggregation int) (float64, error) {
	step := math.MaxFloat64
	for i := 1; i < len(m.x); i++ {
		d := m.x[i] - m.x[i-1]
		if d == 0 {
			if aggregation == 0 {
				return 0, etsError(formulaErrorVALUE)
			}
			j := i
			for j < len(m.x) && m.x[j] == m.x[i-1] {
				j++
			}
			tied := append([]float64{}, m.y[i-1:j]...)
			v := tied[0]
			switch aggregation {
			case 2, 3:
				v = float64(len(tied))
			case 4:
				v = slicesMax(tied)
			case 5:
				sort.Float64s(tied)
				if k := len(tied); k%2 == 1 {
					v = tied[k/2]
				} else {
					v = (tied[k/2] + tied[k/2-1]) / 2
				}
			case 6:
				v = -slicesMax(negated(tied))
			case 7:
				v = 0
				for _, t := range tied {
					v += t
				}
			}
			m.x, m.y = append(m.x[:i], m.x[j:]...), append(m.y[:i], m.y[j:]...)
			m.y[i-1] = v
			d = math.MaxFloat64
			if i < len(m.x)-1 {
				d = m.x[i] - m.x[i-1]
			}
		}
		if d > 0 && d < step {
			step = d
		}
	}
	return step, nil
}

// slicesMax is the largest of vs.
func slicesMax(vs []float64) float64 {
	out := vs[0]
	for _, v := range vs[1:] {
		out = math.Max(out, v)
	}
	return out
}

// negated is vs with each sign changed.
func negated(vs []float64) []float64 {
	out := make([]float64, len(vs))
	for i, v := range vs {
		out[i] = -v
	}
	return out
}

// fillGaps inserts the points missing where the timeline skips steps: the
// mean of their neighbours when complete, else 0. More than 30% missing is
// #VALUE!.
func (m *etsModel) fillGaps(complete bool) error {
	gap := false
	for i := 1; i < len(m.x); i++ {
		if d := m.x[i] - m.x[i-1]; d != m.step {
			if math.Mod(d, m.step) != 0 {
				return etsError(formulaErrorVALUE)
			}
			gap = true
			break
		}
	}
	if !gap {
		return nil
	}
	original, missing := float64(len(m.x)), 0
	x, y := []float64{m.x[0]}, []float64{m.y[0]}
	prev := serialDate(m.x[0])
	for i := 1; i < len(m.x); i++ {
		dist := m.x[i] - m.x[i-1]
		if m.monthDay != 0 {
			cur := serialDate(m.x[i])
			dist = float64(12*(cur.Year()-prev.Year()) + int(cur.Month()) - int(prev.Month()))
			prev = cur
		}
		if dist > m.step {
			fill := 0.0
			if complete {
				fill = (m.y[i] + m.y[i-1]) / 2
			}
			for gx := m.x[i-1] + m.step; gx < m.x[i]; gx += m.step {
				if missing++; float64(missing)/original > 0.3 {
					return etsError(formulaErrorVALUE)
				}
				x, y = append(x, gx), append(y, fill)
			}
		}
		x, y = append(x, m.x[i]), append(y, m.y[i])
	}
	m.x, m.y = x, y
	return nil
}

// newETSModel sorts the data by timeline, reads a monthly timeline as
// months, merges ties, fills gaps and finds the season (seasonality 1:
// detected, 0: none), ready to fit.
func newETSModel(g *calcGuard, x, y []float64, seasonality int, complete bool, aggregation int) (*etsModel, error) {
	m := &etsModel{guard: g, eds: seasonality == 0}
	idx := make([]int, len(x))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return x[idx[a]] < x[idx[b]] })
	for _, i := range idx {
		m.x, m.y = append(m.x, x[i]), append(m.y, y[i])
	}
	first := serialDate(m.x[0])
	m.monthDay = first.Day()
	for _, v := range m.x[1:] {
		if d := serialDate(v); !d.Equal(first) && d.Day() != m.monthDay {
			m.monthDay = 0
			break
		}
	}
	if m.monthDay != 0 {
		for i, v := range m.x {
			d := serialDate(v)
			m.x[i] = float64(d.Year()*12 + int(d.Month()))
		}
	}
	var err error
	if m.step, err = m.aggregateTies(aggregation); err != nil {
		return nil, err
	}
	if len(m.x) < 2 {
		return nil, etsError(formulaErrorVALUE)
	}
	if err = m.fillGaps(complete); err != nil {
		return nil, err
	}
	m.period = seasonality
	if seasonality == 1 {
		if m.period = m.periodLength(); m.period == 1 {
			m.eds = true
		}
	}
	return m, m.prefill()
}

// periodLength is the most likely season: of the lengths from half the
// points down to 1, the one whose step-to-step changes best repeat a
// season later (the last with the least mean difference).
func (m *etsModel) periodLength() int {
	n, best, bestErr := len(m.y), len(m.y), math.MaxFloat64
	for p := n / 2; p >= 1; p-- {
		periods := n / p
		sum := 0.0
		for i := n - periods*p + 1; i < n-p; i++ {
			sum += math.Abs((m.y[i] - m.y[i-1]) - (m.y[p+i] - m.y[p+i-1]))
		}
		denom := float64((periods-1)*p - 1)
		if mean := sum / denom; mean <= bestErr || mean == 0 {
			best, bestErr = p, mean
		}
	}
	return best
}

// prefill sets the first level, trend and seasonal indexes.
func (m *etsModel) prefill() error {
	n := len(m.y)
	if err := m.guard.chargeCells(float64(n), 4); err != nil {
		return err
	}
	m.base, m.trend, m.fc = make([]float64, n), make([]float64, n), make([]float64, n)
	m.fc[0] = m.y[0]
	if m.eds {
		m.trend[0] = (m.y[n-1] - m.y[0]) / float64(n-1)
		m.base[0] = m.y[0]
		return nil
	}
	p := m.period
	if n < 2*p {
		return etsError(formulaErrorVALUE)
	}
	m.season = make([]float64, n)
	sum := 0.0
	for i := range p {
		sum += m.y[i+p] - m.y[i]
	}
	m.trend[0] = sum / float64(p*p)
	periods := n / p
	means := make([]float64, periods)
	for i := range means {
		for j := range p {
			means[i] += m.y[i*p+j]
		}
		if means[i] /= float64(p); means[i] == 0 {
			return etsError(formulaErrorDIV)
		}
	}
	for j := range p {
		s := 0.0
		for i := range periods {
			s += m.y[i*p+j] - (means[i] + (float64(j)-0.5*float64(p-1))*m.trend[0])
		}
		m.season[j] = s / float64(periods)
	}
	m.base[0] = m.y[0] / m.season[0] // as Calc starts its additive level
	return nil
}
