package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// commonErrorExempt names the common-error cases (TestToolsReportCommonErrors)
// that do not apply to a workbook-level tool: create_workbook makes missing
// files and, with overwrite, replaces damaged ones; list_workbooks and
// inspect_excel_files take no file at all.
func commonErrorExempt(tool, caseName string) bool {
	switch tool {
	case "list_workbooks", "inspect_excel_files":
		return true
	case "create_workbook":
		return caseName == "missing file" || caseName == "damaged file"
	}
	return false
}

// accessByName is the access of the workbook tools whose names' prefixes
// would say otherwise (TestToolAnnotations): create_workbook may replace a
// file (overwrite), the list and describe tools only read, copy_sheet only
// adds a sheet.
func accessByName() map[string]registry.Annotations {
	return map[string]registry.Annotations{
		"create_workbook":     *registry.Destructive(),
		"list_workbooks":      *registry.ReadOnly(),
		"describe_workbook":   *registry.ReadOnly(),
		"inspect_excel_files": *registry.ReadOnly(),
		"scan_excel_snapshot": *registry.ReadOnly(),
		"compare_excel":       *registry.ReadOnly(),
		"get_reference_map":   *registry.ReadOnly(),
		"trace_references":    *registry.ReadOnly(),
		"get_impact_analysis": *registry.ReadOnly(),
		"copy_sheet":          *registry.Additive(),
		"filter_data":         *registry.ReadOnly(),
		"search_excel_values": *registry.ReadOnly(),

		"discover_file_relationships": *registry.ReadOnly(),
	}
}

func TestCreateWorkbook(t *testing.T) {
	cases := []struct {
		name   string
		args   map[string]any
		sheets []string
	}{
		{"default sheet", map[string]any{"file_path": "new.xlsx"}, []string{"Sheet1"}},
		{"one named sheet", map[string]any{"file_path": "new.xlsx", "sheet_name": "Data"}, []string{"Data"}},
		{"several sheets", map[string]any{"file_path": "sub/new.xlsx", "sheet_names": []string{"Data", "销售 2024", "Summary"}}, []string{"Data", "销售 2024", "Summary"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			require.NoError(t, os.Mkdir(e.path("sub"), 0o755))
			got := e.ok("create_workbook", c.args)
			assert.Equal(t, false, got["overwritten"])
			assert.Equal(t, c.args["file_path"], got["path"])
			f := e.open(c.args["file_path"].(string))
			assert.Equal(t, c.sheets, f.GetSheetList())
			assert.Equal(t, 0, f.GetActiveSheetIndex())
		})
	}
	t.Run("existing file is kept unless overwrite", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("old.xlsx", [][]any{{"keep me"}})
		before, err := os.ReadFile(e.path("old.xlsx"))
		require.NoError(t, err)
		p := e.fail("create_workbook", map[string]any{"file_path": "old.xlsx"})
		assert.Equal(t, "ValueError", p["exception"])
		assert.Contains(t, p["message"], "already exists; pass overwrite: true")
		after, err := os.ReadFile(e.path("old.xlsx"))
		require.NoError(t, err)
		assert.Equal(t, before, after)
		// A cached parse of the old file must not survive the overwrite.
		e.ok("read_excel", map[string]any{"file_path": "old.xlsx"})
		got := e.ok("create_workbook", map[string]any{"file_path": "old.xlsx", "sheet_name": "Fresh", "overwrite": true})
		assert.Equal(t, true, got["overwritten"])
		assert.Equal(t, []string{"Fresh"}, e.open("old.xlsx").GetSheetList())
		read := e.ok("read_excel", map[string]any{"file_path": "old.xlsx"})
		assert.Equal(t, "Fresh", read["sheet"])
	})
	t.Run("a damaged file can be overwritten", func(t *testing.T) {
		e := newEnv(t)
		require.NoError(t, writeFile(e.path("broken.xlsx"), "not a zip"))
		e.ok("create_workbook", map[string]any{"file_path": "broken.xlsx", "overwrite": true})
		assert.Equal(t, []string{"Sheet1"}, e.open("broken.xlsx").GetSheetList())
	})
	errs := []struct {
		name      string
		args      map[string]any
		exception string
		want      string
	}{
		{"names equal ignoring case", map[string]any{"file_path": "n.xlsx", "sheet_names": []string{"Data", "DATA"}}, "ValueError", "the same to Excel"},
		{"bad sheet name", map[string]any{"file_path": "n.xlsx", "sheet_name": "a/b"}, "ValueError", "may not contain"},
		{"long sheet name", map[string]any{"file_path": "n.xlsx", "sheet_name": strings.Repeat("x", 32)}, "ValueError", "longer than 31"},
		{"both name arguments", map[string]any{"file_path": "n.xlsx", "sheet_name": "A", "sheet_names": []string{"B"}}, "ValueError", "not both"},
		{"not a workbook extension", map[string]any{"file_path": "n.csv"}, "ValueError", "not an .xlsx"},
		{"outside the workspace", map[string]any{"file_path": "../n.xlsx"}, "PermissionError", "outside the workspace"},
		{"missing folder", map[string]any{"file_path": "nope/n.xlsx"}, "FileNotFoundError", "does not exist"},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			p := e.fail("create_workbook", c.args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
			_, err := os.Stat(e.path("n.xlsx"))
			assert.True(t, os.IsNotExist(err), "nothing is created")
		})
	}
	t.Run("empty sheet_names is refused by the schema", func(t *testing.T) {
		e := newEnv(t)
		p := e.fail("create_workbook", map[string]any{"file_path": "n.xlsx", "sheet_names": []string{}})
		assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", p["error_code"])
	})
}

