package colprofile

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestQuantile: numpy's linear method (pandas' default) on small known
// inputs; the expected values are numpy.percentile's.
func TestQuantile(t *testing.T) {
	cases := []struct {
		name   string
		sorted []float64
		want   [5]float64 // q = 0, 0.25, 0.5, 0.75, 1
	}{
		{"odd count", []float64{1, 2, 3, 4, 5}, [5]float64{1, 2, 3, 4, 5}},
		{"even count", []float64{1, 2, 3, 4}, [5]float64{1, 1.75, 2.5, 3.25, 4}},
		{"one value", []float64{7}, [5]float64{7, 7, 7, 7, 7}},
		{"two values", []float64{0, 10}, [5]float64{0, 2.5, 5, 7.5, 10}},
		{"six values, fractions on both sides of a half", []float64{-3, 0.5, 1, 8, 9, 100}, [5]float64{-3, 0.625, 4.5, 8.75, 100}},
		{"upper neighbour rounding", []float64{0.1, 0.7}, [5]float64{0.1, 0.25, 0.39999999999999997, 0.5499999999999999, 0.7}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var got [5]float64
			for i, q := range []float64{0, 0.25, 0.5, 0.75, 1} {
				got[i] = quantile(c.sorted, q)
			}
			assert.Equal(t, c.want, got)
		})
	}
}

// TestNumberStats: quartiles and outliers over the numbers of a column,
// blanks, text and booleans left out, outlier examples in row order.
func TestNumberStats(t *testing.T) {
	cases := []struct {
		name     string
		values   []any // one a row from row 2
		q        quartiles
		count    int
		examples []any
	}{
		{"blanks, text and booleans mixed in", []any{nil, int64(1), "x", int64(2), 3.0, true, int64(100), nil},
			quartiles{1.75, 2.5, 27.25}, 1, []any{map[string]any{"row": 8.0, "value": 100.0}}},
		{"low and high outliers in row order", []any{int64(50), int64(-900), int64(10), int64(11), int64(12), int64(13), int64(900)},
			quartiles{10.5, 12, 31.5}, 2, []any{map[string]any{"row": 3.0, "value": -900.0}, map[string]any{"row": 8.0, "value": 900.0}}},
		{"no spread: every other value is out", []any{int64(5), int64(5), int64(5), int64(5), int64(6)},
			quartiles{5, 5, 5}, 1, []any{map[string]any{"row": 6.0, "value": 6.0}}},
		{"at most three examples", append(zeros(30), int64(100), int64(200), int64(300), int64(400), int64(500), int64(600)),
			quartiles{0, 0, 0}, 6, []any{map[string]any{"row": 32.0, "value": 100.0}, map[string]any{"row": 33.0, "value": 200.0}, map[string]any{"row": 34.0, "value": 300.0}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p Profile
			for i, v := range c.values {
				p.Add(v, i+2)
			}
			q, outliers := p.nums.stats()
			assert.Equal(t, c.q, q)
			got := toMap(t, outliers)
			assert.Equal(t, float64(c.count), got["count"])
			assert.Equal(t, c.examples, got["examples"])
			iqr := q.p75 - q.p25
			assert.Equal(t, q.p25-1.5*iqr, got["lower_fence"])
			assert.Equal(t, q.p75+1.5*iqr, got["upper_fence"])
		})
	}
}

// zeros is n zero cells.
func zeros(n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = int64(0)
	}
	return out
}

// TestNumberSampleBound: up to the bound every number is kept and the
// quartiles are exact; past it a fixed-seed uniform sample of bound numbers
// is kept, the same on every run, and the result says so.
func TestNumberSampleBound(t *testing.T) {
	cases := []struct {
		name    string
		n       int
		sampled bool
		from    string
	}{
		{"at the bound: exact", 100, false, "all 100 numbers"},
		{"past the bound: sampled", 10000, true, "a random sample of 100 of 10000 numbers"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			run := func() numberSample {
				s := numberSample{bound: 100}
				for i := range c.n {
					s.add(float64(i), i+2)
				}
				return s
			}
			s := run()
			assert.Equal(t, c.sampled, s.sampled())
			assert.Equal(t, c.from, s.from())
			require.Len(t, s.vals, 100)
			assert.Equal(t, s.vals, run().vals, "the sample is the same on every run")
			for i, v := range s.vals {
				assert.Equal(t, int(v)+2, s.rows[i], "each number keeps its row")
			}
			q, _ := s.stats()
			if !c.sampled {
				assert.Equal(t, quartiles{24.75, 49.5, 74.25}, q)
				return
			}
			// The sample's quartiles are near the true ones (2499.75,
			// 4999.5, 7499.25): within a tenth of the range.
			assert.InDelta(t, 2499.75, q.p25, 1000)
			assert.InDelta(t, 4999.5, q.median, 1000)
			assert.InDelta(t, 7499.25, q.p75, 1000)
		})
	}
}

// TestKeyColumns: a column is a key when its non-empty values (two at
// least) are all distinct; empty cells do not count against it.
func TestKeyColumns(t *testing.T) {
	cases := []struct {
		name   string
		values []any
		key    bool
		ratio  any
	}{
		{"distinct ids", []any{int64(1), int64(2), int64(3)}, true, 1.0},
		{"distinct with blanks", []any{"a", nil, "b", nil}, true, 1.0},
		{"a repeated value", []any{int64(1), int64(2), int64(1)}, false, 0.6667},
		{"one number as int and float repeats", []any{int64(2), 2.0}, false, 0.5},
		{"text and number differ", []any{"1", int64(1)}, true, 1.0},
		{"one value is no key", []any{"only", nil}, false, 1.0},
		{"empty column", []any{nil, nil}, false, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			profiles := []Profile{{Name: "other"}, {Name: "h"}}
			for i, v := range c.values {
				profiles[0].Add(int64(7), i+2)
				profiles[1].Add(v, i+2)
			}
			assert.Equal(t, c.key, profiles[1].isKey())
			assert.Equal(t, c.ratio, profiles[1].uniqueRatio())
			want := []any{}
			if c.key {
				nonEmpty := 0
				for _, v := range c.values {
					if v != nil {
						nonEmpty++
					}
				}
				want = append(want, map[string]any{"column": "B", "header": "h", "non_empty": float64(nonEmpty), "empty": float64(len(c.values) - nonEmpty), "unique_ratio": 1.0})
			}
			assert.Equal(t, want, toMap(t, map[string]any{"k": KeyColumns(profiles)})["k"], fmt.Sprint(c.values))
		})
	}
}
