package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSampleIndexes(t *testing.T) {
	cases := []struct {
		n, k int
		want []int
	}{
		{10, 3, []int{0, 5, 9}},
		{10, 1, []int{0}},
		{10, 2, []int{0, 9}},
		{3, 5, []int{0, 1, 2}},
		{0, 4, []int{}},
		{100, 4, []int{0, 33, 66, 99}},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, sampleIndexes(c.n, c.k), "n=%d k=%d", c.n, c.k)
	}
}

func TestReadExcelExcelmanusArguments(t *testing.T) {
	rows := [][]any{{"Report"}, {"id", "v"}}
	for i := 1; i <= 10; i++ {
		rows = append(rows, []any{i, i * 10})
	}
	cases := []struct {
		name  string
		args  map[string]any
		check func(t *testing.T, got map[string]any)
	}{
		{"header_row", map[string]any{"header_row": 1, "max_rows": 2}, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"id", "v"}, got["columns"])
			assert.Equal(t, []any{[]any{1.0, 10.0}, []any{2.0, 20.0}}, got["rows"])
			assert.Equal(t, 2.0, got["next_offset"])
		}},
		{"sample_rows", map[string]any{"header_row": 1, "sample_rows": 3}, func(t *testing.T, got map[string]any) {
			assert.Equal(t, []any{"id", "v"}, got["columns"])
			assert.Equal(t, 10.0, got["data_rows"])
			assert.Equal(t, []any{3.0, 8.0, 12.0}, got["row_numbers"])
			assert.Equal(t, []any{[]any{1.0, 10.0}, []any{6.0, 60.0}, []any{10.0, 100.0}}, got["rows"])
			assert.Equal(t, false, got["truncated"])
		}},
		{"include", map[string]any{"include": []any{"styles", "formulas"}, "max_rows": 1}, func(t *testing.T, got map[string]any) {
			assert.Equal(t, map[string]any{"styles": "not attached by read_excel; use read_cell_styles"}, got["include_notes"])
		}},
		{"default unchanged", map[string]any{"max_rows": 1}, func(t *testing.T, got map[string]any) {
			assert.Equal(t, "Report", got["columns"].([]any)[0])
			assert.NotContains(t, got, "include_notes")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("r.xlsx", rows)
			c.args["file_path"] = "r.xlsx"
			c.check(t, e.ok("read_excel", c.args))
		})
	}
}

func TestReadExcelExcelmanusArgumentsRefused(t *testing.T) {
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{"a"}})
	for _, args := range []map[string]any{
		{"range": "A1:A2", "sample_rows": 2},
		{"range": "A1:A2", "header_row": 1},
	} {
		args["file_path"] = "r.xlsx"
		got := e.fail("read_excel", args)
		assert.Equal(t, "ValueError", got["exception"], got)
	}
}