// listingWorkspace fills a workspace: a.xlsx, b.xlsm (two sheets),
// sub/c.xlsx, a damaged broken.xlsx and files that are not listed.
func listingWorkspace(e *env) {
	e.workbook("a.xlsx", [][]any{{1}})
	require.NoError(e.t, os.MkdirAll(e.path("sub/deeper"), 0o755))
	require.NoError(e.t, os.MkdirAll(e.path(".hidden"), 0o755))
	e.workbook("sub/c.xlsx", [][]any{{1}})
	e.workbook(".hidden/h.xlsx", [][]any{{1}})
	e.workbook("sub/~$c.xlsx", [][]any{{1}})
	f := excelize.NewFile()
	_, err := f.NewSheet("Two")
	require.NoError(e.t, err)
	require.NoError(e.t, f.SaveAs(e.path("b.xlsm")))
	require.NoError(e.t, f.Close())
	require.NoError(e.t, writeFile(e.path("broken.xlsx"), "not a zip"))
	require.NoError(e.t, writeFile(e.path("notes.txt"), "text"))
}

func TestListWorkbooks(t *testing.T) {
	e := newEnv(t)
	listingWorkspace(e)
	got := e.ok("list_workbooks", map[string]any{})
	assert.Equal(t, float64(4), got["total"])
	assert.Equal(t, ".", got["folder"])
	assert.Equal(t, false, got["has_more"])
	items := got["workbooks"].([]any)
	var paths []string
	for _, it := range items {
		paths = append(paths, it.(map[string]any)["path"].(string))
	}
	assert.Equal(t, []string{"a.xlsx", "b.xlsm", "broken.xlsx", "sub/c.xlsx"}, paths)
	b := items[1].(map[string]any)
	assert.Equal(t, []any{"Sheet1", "Two"}, b["sheets"])
	st, err := os.Stat(e.path("b.xlsm"))
	require.NoError(t, err)
	assert.Equal(t, float64(st.Size()), b["size_bytes"])
	mod, err := time.Parse(time.RFC3339, b["modified"].(string))
	require.NoError(t, err)
	assert.WithinDuration(t, st.ModTime(), mod, time.Second)
	broken := items[2].(map[string]any)
	assert.Contains(t, broken["error"], "damaged")
	assert.NotContains(t, broken, "sheets")

	t.Run("not recursive", func(t *testing.T) {
		got := e.ok("list_workbooks", map[string]any{"recursive": false})
		assert.Equal(t, float64(3), got["total"])
	})
	t.Run("a folder", func(t *testing.T) {
		got := e.ok("list_workbooks", map[string]any{"folder": "sub"})
		assert.Equal(t, "sub", got["folder"])
		assert.Equal(t, float64(1), got["total"])
		assert.Equal(t, "sub/c.xlsx", got["workbooks"].([]any)[0].(map[string]any)["path"])
	})
	t.Run("pages", func(t *testing.T) {
		var seen []string
		offset := 0
		for page := 0; page < 10; page++ {
			got := e.ok("list_workbooks", map[string]any{"offset": offset, "max_results": 3})
			for _, it := range got["workbooks"].([]any) {
				seen = append(seen, it.(map[string]any)["path"].(string))
			}
			if got["has_more"] == false {
				assert.NotContains(t, got, "next_offset")
				break
			}
			offset = int(got["next_offset"].(float64))
		}
		assert.Equal(t, paths, seen)
		past := e.ok("list_workbooks", map[string]any{"offset": 99})
		assert.Empty(t, past["workbooks"])
		assert.Equal(t, false, past["has_more"])
	})
	errs := []struct {
		name      string
		args      map[string]any
		exception string
		want      string
	}{
		{"missing folder", map[string]any{"folder": "nope"}, "FileNotFoundError", "does not exist"},
		{"outside", map[string]any{"folder": "../"}, "PermissionError", "not allowed"},
		{"a file", map[string]any{"folder": "a.xlsx"}, "ValueError", "is a file, not a folder"},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			p := e.fail("list_workbooks", c.args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
		})
	}
	t.Run("page size past the cap", func(t *testing.T) {
		p := e.fail("list_workbooks", map[string]any{"max_results": 501})
		assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", p["error_code"])
	})
	t.Run("a link out of the workspace is not followed", func(t *testing.T) {
		outside := t.TempDir()
		require.NoError(t, writeFile(filepath.Join(outside, "x.xlsx"), "zip"))
		require.NoError(t, os.Symlink(outside, e.path("link")))
		got := e.ok("list_workbooks", map[string]any{})
		assert.Equal(t, float64(4), got["total"])
		p := e.fail("list_workbooks", map[string]any{"folder": "link"})
		assert.Equal(t, "PermissionError", p["exception"])
	})
}

