package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// table builds a diffTable from a header and rows numbered from row 2.
func table(header []any, rows ...[]any) *engine.DiffTable {
	t := &engine.DiffTable{HeaderRow: 1, Header: header, Rows: rows}
	for i := range rows {
		t.RowNums = append(t.RowNums, i+2)
	}
	return t
}

func TestDiffTables(t *testing.T) {
	hdr := []any{"id", "name", "qty"}
	cases := []struct {
		name                           string
		a, b                           *engine.DiffTable
		keys                           []string
		added, removed, changed, cells int
		colsAdded, colsRemoved         []any
	}{
		{"identical", table(hdr, []any{int64(1), "a", 2.0}), table(hdr, []any{1.0, "a", int64(2)}), []string{"id"}, 0, 0, 0, 0, []any{}, []any{}},
		{"by key: added, removed, changed", table(hdr, []any{int64(1), "a", int64(1)}, []any{int64(2), "b", int64(2)}),
			table(hdr, []any{int64(2), "B", int64(3)}, []any{int64(3), "c", int64(3)}), []string{"id"}, 1, 1, 1, 2, []any{}, []any{}},
		{"by position", table(hdr, []any{int64(1), "a"}, []any{int64(2), "b"}), table(hdr, []any{int64(2), "b"}), nil, 0, 1, 1, 2, []any{}, []any{}},
		{"columns added and removed; cells of shared columns only", table(hdr, []any{int64(1), "a", int64(1)}),
			table([]any{"qty", "id", "price"}, []any{int64(5), int64(1), 9.5}), []string{"id"}, 0, 0, 1, 1, []any{"price"}, []any{"name"}},
		{"text 1 is not number 1", table(hdr, []any{int64(1), "1"}), table(hdr, []any{int64(1), int64(1)}), []string{"id"}, 0, 0, 1, 1, []any{}, []any{}},
		{"two key columns", table(hdr, []any{int64(1), "a", int64(1)}, []any{int64(1), "b", int64(1)}),
			table(hdr, []any{int64(1), "b", int64(1)}), []string{"id", "name"}, 0, 1, 0, 0, []any{}, []any{}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d, err := engine.DiffTables(c.a, c.b, c.keys, nil)
			require.NoError(t, err)
			assert.Equal(t, []int{c.added, c.removed, c.changed, c.cells}, []int{d.Added, d.Removed, d.Changed, d.CellsChanged})
			assert.Equal(t, c.colsAdded, d.ColumnsAdded)
			assert.Equal(t, c.colsRemoved, d.ColumnsRemoved)
			assert.Len(t, d.Diffs, c.added+c.removed+c.changed)
		})
	}
	_, err := engine.DiffTables(table(hdr), table([]any{"x"}), []string{"id"}, nil)
	assert.Equal(t, failure.KindInvalidArgument, failure.KindOf(err))
}

func TestCompareExcel(t *testing.T) {
	e := newEnv(t)
	e.workbook("a.xlsx", [][]any{{"id", "v"}, {1, "x"}, {2, "y"}, {3, "z"}})
	e.workbook("b.xlsx", [][]any{{"id", "v"}, {1, "x"}, {2, "Y"}, {4, "w"}})
	got := e.ok("compare_excel", map[string]any{"file_a": "a.xlsx", "file_b": "b.xlsx", "key_columns": []any{"id"}})
	assert.Equal(t, map[string]any{"rows_a": 3.0, "rows_b": 3.0, "rows_added": 1.0, "rows_removed": 1.0, "rows_changed": 1.0,
		"cells_changed": 1.0, "columns_added": 0.0, "columns_removed": 0.0, "duplicate_keys": 0.0}, got["summary"])
	changed := got["diffs"].([]any)[0].(map[string]any)
	assert.Equal(t, []any{map[string]any{"column": "v", "cell_a": "B3", "cell_b": "B3", "old": "y", "new": "Y"}}, changed["changes"])

	var seen []any
	for offset := 0.0; ; {
		page := e.ok("compare_excel", map[string]any{"file_a": "a.xlsx", "file_b": "b.xlsx", "key_columns": []any{"id"}, "max_diffs": 1, "offset": offset})
		seen = append(seen, page["diffs"].([]any)...)
		next, more := page["next_offset"].(float64)
		if !more {
			break
		}
		offset = next
	}
	assert.Equal(t, got["diffs"], seen)

	f := e.open("a.xlsx")
	_, err := f.NewSheet("Copy")
	require.NoError(t, err)
	require.NoError(t, f.SetSheetRow("Copy", "A1", &[]any{"id", "v"}))
	require.NoError(t, f.SetSheetRow("Copy", "A2", &[]any{1, "x"}))
	require.NoError(t, f.Save())
	same := e.ok("compare_excel", map[string]any{"file_a": "a.xlsx", "file_b": "a.xlsx", "sheet_a": "Sheet1", "sheet_b": "Copy"})
	assert.Equal(t, 2.0, same["summary"].(map[string]any)["rows_removed"])

	for _, args := range []map[string]any{
		{"file_a": "a.xlsx", "file_b": "b.xlsx", "key_columns": []any{"nope"}},
		{"file_a": "a.xlsx", "file_b": "missing.xlsx"},
		{"file_a": "a.xlsx", "file_b": "b.xlsx", "sheet_b": "Nope"},
	} {
		assert.Equal(t, "error", e.fail("compare_excel", args)["status"])
	}
}
