package tools

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestConditionMatch(t *testing.T) {
	cols := map[string]int{"n": 0, "t": 1}
	num := func(s string) any { return json.Number(s) }
	rows := map[string][]any{
		"int":    {int64(5), "apple"},
		"float":  {2.5, "Banana"},
		"blank":  {nil, nil},
		"text5":  {"5", "pineapple"},
		"bool":   {true, "#N/A"},
		"date":   {"2024-03-01", "2024-03-01"},
		"short":  {int64(10)},
		"negint": {int64(-1), ""},
	}
	cases := []struct {
		name string
		cond condArg
		want []string
	}{
		{"eq number", condArg{"n", "eq", num("5")}, []string{"int"}},
		{"eq text never a number", condArg{"n", "eq", "5"}, []string{"text5"}},
		{"ne keeps blanks", condArg{"n", "ne", num("5")}, []string{"float", "blank", "text5", "bool", "date", "short", "negint"}},
		{"gt numbers only", condArg{"n", "gt", num("2")}, []string{"int", "float", "short"}},
		{"ge", condArg{"n", "ge", num("2.5")}, []string{"int", "float", "short"}},
		{"lt", condArg{"n", "lt", num("2.5")}, []string{"negint"}},
		{"le", condArg{"n", "le", num("2.5")}, []string{"float", "negint"}},
		{"gt text", condArg{"t", "gt", "b"}, []string{"text5"}},
		{"contains case-sensitive", condArg{"t", "contains", "apple"}, []string{"int", "text5"}},
		{"startswith", condArg{"t", "startswith", "B"}, []string{"float"}},
		{"endswith", condArg{"t", "endswith", "le"}, []string{"int", "text5"}},
		{"in", condArg{"n", "in", []any{num("5"), num("10"), "2024-03-01"}}, []string{"int", "date", "short"}},
		{"not_in keeps blanks", condArg{"n", "not_in", []any{num("5"), num("10")}}, []string{"float", "blank", "text5", "bool", "date", "negint"}},
		{"between inclusive", condArg{"n", "between", []any{num("2.5"), num("5")}}, []string{"int", "float"}},
		{"between dates", condArg{"t", "between", []any{"2024-01-01", "2024-12-31"}}, []string{"date"}},
		{"isnull", condArg{"t", "isnull", nil}, []string{"blank", "short"}},
		{"notnull", condArg{"n", "notnull", nil}, []string{"int", "float", "text5", "bool", "date", "short", "negint"}},
		{"eq bool", condArg{"n", "eq", true}, []string{"bool"}},
		{"eq error text", condArg{"t", "eq", "#N/A"}, []string{"bool"}},
	}
	order := []string{"int", "float", "blank", "text5", "bool", "date", "short", "negint"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cond, err := compileCond(c.cond, cols)
			require.NoError(t, err)
			var got []string
			for _, name := range order {
				if cond.match(rows[name]) {
					got = append(got, name)
				}
			}
			assert.Equal(t, c.want, got)
		})
	}
}

func TestConditionRefused(t *testing.T) {
	cols := map[string]int{"n": 0}
	cases := []struct {
		name string
		cond condArg
		want string
	}{
		{"unknown column", condArg{"x", "eq", "a"}, `column "x" is not in the header row; columns: n`},
		{"unknown operator", condArg{"n", "like", "a"}, "unknown operator"},
		{"in without list", condArg{"n", "in", "a"}, "takes a list"},
		{"between one value", condArg{"n", "between", []any{json.Number("1")}}, "[min, max]"},
		{"contains a number", condArg{"n", "contains", json.Number("1")}, "text value"},
		{"eq an object", condArg{"n", "eq", map[string]any{}}, "an object"},
		{"eq missing", condArg{"n", "eq", nil}, "null"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := compileCond(c.cond, cols)
			require.Error(t, err)
			var e *failure.Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, failure.KindInvalidArgument, e.Kind)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

func TestRowQueryLogic(t *testing.T) {
	cols := map[string]int{"a": 0, "b": 1}
	gt := func(col string, n string) condition {
		c, err := compileCond(condArg{col, "gt", json.Number(n)}, cols)
		require.NoError(t, err)
		return c
	}
	cases := []struct {
		name string
		q    rowQuery
		row  []any
		want bool
	}{
		{"no condition", rowQuery{}, []any{nil}, true},
		{"and both", rowQuery{conds: []condition{gt("a", "1"), gt("b", "1")}}, []any{int64(2), int64(2)}, true},
		{"and one", rowQuery{conds: []condition{gt("a", "1"), gt("b", "1")}}, []any{int64(2), int64(0)}, false},
		{"or one", rowQuery{conds: []condition{gt("a", "1"), gt("b", "1")}, any: true}, []any{int64(0), int64(2)}, true},
		{"or none", rowQuery{conds: []condition{gt("a", "1"), gt("b", "1")}, any: true}, []any{int64(0), int64(0)}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, c.q.match(c.row)) })
	}
}

func TestHeaderNames(t *testing.T) {
	got := headerNames([]any{"a", nil, int64(2024), "a", 1.5, true, "a"})
	assert.Equal(t, []string{"a", "Unnamed: 1", "2024", "a.1", "1.5", "True", "a.2"}, got)
}

func TestSortKeptOrder(t *testing.T) {
	keys := []any{"b", int64(3), nil, true, "a", 1.5, false, int64(3), nil}
	cases := []struct {
		desc bool
		want []int
	}{
		{false, []int{5, 1, 7, 4, 0, 6, 3, 2, 8}},
		{true, []int{3, 6, 0, 4, 1, 7, 5, 2, 8}},
	}
	for _, c := range cases {
		fr := &filterRun{}
		for i, k := range keys {
			fr.kept = append(fr.kept, keptRow{row: i, key: cellScalar(k)})
		}
		fr.sortKept(c.desc)
		var got []int
		for _, k := range fr.kept {
			got = append(got, k.row)
		}
		assert.Equal(t, c.want, got, "desc=%v", c.desc)
	}
}
