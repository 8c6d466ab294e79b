package tools

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestRelNormalize(t *testing.T) {
	cases := []struct{ in, want string }{
		{"customer_id", "customer_id"},
		{"CustomerID", "customer_id"},
		{"Customer ID", "customer_id"},
		{"customer-id", "customer_id"},
		{"客户编号", "customer_id"},
		{"客户ID", "customer_id"},
		{"客户id", "customer_id"},
		{"ＣｕｓｔｏｍｅｒＩＤ", "customer_id"}, // full-width
		{"订单编号", "order_id"},
		{"order_id", "order_id"},
		{"订单号", "order_id"},
		{"Order No", "order_id"},
		{"产品编号", "product_id"},
		{"Total Amount", "totalamount"},
		{"name", "name"},
		{"姓名", "姓名"},
		{"名称", "名称"},
		{"date", "date"},
		{"日期", "日期"},
		{"时间", "时间"},
		{"department", "department"},
		{"dept", "dept"},
		{"产品名称", "产品名称"},
		{"客户姓名", "客户姓名"},
		{"", ""},
		{"   ", ""},
		{"ID", "id"},
	}
	for _, c := range cases {
		t.Run(c.in, func(t *testing.T) {
			assert.Equal(t, c.want, relNormalize(c.in))
		})
	}
}

func TestRelSkippedHeader(t *testing.T) {
	cases := []struct {
		in   string
		skip bool
	}{{"", true}, {"  ", true}, {"Unnamed: 0", true}, {"Unnamed", true}, {"ID", false}, {"unnamed column", false}}
	for _, c := range cases {
		assert.Equal(t, c.skip, relSkippedHeader(c.in), c.in)
	}
}

// relCol is a column holding vals (dates: the indexes that are dates).
func relCol(vals []any, dates ...int) *relColumn {
	c := &relColumn{}
	for i, v := range vals {
		date := false
		for _, d := range dates {
			date = date || d == i
		}
		c.add(v, date)
	}
	return c
}

func TestRelColumnStatistics(t *testing.T) {
	cases := []struct {
		name     string
		col      *relColumn
		distinct int
		nonBlank int
		unique   float64
		kind     string
	}{
		{"text", relCol([]any{"C001", "C002", "C001", nil, ""}), 2, 3, 2.0 / 3, "text"},
		{"1 and 1.0 are one number", relCol([]any{int64(1), 1.0, int64(2)}), 2, 3, 2.0 / 3, "number"},
		{"1 and \"1\" are two values", relCol([]any{int64(1), "1"}), 2, 2, 1, "mixed"},
		{"dates", relCol([]any{"2024-01-01T00:00:00", "2024-01-02T00:00:00"}, 0, 1), 2, 2, 1, "date"},
		{"a date is not its text", relCol([]any{"2024-01-01T00:00:00", "2024-01-01T00:00:00"}, 0), 2, 2, 1, "mixed"},
		{"bools", relCol([]any{true, false, true}), 2, 3, 2.0 / 3, "bool"},
		{"empty", relCol([]any{nil, ""}), 0, 0, 0, "empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Len(t, c.col.distinct, c.distinct)
			assert.Equal(t, c.nonBlank, c.col.nonBlank)
			assert.InDelta(t, c.unique, c.col.uniqueRatio(), 1e-12)
			assert.Equal(t, c.kind, c.col.kind())
		})
	}
}

func TestRelOverlap(t *testing.T) {
	cases := []struct {
		name string
		a, b []any
		want float64
	}{
		{"two of three", []any{"C001", "C002", "C003"}, []any{"C001", "C002", "C004"}, 2.0 / 3},
		{"the smaller side counts", []any{"C001", "C002"}, []any{"C001", "C002", "C003", "C004"}, 1},
		{"duplicates count once", []any{"C001", "C001", "C002"}, []any{"C001", "C009"}, 0.5},
		{"disjoint", []any{"A1", "A2"}, []any{"B1", "B2"}, 0},
		{"numbers by value", []any{int64(1), int64(2)}, []any{1.0, 3.0}, 0.5},
		{"number never equals text", []any{int64(1)}, []any{"1"}, 0},
		{"an empty side", []any{nil}, []any{"x"}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a, b := relCol(c.a), relCol(c.b)
			assert.InDelta(t, c.want, relOverlap(a, b), 1e-12)
			assert.InDelta(t, c.want, relOverlap(b, a), 1e-12, "symmetric")
		})
	}
}

func TestRelCardinalityAndJoin(t *testing.T) {
	cases := []struct {
		uniqueA, uniqueB, overlap float64
		rel, join                 string
	}{
		{1, 1, 1, "one_to_one", "inner"},
		{0.9, 0.95, 0.9, "one_to_one", "inner"},
		{1, 1, 0.6667, "one_to_one", "outer"},
		{1, 0.25, 1, "one_to_many", "right"},
		{0.89, 1, 1, "many_to_one", "left"},
		{0.5, 0.5, 1, "many_to_many", "inner"},
		{0, 0, 0, "many_to_many", "inner"},
	}
	for _, c := range cases {
		t.Run(c.rel+"/"+c.join, func(t *testing.T) {
			rel := relCardinality(c.uniqueA, c.uniqueB)
			assert.Equal(t, c.rel, rel)
			assert.Equal(t, c.join, relJoin(rel, c.overlap))
		})
	}
}

func TestRelCompatible(t *testing.T) {
	cases := []struct {
		a, b string
		want bool
	}{
		{"text", "text", true}, {"number", "number", true}, {"date", "date", true},
		{"number", "text", false}, {"date", "text", false}, {"bool", "number", false},
		{"mixed", "number", true}, {"text", "mixed", true}, {"empty", "date", true},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, relCompatible(c.a, c.b), "%s/%s", c.a, c.b)
	}
}

func TestRelRoundAndQuote(t *testing.T) {
	assert.Equal(t, 0.6667, relRound(2.0/3))
	assert.Equal(t, 0.3333, relRound(1.0/3))
	assert.Equal(t, 1.0, relRound(1))
	assert.Equal(t, `'客户ID'`, pyQuote("客户ID"))
	assert.Equal(t, `'it\'s \\ here'`, pyQuote(`it's \ here`))
}

// FuzzRelNormalize: the header key never panics, is stable (the key of a
// key is itself), keeps no space, hyphen or (outside a canonical synonym)
// underscore, ignores ASCII case and blank padding, and is "" only for a
// blank header.
func FuzzRelNormalize(f *testing.F) {
	for _, s := range []string{"customer_id", "Customer ID", "客户编号", "ＩＤ", "Unnamed: 0", " _-", "ß", "İd", "\u00a0x"} {
		f.Add(s)
	}
	canon := map[string]bool{}
	for _, c := range relSynonyms {
		canon[c] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return
		}
		k := relNormalize(s)
		if relNormalize(k) != k {
			t.Fatalf("key of %q is %q, whose key is %q", s, k, relNormalize(k))
		}
		if strings.ContainsAny(k, " -\t") || !canon[k] && strings.Contains(k, "_") {
			t.Fatalf("key of %q is %q", s, k)
		}
		if got := relNormalize("  " + asciiUpper(s) + " "); got != k {
			t.Fatalf("key of upper-case padded %q is %q, not %q", s, got, k)
		}
	})
}

// asciiUpper upper-cases the ASCII letters of s only.
func asciiUpper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}
