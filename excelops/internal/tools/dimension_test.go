package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSavedDimensionCoversEveryCell: readers that trust <dimension>
// (openpyxl read-only, pandas) must see every used cell after our edits.
func TestSavedDimensionCoversEveryCell(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name  string
		steps []struct {
			tool string
			args map[string]any
		}
		want string
	}{
		{"write far below the data", steps(
			"write_cells", map[string]any{"cell": "H20", "value": 1}), "A1:H20"},
		{"write inside the data keeps its extent", steps(
			"write_cells", map[string]any{"cell": "B2", "value": 9}), "A1:C3"},
		{"insert rows shifts the extent", steps(
			"insert_rows", map[string]any{"row": 1, "count": 2}), "A3:C5"},
		{"delete rows shrinks it", steps(
			"delete_rows", map[string]any{"row": 3}), "A1:C2"},
		{"insert columns widens it", steps(
			"insert_columns", map[string]any{"column": "A", "count": 2}), "C1:E3"},
		{"formatting empty cells counts as used", steps(
			"format_cells", map[string]any{"cell_range": "E5:F6", "fill": map[string]any{"color": "FFFF00"}}), "A1:F6"},
		{"several edits", steps(
			"write_cells", map[string]any{"cell_range": "D4", "values": [][]any{{1, 2}, {3, 4}}},
			"insert_rows", map[string]any{"row": 4}), "A1:E6"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("d.xlsx", [][]any{{"a", "b", "c"}, {1, 2, 3}, {4, 5, 6}})
			for _, s := range c.steps {
				s.args["file_path"] = "d.xlsx"
				e.ok(s.tool, s.args)
			}
			dim, err := e.open("d.xlsx").GetSheetDimension("Sheet1")
			require.NoError(t, err)
			assert.Equal(t, c.want, dim)
		})
	}
}

// steps pairs tool names with their arguments.
func steps(pairs ...any) []struct {
	tool string
	args map[string]any
} {
	var out []struct {
		tool string
		args map[string]any
	}
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, struct {
			tool string
			args map[string]any
		}{pairs[i].(string), pairs[i+1].(map[string]any)})
	}
	return out
}
