package tools

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fuzzCell turns one byte into a cell value of every kind sort_range and
// find_replace meet: numbers, text (some looking like numbers), booleans
// and blanks.
func fuzzCell(b byte) any {
	switch b % 6 {
	case 0:
		return nil
	case 1:
		return int(b) - 128
	case 2:
		return float64(b) / 8
	case 3:
		return []string{"a", "B", "é", "10", "north", "North", "_x", ""}[b/6%8]
	case 4:
		return b%2 == 0
	}
	return fmt.Sprintf("%c%d", 'a'+b%26, b)
}

// FuzzSortRange: any column of mixed values sorts into an order the
// comparison accepts, and the rows are a permutation of the rows before
// (each row carries its tag).
func FuzzSortRange(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5}, false)
	f.Add([]byte{9, 3, 3, 27, 200, 0, 14, 4, 1}, true)
	f.Fuzz(func(t *testing.T, data []byte, desc bool) {
		if len(data) == 0 || len(data) > 40 {
			return
		}
		e := newEnv(t)
		rows := make([][]any, len(data))
		for i, b := range data {
			rows[i] = []any{fuzzCell(b), fmt.Sprintf("t%02d", i)}
		}
		e.workbook("z.xlsx", rows)
		order := "ascending"
		if desc {
			order = "descending"
		}
		e.ok("sort_range", map[string]any{"file_path": "z.xlsx", "cell_range": fmt.Sprintf("A1:B%d", len(data)),
			"sort_by": []any{map[string]any{"column": "A", "order": order}}})
		fb := e.open("z.xlsx")
		b := e.book("z.xlsx")
		coll := newSortCollator()
		var tags []string
		var prev *sortValue
		for r := 1; r <= len(data); r++ {
			_, v, err := readSortCell(b, "Sheet1", fmt.Sprintf("A%d", r), coll)
			require.NoError(t, err)
			if prev != nil {
				assert.LessOrEqual(t, compareSort(*prev, v, desc), 0, "row %d out of order", r)
			}
			prev = &v
			tag, err := fb.GetCellValue("Sheet1", fmt.Sprintf("B%d", r))
			require.NoError(t, err)
			tags = append(tags, tag)
		}
		sort.Strings(tags)
		for i, tag := range tags {
			require.Equal(t, fmt.Sprintf("t%02d", i), tag, "every row is still there once")
		}
	})
}

// FuzzFindReplace: any find and replace text either changes exactly the
// cells it reports (each now reading as reported) or is refused with a
// ValueError that leaves the file as it was; it never crashes.
func FuzzFindReplace(f *testing.F) {
	f.Add("north", "south", false, false, true)
	f.Add("1", "x", true, true, true)
	f.Add("=", "", false, false, true)
	f.Add("SUM", "SUMME", true, false, true)
	f.Add("(", ")", false, false, true)
	f.Fuzz(func(t *testing.T, find, repl string, matchCase, whole, inFormulas bool) {
		if find == "" || len(find) > 20 || len(repl) > 20 {
			return
		}
		e := newEnv(t)
		e.workbook("z.xlsx", [][]any{{"north", 1500, "007", true}, {"North star", 2.5, "=x", nil}})
		fb := e.open("z.xlsx")
		require.NoError(t, fb.SetCellFormula("Sheet1", "E1", "SUM(B1:B2)*2"))
		require.NoError(t, fb.SetCellFormula("Sheet1", "E2", `"n"&A1`))
		require.NoError(t, fb.Save())
		before := fileHash(t, e, "z.xlsx")
		res := e.call("find_replace", map[string]any{"file_path": "z.xlsx", "find": find, "replace": repl,
			"match_case": matchCase, "whole_cell": whole, "in_formulas": inFormulas})
		if res.IsError {
			assert.Contains(t, res.Text, `"ValueError"`, res.Text)
			assert.Equal(t, before, fileHash(t, e, "z.xlsx"), "a refusal writes nothing")
			return
		}
		var got map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.Text), &got))
		list := got["changes"].([]any)
		assert.Equal(t, got["cells_changed"], float64(len(list)))
		fb = e.open("z.xlsx")
		for _, c := range list {
			m := c.(map[string]any)
			ref := m["cell"].(string)
			after := fmt.Sprint(m["after"])
			if formula, _ := fb.GetCellFormula("Sheet1", ref); formula != "" {
				assert.Equal(t, after, "="+formula, ref)
				continue
			}
			v, err := fb.GetCellValue("Sheet1", ref, excelize.Options{RawCellValue: true})
			require.NoError(t, err)
			if n, ok := asFloat(engine.JsonCell(after)); ok {
				got, isNum := asFloat(engine.JsonCell(v))
				assert.True(t, isNum && got == n, "%s: %q stored as %q", ref, after, v)
				continue
			}
			assert.Equal(t, after, v, ref)
		}
	})
}

// asFloat is a JSON number as float64.
func asFloat(v any) (float64, bool) {
	switch n := v.(type) {
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}
