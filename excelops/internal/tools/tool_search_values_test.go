package tools

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSearchValues(t *testing.T) {
	cases := []struct {
		name  string
		args  map[string]any
		cells []any
		total float64
	}{
		{"every sheet, header row too", map[string]any{"query": "oslo"}, []any{"B2", "B4", "A1"}, 3},
		{"case-sensitive", map[string]any{"query": "Oslo", "case_sensitive": true}, []any{"B2"}, 1},
		{"columns", map[string]any{"query": "o", "columns": []any{"NAME"}}, []any{"A3"}, 1},
		{"sheets", map[string]any{"query": "oslo", "sheets": []any{"notes"}}, []any{"A1"}, 1},
		{"exact number", map[string]any{"query": "25", "match_mode": "exact"}, []any{"C3"}, 1},
		{"regex", map[string]any{"query": `^[lr]`, "match_mode": "regex"}, []any{"B3", "B5"}, 2},
		{"max_results pages", map[string]any{"query": "oslo", "max_results": 1}, []any{"B2"}, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("s.xlsx", [][]any{{"name", "city", "age"}, {"ann", "Oslo", 31}, {"bob", "Rome", 25}, {"cid", "oslo"}, {"dan", "Lima", 40}})
			f := e.open("s.xlsx")
			_, err := f.NewSheet("Notes")
			require.NoError(t, err)
			require.NoError(t, f.SetCellValue("Notes", "A1", "trip to OSLO"))
			require.NoError(t, f.Save())
			c.args["file_path"] = "s.xlsx"
			got := e.ok("search_excel_values", c.args)
			var cells []any
			for _, m := range got["matches"].([]any) {
				cells = append(cells, m.(map[string]any)["cell_ref"])
			}
			assert.Equal(t, c.cells, cells)
			assert.Equal(t, c.total, got["total_matches"])
			assert.Equal(t, float64(len(c.cells)) < c.total, got["has_more"])
		})
	}
}

func TestSearchValuesHitShape(t *testing.T) {
	e := newEnv(t)
	e.workbook("a.xlsx", [][]any{{"name", "city"}, {"ann", "Oslo"}})
	e.workbook("b.xlsx", [][]any{{"who", "where"}, {"Oslo", nil}})
	got := e.ok("search_excel_values", map[string]any{"file_path": "a.xlsx", "file_paths": []any{"b.xlsx"}, "query": "oslo"})
	require.Len(t, got["matches"], 2)
	assert.Equal(t, map[string]any{"file": "a.xlsx", "sheet": "Sheet1", "row": 2.0, "column": "city", "value": "Oslo", "cell_ref": "B2", "context": map[string]any{"name": "ann"}}, got["matches"].([]any)[0])
	assert.Equal(t, "b.xlsx", got["matches"].([]any)[1].(map[string]any)["file"])
	assert.Equal(t, 2.0, got["sheets_searched"])
}

func TestSearchValuesPagesNeverSkip(t *testing.T) {
	e := newEnv(t)
	rows := [][]any{{"v"}}
	for i := 0; i < 17; i++ {
		rows = append(rows, []any{"x"})
	}
	e.workbook("p.xlsx", rows)
	args := map[string]any{"file_path": "p.xlsx", "query": "x", "max_results": 5}
	seen := 0
	for page := 0; page < 10; page++ {
		got := e.ok("search_excel_values", args)
		for _, m := range got["matches"].([]any) {
			seen++
			assert.Equal(t, float64(seen+1), m.(map[string]any)["row"])
		}
		if got["has_more"] != true {
			break
		}
		args["offset"] = got["next_offset"]
	}
	assert.Equal(t, 17, seen)
}

func TestSearchValuesRefused(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{"a"}})
	for _, args := range []map[string]any{
		{"query": "(", "match_mode": "regex"},
		{"query": "a", "file_paths": []any{"missing.xlsx"}},
	} {
		args["file_path"] = "s.xlsx"
		got := e.fail("search_excel_values", args)
		assert.NotEmpty(t, got["message"])
	}
}

// TestSearchValuesManyFilesInOrder: workbooks scanned side by side still
// page in file order, row order within each, never skipping or repeating
// a hit, pages cut across the workbooks' boundaries.
func TestSearchValuesManyFilesInOrder(t *testing.T) {
	e := newEnv(t)
	var names []any
	var want []string
	for f, n := range []int{3, 0, 7, 1, 5, 2} {
		name := fmt.Sprintf("m%d.xlsx", f)
		rows := [][]any{{"v"}}
		for r := range n {
			rows = append(rows, []any{"hit"}, []any{"miss"})
			want = append(want, fmt.Sprintf("%s!A%d", name, 2*r+2))
		}
		e.workbook(name, rows)
		names = append(names, name)
	}
	for _, size := range []int{1, 4, 7, 100} {
		args := map[string]any{"file_path": names[0], "file_paths": names[1:], "query": "hit", "max_results": size}
		var got []string
		for page := 0; page < 30; page++ {
			res := e.ok("search_excel_values", args)
			assert.Equal(t, float64(len(want)), res["total_matches"])
			for _, m := range res["matches"].([]any) {
				h := m.(map[string]any)
				got = append(got, fmt.Sprintf("%s!%s", h["file"], h["cell_ref"]))
			}
			if res["has_more"] != true {
				break
			}
			args["offset"] = res["next_offset"]
		}
		assert.Equal(t, want, got, "page size %d", size)
	}
}

// TestSearchValuesManyFilesFirstFailure: of several workbooks that cannot
// be read, the failure reported is the first in file order, whichever
// scan ends first.
func TestSearchValuesManyFilesFirstFailure(t *testing.T) {
	e := newEnv(t)
	for _, n := range []string{"a.xlsx", "c.xlsx", "e.xlsx"} {
		e.workbook(n, [][]any{{"x"}, {"x"}})
	}
	require.NoError(t, os.WriteFile(e.path("d.xlsx"), []byte("not a zip"), 0o644))
	for range 5 {
		got := e.fail("search_excel_values", map[string]any{"file_path": "a.xlsx", "file_paths": []any{"c.xlsx", "b-missing.xlsx", "d.xlsx", "e.xlsx"}, "query": "x"})
		assert.Equal(t, "FileNotFoundError", got["exception"])
		assert.Contains(t, got["message"], "b-missing.xlsx")
	}
	got := e.fail("search_excel_values", map[string]any{"file_path": "a.xlsx", "file_paths": []any{"c.xlsx", "d.xlsx", "b-missing.xlsx"}, "query": "x"})
	assert.Contains(t, got["message"], "d.xlsx")
}
