package tools

import (
	"crypto/sha256"
	"os"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// analystBook writes s.xlsx: a header (region, qty, price) and five rows, a
// total formula below them, sheet Other.
func analystBook(e *env) {
	e.workbook("s.xlsx", [][]any{
		{"region", "qty", "price"},
		{"north", 30, 1.5},
		{"South", 10, 2.5},
		{"east", 50, 0.5},
		{"west", 20, 4},
		{"Centre", 40, 3},
	})
	f := e.open("s.xlsx")
	require.NoError(e.t, f.SetCellFormula("Sheet1", "B8", "SUM(B2:B6)"))
	_, err := f.NewSheet("Other")
	require.NoError(e.t, err)
	require.NoError(e.t, f.Save())
}

// fileHash is the SHA-256 of a workspace file, to show nothing was written.
func fileHash(t *testing.T, e *env, name string) [32]byte {
	t.Helper()
	raw, err := os.ReadFile(e.path(name))
	require.NoError(t, err)
	return sha256.Sum256(raw)
}

func TestCreateTable(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	got := e.ok("create_table", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6", "table_name": "Sales", "style": "TableStyleLight9", "show_first_column": true})
	assert.Equal(t, "Sales", got["table_name"])
	assert.Equal(t, "A1:C6", got["range"])
	assert.Equal(t, "TableStyleLight9", got["style"])
	assert.Equal(t, []any{"region", "qty", "price"}, got["columns"])
	assert.Equal(t, float64(5), got["data_rows"])
	assert.NotContains(t, got, "headers_changed")
	tables, err := e.open("s.xlsx").GetTables("Sheet1")
	require.NoError(t, err)
	require.Len(t, tables, 1)
	assert.Equal(t, "Sales", tables[0].Name)
	assert.Equal(t, "A1:C6", tables[0].Range)
	assert.Equal(t, "TableStyleLight9", tables[0].StyleName)
	assert.True(t, tables[0].ShowFirstColumn)
	assert.True(t, *tables[0].ShowRowStripes)

	// A second table gets the next free default name and the default style.
	got = e.ok("create_table", map[string]any{"file_path": "s.xlsx", "sheet_name": "Other", "cell_range": "A1:B2"})
	assert.Equal(t, "Table1", got["table_name"])
	assert.Equal(t, "TableStyleMedium2", got["style"])
}

func TestCreateTableFixesHeadersAsExcelDoes(t *testing.T) {
	e := newEnv(t)
	e.workbook("h.xlsx", [][]any{{"qty", nil, "QTY", 2024}, {1, 2, 3, 4}})
	got := e.ok("create_table", map[string]any{"file_path": "h.xlsx", "cell_range": "A1:D2", "style": "none"})
	assert.Equal(t, []any{"qty", "Column2", "QTY2", "2024"}, got["columns"])
	assert.Equal(t, []any{
		map[string]any{"cell": "B1", "was": nil, "now": "Column2"},
		map[string]any{"cell": "C1", "was": "QTY", "now": "QTY2"},
	}, got["headers_changed"])
	f := e.open("h.xlsx")
	typ, err := f.GetCellType("Sheet1", "D1")
	require.NoError(t, err)
	assert.Equal(t, excelize.CellTypeSharedString, typ, "a numeric header becomes text")
	v, _ := f.GetCellValue("Sheet1", "B1")
	assert.Equal(t, "Column2", v)
	tables, err := f.GetTables("Sheet1")
	require.NoError(t, err)
	assert.Equal(t, "", tables[0].StyleName)
}

func TestCreateTableErrors(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name  string
		prep  func(f *excelize.File)
		args  map[string]any
		wants []string
	}{
		{"one row", nil, map[string]any{"cell_range": "A1:C1"}, []string{"header row and at least one data row", "A1:C2"}},
		{"name with a space", nil, map[string]any{"cell_range": "A1:C6", "table_name": "my table"}, []string{"no spaces"}},
		{"name starting with a digit", nil, map[string]any{"cell_range": "A1:C6", "table_name": "1st"}, []string{"must start with a letter"}},
		{"name like a cell", nil, map[string]any{"cell_range": "A1:C6", "table_name": "AB12"}, []string{"reads as a cell reference"}},
		{"name like R1C1", nil, map[string]any{"cell_range": "A1:C6", "table_name": "r2c3"}, []string{"reads as a cell reference"}},
		{"name taken by a table", func(f *excelize.File) {
			require.NoError(t, f.AddTable("Other", &excelize.Table{Range: "A1:B2", Name: "Sales"}))
		}, map[string]any{"cell_range": "A1:C6", "table_name": "sales"}, []string{"already has a table called", "sales"}},
		{"name taken by a defined name", func(f *excelize.File) {
			require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Rates", RefersTo: "Sheet1!$C$2:$C$6"}))
		}, map[string]any{"cell_range": "A1:C6", "table_name": "RATES"}, []string{"already has a defined name called"}},
		{"overlapping table", func(f *excelize.File) {
			require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "C4:D6", Name: "Other1"}))
		}, map[string]any{"cell_range": "A1:C6"}, []string{"overlaps the table \"Other1\" (C4:D6)", "cannot overlap"}},
		{"overlapping autofilter", func(f *excelize.File) {
			require.NoError(t, f.AutoFilter("Sheet1", "A1:C6", nil))
		}, map[string]any{"cell_range": "B1:C6"}, []string{"overlaps the sheet's autofilter on A1:C6", "remove: true"}},
		{"merged cells", func(f *excelize.File) {
			require.NoError(t, f.MergeCell("Sheet1", "B3", "C3"))
		}, map[string]any{"cell_range": "A1:C6"}, []string{"overlaps the merged cells B3:C3", "unmerge_cells"}},
		{"formula header", func(f *excelize.File) {
			require.NoError(t, f.SetCellFormula("Sheet1", "B1", `"q"&"ty"`))
		}, map[string]any{"cell_range": "A1:C6"}, []string{"header cell B1 holds the formula", "must be text"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			analystBook(e)
			if c.prep != nil {
				f := e.open("s.xlsx")
				c.prep(f)
				require.NoError(t, f.Save())
			}
			before := fileHash(t, e, "s.xlsx")
			args := map[string]any{"file_path": "s.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			got := e.fail("create_table", args)
			assert.Equal(t, "ValueError", got["exception"], got)
			for _, w := range c.wants {
				assert.Contains(t, got["message"], w)
			}
			assert.Equal(t, before, fileHash(t, e, "s.xlsx"), "nothing written")
		})
	}
}

