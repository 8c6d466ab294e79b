package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDeleteRangeMovesWholeTables: a table wholly in the shifted band and
// beyond the deleted range moves with its cells (its range, its
// autofilter); a formula reading it by structured reference still does.
func TestDeleteRangeMovesWholeTables(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	require.NoError(t, f.SetSheetRow("Sheet1", "A1", &[]any{"junk"}))
	require.NoError(t, f.SetSheetRow("Sheet1", "A2", &[]any{"junk"}))
	require.NoError(t, f.SetSheetRow("Sheet1", "A4", &[]any{"name", "qty"}))
	require.NoError(t, f.SetSheetRow("Sheet1", "A5", &[]any{"pen", 3}))
	require.NoError(t, f.SetSheetRow("Sheet1", "A6", &[]any{"ink", 4}))
	require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "A4:B6", Name: "Stock", StyleName: "TableStyleLight9"}))
	require.NoError(t, f.SetCellFormula("Sheet1", "D1", "SUM(Stock[qty])"))
	require.NoError(t, f.SaveAs(e.path("t.xlsx")))
	require.NoError(t, f.Close())

	e.ok("delete_range", map[string]any{"file_path": "t.xlsx", "cell_range": "A1:B2", "shift": "up"})
	fb := e.open("t.xlsx")
	tables, err := fb.GetTables("Sheet1")
	require.NoError(t, err)
	require.Len(t, tables, 1)
	assert.Equal(t, "A2:B4", tables[0].Range)
	rows, err := fb.GetRows("Sheet1")
	require.NoError(t, err)
	assert.Equal(t, []string{"name", "qty"}, rows[1])
	assert.Equal(t, "SUM(Stock[qty])", mustFormula(t, fb, "Sheet1", "D1"))
	d := e.ok("describe_workbook", map[string]any{"file_path": "t.xlsx"})
	s := d["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, "A2:B4", s["tables"].([]any)[0].(map[string]any)["range"])

	// Deleting into the table, or a shift that moves only part of it, is refused.
	for _, args := range []map[string]any{
		{"cell_range": "A3", "shift": "up"},
		{"cell_range": "A1", "shift": "up"},
		{"cell_range": "A1:A3", "shift": "left"},
	} {
		args["file_path"] = "t.xlsx"
		p := e.fail("delete_range", args)
		assert.Contains(t, p["message"], `table "Stock"`, args)
	}
}
