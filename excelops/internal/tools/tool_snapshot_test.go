package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestScanExcelSnapshot(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{"id", "name", "qty"}, {1, "a", 2}, {2, "b", 3}, {1, "a", 2}, {3, "c", nil}})
	f := e.open("s.xlsx")
	_, err := f.NewSheet("Other")
	require.NoError(t, err)
	require.NoError(t, f.SetSheetRow("Other", "B3", &[]any{"ID", "total"}))
	require.NoError(t, f.SetSheetRow("Other", "B4", &[]any{7, 8}))
	require.NoError(t, f.MergeCell("Other", "D1", "E2"))
	require.NoError(t, f.Save())

	got := e.ok("scan_excel_snapshot", map[string]any{"file_path": "s.xlsx", "max_sample_rows": 10})
	assert.Equal(t, 2.0, got["sheet_count"])
	sheets := got["sheets"].([]any)
	one := sheets[0].(map[string]any)
	assert.Equal(t, "A1:C5", one["used_range"])
	assert.Equal(t, []any{"id", "name", "qty"}, one["header"])
	assert.Equal(t, 4.0, one["data_rows"])
	assert.Equal(t, 1.0, one["duplicate_rows"])
	qty := one["columns"].([]any)[2].(map[string]any)
	assert.Equal(t, map[string]any{"column": "C", "header": "qty", "type": "number", "non_empty": 3.0, "empty": 1.0, "unique": 2.0, "unique_ratio": 0.6667,
		"min": 2.0, "p25": 2.0, "median": 2.0, "p75": 2.5, "max": 3.0, "quantiles_from": "all 3 numbers",
		"outliers": map[string]any{"lower_fence": 1.25, "upper_fence": 3.25, "count": 0.0, "examples": []any{}}, "samples": []any{2.0, 3.0}}, qty)
	assert.Equal(t, []any{}, one["key_columns"])
	other := sheets[1].(map[string]any)
	assert.Equal(t, 3.0, other["header_row"])
	assert.Equal(t, []any{"D1:E2"}, other["merged_ranges"])
	assert.Equal(t, []any{map[string]any{"column": "id", "sheets": []any{"Sheet1", "Other"}}}, got["shared_columns"])

	page := e.ok("scan_excel_snapshot", map[string]any{"file_path": "s.xlsx", "offset": 1, "include_relationships": false})
	assert.Len(t, page["sheets"], 1)
	assert.NotContains(t, page, "shared_columns")
	assert.Equal(t, false, page["has_more"])

	refused := e.fail("scan_excel_snapshot", map[string]any{"file_path": "s.xlsx", "max_sample_rows": 5})
	assert.Equal(t, "error", refused["status"])
}
