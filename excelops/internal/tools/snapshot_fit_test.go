package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/colprofile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// wideBook writes wide.xlsx: 40 numeric columns (all but the first keys)
// of 60 rows, far larger than the default result cap.
func wideBook(e *env) {
	rows := [][]any{{}}
	for c := range 40 {
		rows[0] = append(rows[0], fmt.Sprintf("column %d", c))
	}
	for r := range 60 {
		var row []any
		for c := range 40 {
			row = append(row, float64(r*c)+0.123456789+float64(r%7)*1000.5)
		}
		rows = append(rows, row)
	}
	e.workbook("wide.xlsx", rows)
}

// TestFitSheet: a sheet larger than its budget loses its sample rows, the
// columns' sample values and outlier examples first, then columns (and
// their key_columns entries) from the right, down to one column.
func TestFitSheet(t *testing.T) {
	e := newEnv(t)
	wideBook(e)
	res, err := e.svc.engine.Run(context.Background(), scanExcelSnapshotTool.access, engine.OnBook(e.path("wide.xlsx"), "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		sh, _, err := snapshotSheet(b, context.Background(), "Sheet1", 500)
		return sh, err
	}))
	require.NoError(t, err)
	full := res.(pyjson.Object)
	size := func(o pyjson.Object) int {
		text, err := pyjson.MarshalString(o)
		require.NoError(t, err)
		return utf8.RuneCountInString(text) + 1
	}
	short, _, err := colprofile.FitSheet(full, size(full)-1)
	require.NoError(t, err)
	cases := []struct {
		name    string
		budget  int
		columns int // shown; 0: every one
	}{
		{"just too large: no samples, every column", size(short), 0},
		{"the default cap: the first columns", registry.DefaultMaxResultChars - 600, -1},
		{"a tiny budget: one column", 10, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, n, err := colprofile.FitSheet(full, c.budget)
			require.NoError(t, err)
			assert.Equal(t, size(got), n)
			if c.columns != 1 {
				assert.LessOrEqual(t, n, c.budget)
			}
			sheet := toMap(t, got)
			cols := sheet["columns"].([]any)
			keys := sheet["key_columns"].([]any)
			switch c.columns {
			case 0:
				assert.Len(t, cols, 40)
				assert.Len(t, keys, 39)
				assert.NotContains(t, sheet, "columns_shown")
			case -1:
				assert.Greater(t, len(cols), 1)
				assert.Less(t, len(cols), 40)
				assert.EqualValues(t, len(cols), sheet["columns_shown"])
				assert.Len(t, keys, len(cols)-1, "the keys among the columns shown")
			default:
				assert.Len(t, cols, c.columns)
				assert.Empty(t, keys)
			}
			assert.Contains(t, sheet["shortened"], "the sheet is larger than the result cap")
			assert.Equal(t, []any{}, sheet["sample_rows"])
			col := cols[len(cols)-1].(map[string]any)
			assert.NotContains(t, col, "samples")
			assert.NotContains(t, col["outliers"], "examples")
			assert.Contains(t, col, "median")
		})
	}
	assert.Contains(t, toMap(t, full)["columns"].([]any)[0], "samples", "the sheet given is left as it was")
}

// TestSnapshotUnderTheCap: under a result cap a sheet too large by itself
// comes shortened, never cut whole by the registry.
func TestSnapshotUnderTheCap(t *testing.T) {
	e := newEnv(t)
	wideBook(e)
	for _, limit := range []int{registry.DefaultMaxResultChars, 2500} {
		t.Run(fmt.Sprint(limit), func(t *testing.T) {
			reg := registry.New(registry.WithMaxResultChars(limit))
			require.NoError(t, e.svc.Register(reg))
			res := reg.CallTool(context.Background(), "scan_excel_snapshot", json.RawMessage(`{"file_path": "wide.xlsx"}`))
			require.False(t, res.IsError, res.Text)
			assert.LessOrEqual(t, utf8.RuneCountInString(res.Text), limit)
			var m map[string]any
			require.NoError(t, json.Unmarshal([]byte(res.Text), &m), res.Text)
			for k := range m {
				require.False(t, strings.HasPrefix(k, "_"), "cut by the registry: %s", res.Text)
			}
			sheet := m["sheets"].([]any)[0].(map[string]any)
			assert.Contains(t, sheet, "shortened")
			assert.NotEmpty(t, sheet["columns"])
		})
	}
}