// TestCreateTableStyleOffTheList: the schema's enum refuses an unknown
// style before the tool runs, and the tool's own check (for callers that
// bypass the schema) suggests the close match.
func TestCreateTableStyleOffTheList(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	got := e.fail("create_table", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6", "style": "TableStyleMedum2"})
	assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", got["error_code"])
	_, err := e.svc.createTable(t.Context(), createTableArgs{fileArg: fileArg{FilePath: "s.xlsx"}, CellRange: "A1:C6", Style: "TableStyleMedum2"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `invalid style "TableStyleMedum2"`)
	assert.Contains(t, err.Error(), `Did you mean one of "TableStyleMedium2"`)
	for _, s := range tableStyles() {
		assert.NoError(t, checkTableStyle(s), s)
	}
}

func TestFreezePanes(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	cases := []struct {
		args               map[string]any
		rows, cols         int
		topLeft, pane      string
		frozen, prevFrozen bool
	}{
		{map[string]any{"cell": "A2"}, 1, 0, "A2", "bottomLeft", true, false},
		{map[string]any{"cell": "B1"}, 0, 1, "B1", "topRight", true, true},
		{map[string]any{"cell": "C3"}, 2, 2, "C3", "bottomRight", true, true},
		{map[string]any{"cell": "A1"}, 0, 0, "", "", false, true},
		{map[string]any{"cell": "B2"}, 1, 1, "B2", "bottomRight", true, false},
		{map[string]any{"unfreeze": true}, 0, 0, "", "", false, true},
	}
	for _, c := range cases {
		args := map[string]any{"file_path": "s.xlsx"}
		for k, v := range c.args {
			args[k] = v
		}
		got := e.ok("freeze_panes", args)
		assert.Equal(t, float64(c.rows), got["frozen_rows"], c.args)
		assert.Equal(t, float64(c.cols), got["frozen_columns"], c.args)
		assert.Equal(t, c.prevFrozen, got["previously_frozen"] != nil, c.args)
		panes, err := e.open("s.xlsx").GetPanes("Sheet1")
		require.NoError(t, err)
		assert.Equal(t, c.frozen, panes.Freeze, c.args)
		if c.frozen {
			assert.Equal(t, c.topLeft, got["top_left_cell"])
			assert.Equal(t, c.topLeft, panes.TopLeftCell)
			assert.Equal(t, c.pane, panes.ActivePane)
			assert.Equal(t, c.rows, panes.YSplit)
			assert.Equal(t, c.cols, panes.XSplit)
		} else {
			assert.Nil(t, got["top_left_cell"])
		}
	}
	for _, bad := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "give cell"},
		{map[string]any{"cell": "B2", "unfreeze": true}, "not both"},
		{map[string]any{"cell": "B0"}, "invalid cell"},
	} {
		bad.args["file_path"] = "s.xlsx"
		got := e.fail("freeze_panes", bad.args)
		assert.Equal(t, "ValueError", got["exception"])
		assert.Contains(t, got["message"], bad.want)
	}
}

// TestDescribeWorkbookSeesTablesAndPanes: what create_table and
// freeze_panes made is what describe_workbook tells the next agent.
func TestDescribeWorkbookSeesTablesAndPanes(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	e.ok("create_table", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6", "table_name": "Sales"})
	e.ok("freeze_panes", map[string]any{"file_path": "s.xlsx", "cell": "B2"})
	got := e.ok("describe_workbook", map[string]any{"file_path": "s.xlsx"})
	sheet := got["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, []any{map[string]any{"name": "Sales", "range": "A1:C6", "style": "TableStyleMedium2"}}, sheet["tables"])
	assert.Equal(t, map[string]any{"top_left_cell": "B2", "frozen_rows": float64(1), "frozen_columns": float64(1)}, sheet["freeze_panes"])
}