// describedBook writes d.xlsx holding one of everything describe_workbook
// reports.
func describedBook(e *env) {
	f := excelize.NewFile()
	defer f.Close()
	for r := 1; r <= 5; r++ {
		require.NoError(e.t, f.SetSheetRow("Sheet1", grid.CellName(1, r), &[]any{"k", r, r * 2}))
	}
	require.NoError(e.t, f.AddTable("Sheet1", &excelize.Table{Range: "A1:C5", Name: "Sales", StyleName: "TableStyleMedium2"}))
	require.NoError(e.t, f.MergeCell("Sheet1", "E1", "F2"))
	require.NoError(e.t, f.SetPanes("Sheet1", &excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}))
	require.NoError(e.t, f.AddChart("Sheet1", "H2", &excelize.Chart{Type: excelize.Line,
		Series: []excelize.ChartSeries{{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2:$A$5", Values: "Sheet1!$B$2:$B$5"}}}))
	style, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetConditionalFormat("Sheet1", "B2:B5", []excelize.ConditionalFormatOptions{{Type: "cell", Criteria: ">", Value: "3", Format: &style}}))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "C2:C5"
	require.NoError(e.t, dv.SetDropList([]string{"x", "y"}))
	require.NoError(e.t, f.AddDataValidation("Sheet1", dv))
	require.NoError(e.t, f.SetDefinedName(&excelize.DefinedName{Name: "Qty", RefersTo: "Sheet1!$B$2:$B$5"}))
	_, err = f.NewSheet("Empty")
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetDefinedName(&excelize.DefinedName{Name: "Local", RefersTo: "Empty!$A$1", Scope: "Empty"}))
	require.NoError(e.t, f.SaveAs(e.path("d.xlsx")))
}

func TestDescribeWorkbook(t *testing.T) {
	e := newEnv(t)
	describedBook(e)
	got := e.ok("describe_workbook", map[string]any{"file_path": "d.xlsx"})
	assert.Equal(t, float64(2), got["sheet_count"])
	sheets := got["sheets"].([]any)
	require.Len(t, sheets, 2)
	s1 := sheets[0].(map[string]any)
	assert.Equal(t, "Sheet1", s1["name"])
	assert.Equal(t, "worksheet", s1["kind"])
	assert.Equal(t, "A1:C5", s1["used_range"])
	assert.Equal(t, []any{map[string]any{"name": "Sales", "range": "A1:C5", "style": "TableStyleMedium2"}}, s1["tables"])
	assert.Equal(t, []any{"E1:F2"}, s1["merged_ranges"])
	assert.Equal(t, map[string]any{"top_left_cell": "A2", "frozen_rows": float64(1), "frozen_columns": float64(0)}, s1["freeze_panes"])
	require.Len(t, s1["charts"], 1)
	assert.Equal(t, "H2", s1["charts"].([]any)[0].(map[string]any)["from_cell"])
	rules := s1["conditional_formats"].([]any)
	require.Len(t, rules, 1)
	assert.Equal(t, "B2:B5", rules[0].(map[string]any)["range"])
	dvs := s1["data_validations"].([]any)
	require.Len(t, dvs, 1)
	assert.Equal(t, map[string]any{"range": "C2:C5", "type": "list", "formula1": `"x,y"`}, dvs[0])
	assert.Nil(t, s1["autofilter"], "the table's filter is the table's, not the sheet's")
	empty := sheets[1].(map[string]any)
	assert.Nil(t, empty["used_range"])
	assert.Nil(t, empty["freeze_panes"])
	assert.Equal(t, float64(0), empty["charts_count"])
	assert.Equal(t, []any{
		map[string]any{"name": "Qty", "scope": "workbook", "refers_to": "Sheet1!$B$2:$B$5"},
		map[string]any{"name": "Local", "scope": "Empty", "refers_to": "Empty!$A$1"},
	}, got["defined_names"])

	e.ok("set_autofilter", map[string]any{"file_path": "d.xlsx", "sheet_name": "Empty", "cell_range": "A1:B3"})
	one := e.ok("describe_workbook", map[string]any{"file_path": "d.xlsx", "sheet_name": "empty"})
	assert.Len(t, one["sheets"], 1)
	assert.Equal(t, "A1:B3", one["sheets"].([]any)[0].(map[string]any)["autofilter"])
	p := e.fail("describe_workbook", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet2"})
	assert.Equal(t, "KeyError", p["exception"])
	assert.Contains(t, p["message"], "Did you mean")
}

func TestDescribeWorkbookBoundsItsLists(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for i := 0; i < maxDescribedItems+10; i++ {
		require.NoError(t, f.MergeCell("Sheet1", grid.CellName(1, 2*i+1), grid.CellName(2, 2*i+1)))
	}
	require.NoError(t, f.SaveAs(e.path("m.xlsx")))
	require.NoError(t, f.Close())
	got := e.ok("describe_workbook", map[string]any{"file_path": "m.xlsx"})
	s := got["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, float64(maxDescribedItems+10), s["merged_ranges_count"])
	assert.Len(t, s["merged_ranges"], maxDescribedItems)
}

func TestDefineName(t *testing.T) {
	e := newEnv(t)
	dataBook(e)
	got := e.ok("define_name", map[string]any{"file_path": "data.xlsx", "name": "Qty", "refers_to": "=Sheet1!$B$2:$B$3", "comment": "quantities"})
	assert.Equal(t, "workbook", got["scope"])
	assert.Equal(t, "Sheet1!$B$2:$B$3", got["refers_to"])
	e.ok("define_name", map[string]any{"file_path": "data.xlsx", "name": "Rate", "refers_to": "0.19", "scope": "other"})
	names := e.open("data.xlsx").GetDefinedName()
	require.Len(t, names, 2)
	assert.Equal(t, excelize.DefinedName{Name: "Qty", RefersTo: "Sheet1!$B$2:$B$3", Scope: "Workbook", Comment: "quantities"}, names[0])
	assert.Equal(t, excelize.DefinedName{Name: "Rate", RefersTo: "0.19", Scope: "Other"}, names[1])

	// A formula using the name computes.
	e.ok("write_cells", map[string]any{"file_path": "data.xlsx", "cell": "D1", "value": "=SUM(Qty)"})
	read := e.ok("read_excel", map[string]any{"file_path": "data.xlsx", "range": "D1:D1"})
	assert.Equal(t, []any{[]any{float64(3)}}, read["values"])

	p := e.fail("define_name", map[string]any{"file_path": "data.xlsx", "name": "QTY", "refers_to": "Sheet1!$A$1"})
	assert.Equal(t, "ValueError", p["exception"])
	assert.Contains(t, p["message"], "already exists in the workbook scope and refers to Sheet1!$B$2:$B$3")
	// The same name in another scope is a different name.
	e.ok("define_name", map[string]any{"file_path": "data.xlsx", "name": "Qty", "refers_to": "Other!$A$1", "scope": "Other"})
	got = e.ok("define_name", map[string]any{"file_path": "data.xlsx", "name": "Qty", "refers_to": "Sheet1!$B$2", "overwrite": true})
	assert.Equal(t, "Sheet1!$B$2:$B$3", got["replaced"])
	names = e.open("data.xlsx").GetDefinedName()
	require.Len(t, names, 3)
	assert.Equal(t, "Sheet1!$B$2", names[0].RefersTo)

	errs := []struct {
		name, exception, want string
		args                  map[string]any
	}{
		{"cell-like name", "ValueError", "it is a cell reference", map[string]any{"name": "AB12", "refers_to": "1"}},
		{"R1C1-like name", "ValueError", "R1C1", map[string]any{"name": "R2C3", "refers_to": "1"}},
		{"single letter c", "ValueError", "R1C1", map[string]any{"name": "c", "refers_to": "1"}},
		{"starts with digit", "ValueError", "start with a letter", map[string]any{"name": "1st", "refers_to": "1"}},
		{"space", "ValueError", "no spaces", map[string]any{"name": "my name", "refers_to": "1"}},
		{"boolean", "ValueError", "boolean", map[string]any{"name": "true", "refers_to": "1"}},
		{"reserved", "ValueError", "reserved", map[string]any{"name": "_xlnm.Print_Area", "refers_to": "Sheet1!$A$1"}},
		{"too long", "ValueError", "longer than 255", map[string]any{"name": strings.Repeat("n", 256), "refers_to": "1"}},
		{"empty name", "ValueError", "name is empty", map[string]any{"name": "", "refers_to": "1"}},
		{"empty refers_to", "ValueError", "refers_to is empty", map[string]any{"name": "X1Y", "refers_to": "="}},
		{"bad formula", "ValueError", "not a valid formula", map[string]any{"name": "Bad", "refers_to": "SUM(Sheet1!A1"}},
		{"unknown function", "ValueError", "SUM", map[string]any{"name": "Bad", "refers_to": "SUMME(Sheet1!A1)"}},
		{"missing sheet", "KeyError", `Did you mean "Sheet1"?`, map[string]any{"name": "Gone", "refers_to": "Shet1!$A$1"}},
		{"missing scope", "KeyError", "Nope", map[string]any{"name": "Gone", "refers_to": "1", "scope": "Nope"}},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			c.args["file_path"] = "data.xlsx"
			p := e.fail("define_name", c.args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
		})
	}
	assert.Len(t, e.open("data.xlsx").GetDefinedName(), 3, "nothing was added by the refusals")
	for _, ok := range []string{"_total", `\path`, "Tax.Rate", "Ümsatz", "XFE1", "A1048577", "R1C1X", "Qty?"} {
		assert.NoError(t, checkDefinedName(ok), ok)
	}
}
