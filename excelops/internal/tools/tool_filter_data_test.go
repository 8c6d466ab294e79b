package tools

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// filterBook writes people.xlsx: a header and rows of name, city, age.
func filterBook(e *env) {
	e.workbook("people.xlsx", [][]any{
		{"name", "city", "age"},
		{"ann", "Oslo", 31},
		{"bob", "Rome", 25},
		{"cid", "Oslo", nil},
		{"dan", "Lima", 40},
		{"eve", "Oslo", 25},
	})
}

func TestFilterDataQueries(t *testing.T) {
	cases := []struct {
		name  string
		args  map[string]any
		names []any
		nums  []any
		total float64
	}{
		{"single condition", map[string]any{"column": "city", "operator": "eq", "value": "Oslo"}, []any{"ann", "cid", "eve"}, []any{2.0, 4.0, 6.0}, 3},
		{"and", map[string]any{"conditions": []any{map[string]any{"column": "city", "operator": "eq", "value": "Oslo"}, map[string]any{"column": "age", "operator": "ge", "value": 30}}}, []any{"ann"}, []any{2.0}, 1},
		{"or", map[string]any{"logic": "or", "conditions": []any{map[string]any{"column": "city", "operator": "eq", "value": "Lima"}, map[string]any{"column": "age", "operator": "isnull"}}}, []any{"cid", "dan"}, []any{4.0, 5.0}, 2},
		{"sort descending, blanks last", map[string]any{"sort_by": "age", "ascending": false}, []any{"dan", "ann", "bob", "eve", "cid"}, []any{5.0, 2.0, 3.0, 6.0, 4.0}, 5},
		{"sort and top-N", map[string]any{"sort_by": "age", "limit": 2}, []any{"bob", "eve"}, []any{3.0, 6.0}, 2},
		{"limit without sort", map[string]any{"column": "city", "operator": "ne", "value": "Rome", "limit": 2}, []any{"ann", "cid"}, []any{2.0, 4.0}, 2},
		{"no condition", map[string]any{}, []any{"ann", "bob", "cid", "dan", "eve"}, []any{2.0, 3.0, 4.0, 5.0, 6.0}, 5},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			filterBook(e)
			c.args["file_path"] = "people.xlsx"
			c.args["columns"] = []any{"name"}
			got := e.ok("filter_data", c.args)
			var names []any
			for _, r := range got["rows"].([]any) {
				names = append(names, r.([]any)[0])
			}
			assert.Equal(t, c.names, names)
			assert.Equal(t, c.nums, got["row_numbers"])
			assert.Equal(t, c.total, got["total_matched"])
			assert.Equal(t, []any{"name"}, got["columns"])
			assert.Equal(t, false, got["has_more"])
		})
	}
}

func TestFilterDataPagesNeverSkip(t *testing.T) {
	for _, sorted := range []bool{false, true} {
		t.Run(fmt.Sprint("sorted=", sorted), func(t *testing.T) {
			e := newEnv(t)
			rows := [][]any{{"k", "v"}}
			for i := 0; i < 23; i++ {
				rows = append(rows, []any{i, i % 3})
			}
			e.workbook("p.xlsx", rows)
			args := map[string]any{"file_path": "p.xlsx", "column": "v", "operator": "ne", "value": 1, "max_rows": 4}
			if sorted {
				args["sort_by"] = "k"
			}
			var seen []any
			for page := 0; ; page++ {
				require.Less(t, page, 10)
				got := e.ok("filter_data", args)
				for _, r := range got["rows"].([]any) {
					seen = append(seen, r.([]any)[0])
				}
				assert.Equal(t, got["has_more"], got["truncated"])
				if got["has_more"] != true {
					break
				}
				args["offset"] = got["next_offset"]
			}
			var want []any
			for i := 0; i < 23; i++ {
				if i%3 != 1 {
					want = append(want, float64(i))
				}
			}
			assert.Equal(t, want, seen)
		})
	}
}

func TestFilterDataHeaderRow(t *testing.T) {
	e := newEnv(t)
	e.workbook("h.xlsx", [][]any{{"Quarterly report"}, {"x", "y"}, {1, "a"}, {2, "b"}})
	got := e.ok("filter_data", map[string]any{"file_path": "h.xlsx", "header_row": 1, "column": "x", "operator": "gt", "value": 1})
	assert.Equal(t, []any{"x", "y"}, got["columns"])
	assert.Equal(t, []any{[]any{2.0, "b"}}, got["rows"])
}

func TestFilterDataRefused(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		want string
	}{
		{"both modes", map[string]any{"column": "age", "operator": "eq", "value": 1, "conditions": []any{map[string]any{"column": "age", "operator": "eq", "value": 1}}}, "not both"},
		{"column without operator", map[string]any{"column": "age"}, "needs column and operator"},
		{"unknown column", map[string]any{"column": "zip", "operator": "eq", "value": 1}, `column "zip" is not in the header row`},
		{"unknown projection", map[string]any{"columns": []any{"zip"}}, `column "zip"`},
		{"unknown sort column", map[string]any{"sort_by": "zip"}, `column "zip"`},
		{"empty header row", map[string]any{"header_row": 40}, "holds no column names"},
		{"between needs two", map[string]any{"column": "age", "operator": "between", "value": []any{1}}, "[min, max]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			filterBook(e)
			c.args["file_path"] = "people.xlsx"
			got := e.fail("filter_data", c.args)
			assert.Equal(t, "ValueError", got["exception"], got)
			assert.Contains(t, got["message"], c.want)
		})
	}
}

// TestFilterDataTopNEqualsFullSort: with a limit the sort keeps only the
// best rows so far (memory follows the limit), yet the answer is the full
// sort cut to the limit: ties in sheet order, blanks last, both directions.
func TestFilterDataTopNEqualsFullSort(t *testing.T) {
	rnd := rand.New(rand.NewPCG(7, 11))
	rows := [][]any{{"k", "n"}}
	for i := range 600 {
		var k any = rnd.IntN(9)
		switch rnd.IntN(10) {
		case 0:
			k = nil
		case 1:
			k = fmt.Sprintf("t%d", rnd.IntN(3))
		}
		rows = append(rows, []any{k, i})
	}
	e := newEnv(t)
	e.workbook("top.xlsx", rows)
	for _, asc := range []bool{true, false} {
		for _, limit := range []int{1, 5, 37, 300} {
			args := map[string]any{"file_path": "top.xlsx", "sort_by": "k", "ascending": asc, "max_rows": 1000}
			full := e.ok("filter_data", args)["row_numbers"].([]any)
			args["limit"] = limit
			got := e.ok("filter_data", args)
			assert.Equal(t, full[:limit], got["row_numbers"], "ascending %v, limit %d", asc, limit)
			assert.Equal(t, float64(limit), got["total_matched"])
		}
	}
}
