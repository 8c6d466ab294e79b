package colprofile

import (
	"fmt"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// The column profiles of scan_excel_snapshot: per column of a sheet's data
// rows, what kinds of values it holds, how many are empty or distinct, the
// smallest and largest number, the quartiles and outliers of its numbers
// (stats.go) and a few sample values.

const (
	// profileSamples is how many distinct sample values a column shows.
	profileSamples = 3
	// profileSampleRunes caps a sample text value.
	profileSampleRunes = 60
)

// Profile accumulates one column's values (the zero Profile is an empty
// column without a header).
type Profile struct {
	// Name is the column's header cell, or nil.
	Name           any
	numbers, texts int
	bools, empty   int
	distinct       map[string]struct{}
	min, max       float64
	samples        []any
	hasMin         bool
	nums           numberSample // the numbers, for quartiles and outliers
}

// ValueKey is the identity of a value for counting distinct values: its
// kind and its text, so 1 and "1" differ.
func ValueKey(v any) string {
	switch x := v.(type) {
	case string:
		return "s" + x
	case bool:
		return "b" + strconv.FormatBool(x)
	case int64:
		return "n" + strconv.FormatFloat(float64(x), 'g', -1, 64)
	case float64:
		return "n" + strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprintf("o%v", v)
}

// Add counts v, the column's cell on sheet row row (nil when empty).
func (p *Profile) Add(v any, row int) {
	if v == nil {
		p.empty++
		return
	}
	if p.distinct == nil {
		p.distinct = map[string]struct{}{}
	}
	key := ValueKey(v)
	if _, seen := p.distinct[key]; !seen {
		p.distinct[key] = struct{}{}
		if len(p.samples) < profileSamples {
			p.samples = append(p.samples, shortSample(v))
		}
	}
	var f float64
	switch x := v.(type) {
	case string:
		p.texts++
		return
	case bool:
		p.bools++
		return
	case int64:
		f = float64(x)
	case float64:
		f = x
	default:
		p.texts++
		return
	}
	p.numbers++
	p.nums.add(f, row)
	if !p.hasMin || f < p.min {
		p.min = f
	}
	if !p.hasMin || f > p.max {
		p.max = f
	}
	p.hasMin = true
}

// shortSample is v with long text cut to profileSampleRunes.
func shortSample(v any) any {
	if s, ok := v.(string); ok {
		r := []rune(s)
		if len(r) > profileSampleRunes {
			return string(r[:profileSampleRunes]) + "…"
		}
	}
	return v
}

// kind is the column's type: number, text, boolean, mixed or empty.
func (p *Profile) kind() string {
	return ColumnKind(KindCount{N: p.numbers, Name: "number"}, KindCount{N: p.texts, Name: "text"}, KindCount{N: p.bools, Name: "boolean"})
}

// Encode is the column's entry in the result; col is its number.
func (p *Profile) Encode(col int) pyjson.Object {
	o := pyjson.Object{
		{Key: "column", Value: columnName(col)},
		{Key: "header", Value: p.Name},
		{Key: "type", Value: p.kind()},
		{Key: "non_empty", Value: p.numbers + p.texts + p.bools},
		{Key: "empty", Value: p.empty},
		{Key: "unique", Value: len(p.distinct)},
		{Key: "unique_ratio", Value: p.uniqueRatio()},
	}
	if p.hasMin {
		q, outliers := p.nums.stats()
		o = append(o,
			pyjson.Field{Key: "min", Value: p.min},
			pyjson.Field{Key: "p25", Value: q.p25},
			pyjson.Field{Key: "median", Value: q.median},
			pyjson.Field{Key: "p75", Value: q.p75},
			pyjson.Field{Key: "max", Value: p.max},
			pyjson.Field{Key: "quantiles_from", Value: p.nums.from()},
			pyjson.Field{Key: "outliers", Value: outliers})
	}
	samples := p.samples
	if samples == nil {
		samples = []any{}
	}
	return append(o, pyjson.Field{Key: "samples", Value: samples})
}

// RowKey is the identity of a whole row, for counting duplicate rows.
func RowKey(vals []any) string {
	end := len(vals)
	for end > 0 && vals[end-1] == nil {
		end--
	}
	b := make([]byte, 0, 16*end)
	for _, v := range vals[:end] {
		if v != nil {
			b = append(b, ValueKey(v)...)
		}
		b = append(b, 0)
	}
	return string(b)
}
