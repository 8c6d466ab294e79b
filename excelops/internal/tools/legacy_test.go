package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestColumnWidthsLegacy: excelmanus's map of widths becomes the list the
// schema describes, in order, values as sent; other arguments pass as they
// are.
func TestColumnWidthsLegacy(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"map", `{"file_path": "a.xlsx", "columns": {"A": 20, "C": 12.5}}`, `{"file_path":"a.xlsx","columns":[{"column":"A","width":20},{"column":"C","width":12.5}]}`},
		{"empty map", `{"columns": {}, "auto_fit": true}`, `{"columns":[],"auto_fit":true}`},
		{"wrong value kept", `{"columns": {"A": "wide"}}`, `{"columns":[{"column":"A","width":"wide"}]}`},
		{"list unchanged", `{"columns": [{"column": "A", "width": 20}]}`, `{"columns": [{"column": "A", "width": 20}]}`},
		{"no columns", `{"auto_fit": true}`, `{"auto_fit": true}`},
		{"not an object", `[1]`, `[1]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, string(columnWidthsLegacy([]byte(c.in))))
		})
	}
	e := newEnv(t)
	e.workbook("w.xlsx", [][]any{{"a", 1}})
	old := e.ok("adjust_column_width", map[string]any{"file_path": "w.xlsx", "columns": map[string]any{"B": 30}})
	cur := e.ok("adjust_column_width", map[string]any{"file_path": "w.xlsx", "columns": []any{map[string]any{"column": "B", "width": 30}}})
	assert.Equal(t, old, cur, "both forms set the same width")
	got := e.fail("adjust_column_width", map[string]any{"file_path": "w.xlsx", "columns": map[string]any{"B": "wide"}})
	assert.Contains(t, got["detail"], "$.columns[0].width")
}
