package colprofile

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// The numeric statistics of scan_excel_snapshot's column profiles: the
// quartiles as pandas' Series.quantile computes them by default (numpy's
// "linear" method: interpolation between the two nearest ranks), the
// numbers outside Tukey's fences (1.5 interquartile ranges past the
// quartiles) and the columns whose values could be a key. The numbers are
// kept up to a bound per column, so a huge sheet costs bounded memory:
// past it the kept numbers are a uniform random sample (a reservoir drawn
// with a fixed seed, so one file always gives one answer) and the result
// says so.

const (
	// numberSampleBound caps the numbers one column keeps for its
	// quartiles and outliers.
	numberSampleBound = 10000
	// outlierExamples is how many outliers a column shows.
	outlierExamples = 3
	// iqrFence is how many interquartile ranges past the quartiles a
	// number must lie to be an outlier.
	iqrFence = 1.5
	// sampleSeed seeds every reservoir: the same file, the same sample.
	sampleSeed = 0x5eed
)

// numberSample holds a column's numbers, or a uniform sample of them once
// there are more than its bound, with the sheet row of each.
type numberSample struct {
	vals  []float64
	rows  []int
	seen  int        // numbers offered
	bound int        // 0: numberSampleBound
	rng   *rand.Rand // made when the bound is first passed
}

// add offers v, found on sheet row row.
func (s *numberSample) add(v float64, row int) {
	s.seen++
	bound := s.bound
	if bound <= 0 {
		bound = numberSampleBound
	}
	if len(s.vals) < bound {
		s.vals, s.rows = append(s.vals, v), append(s.rows, row)
		return
	}
	if s.rng == nil {
		s.rng = rand.New(rand.NewPCG(sampleSeed, uint64(bound)))
	}
	// Algorithm R: the seen-th number replaces a kept one with
	// probability bound/seen, so every number is kept alike.
	if j := s.rng.IntN(s.seen); j < bound {
		s.vals[j], s.rows[j] = v, row
	}
}

// sampled reports whether some numbers were not kept.
func (s *numberSample) sampled() bool { return s.seen > len(s.vals) }

// from says which numbers the quartiles and outliers were computed from.
func (s *numberSample) from() string {
	if s.sampled() {
		return fmt.Sprintf("a random sample of %d of %d numbers", len(s.vals), s.seen)
	}
	if s.seen == 1 {
		return "the one number"
	}
	return fmt.Sprintf("all %d numbers", s.seen)
}

// quantile is the q-quantile of sorted (ascending, not empty) as numpy's
// linear method computes it, pandas' default: the value at rank (n-1)*q,
// interpolated between the two nearest ranks, with numpy's rounding (from
// the upper neighbour when the fraction is at least one half).
func quantile(sorted []float64, q float64) float64 {
	n := len(sorted)
	h := float64(n-1) * q
	lo := math.Floor(h)
	i := int(lo)
	if i >= n-1 {
		return sorted[n-1]
	}
	t := h - lo
	a, b := sorted[i], sorted[i+1]
	d := b - a
	// The explicit conversions keep Go from fusing a multiply-add, which
	// numpy never does.
	if t >= 0.5 {
		return b - float64(d*(1-t))
	}
	return a + float64(d*t)
}

// quartiles are the 25th, 50th and 75th percentiles of s's numbers.
type quartiles struct{ p25, median, p75 float64 }

// stats computes the quartiles and the outliers of s's numbers (which
// must not be empty).
func (s *numberSample) stats() (quartiles, pyjson.Object) {
	sorted := slices.Clone(s.vals)
	slices.Sort(sorted)
	q := quartiles{quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75)}
	iqr := q.p75 - q.p25
	low, high := q.p25-float64(iqrFence*iqr), q.p75+float64(iqrFence*iqr)
	var out []int
	for i, v := range s.vals {
		if v < low || v > high {
			out = append(out, i)
		}
	}
	slices.SortFunc(out, func(x, y int) int { return cmp.Compare(s.rows[x], s.rows[y]) })
	examples := make([]any, 0, min(len(out), outlierExamples))
	for _, i := range out[:min(len(out), outlierExamples)] {
		examples = append(examples, pyjson.Object{{Key: "row", Value: s.rows[i]}, {Key: "value", Value: s.vals[i]}})
	}
	return q, pyjson.Object{
		{Key: "lower_fence", Value: low},
		{Key: "upper_fence", Value: high},
		{Key: "count", Value: len(out)},
		{Key: "examples", Value: examples},
	}
}

// uniqueRatio is the share of a column's non-empty values that are
// distinct, to four decimals; nil when it holds none.
func (p *Profile) uniqueRatio() any {
	n := p.numbers + p.texts + p.bools
	if n == 0 {
		return nil
	}
	return math.Round(float64(len(p.distinct))/float64(n)*1e4) / 1e4
}

// isKey reports whether the column could be a key: at least two non-empty
// values, all distinct (empty cells are allowed and counted).
func (p *Profile) isKey() bool {
	n := p.numbers + p.texts + p.bools
	return n >= 2 && len(p.distinct) == n
}

// KeyColumns lists the profiled columns that could be keys.
func KeyColumns(profiles []Profile) []any {
	out := []any{}
	for i := range profiles {
		p := &profiles[i]
		if p.isKey() {
			out = append(out, pyjson.Object{
				{Key: "column", Value: columnName(i + 1)},
				{Key: "header", Value: p.Name},
				{Key: "non_empty", Value: p.numbers + p.texts + p.bools},
				{Key: "empty", Value: p.empty},
				{Key: "unique_ratio", Value: 1.0},
			})
		}
	}
	return out
}
