package tools

import (
	"archive/zip"
	"io"
	"regexp"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sheetViewsElement matches a worksheet's <sheetViews> element.
var sheetViewsElement = regexp.MustCompile(`(?s)<sheetViews>.*?</sheetViews>|<sheetViews/>`)

// replaceElement rewrites the zip entry part of the workbook at path,
// putting with in place of what re matches; the entry must hold a match.
func replaceElement(t *testing.T, path, part string, re *regexp.Regexp, with string) {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	var body []byte
	for _, f := range zr.File {
		if f.Name == part {
			rc, err := f.Open()
			require.NoError(t, err)
			body, err = io.ReadAll(rc)
			require.NoError(t, err)
			require.NoError(t, rc.Close())
		}
	}
	require.NoError(t, zr.Close())
	require.Regexp(t, re, string(body), "%s of %s", part, path)
	withPart(t, path, part, re.ReplaceAll(body, []byte(with)))
}

// TestCopySheetWithoutSheetViews: excelize's CopySheet dereferences the
// source's <sheetViews>, which many generators omit; copying such a sheet
// (appended, or placed before other sheets) must work and copy everything.
func TestCopySheetWithoutSheetViews(t *testing.T) {
	e := newEnv(t)
	copyBook(e)
	replaceElement(t, e.path("c.xlsx"), "xl/worksheets/sheet1.xml", sheetViewsElement, "")
	got := e.ok("copy_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Data"})
	assert.Equal(t, "Data (2)", got["new_sheet"])
	got = e.ok("copy_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Data", "new_name": "Front", "position": 0})
	assert.Equal(t, []any{"Front", "Data", "Data (2)", "Report"}, got["sheets"])

	f := e.open("c.xlsx")
	assert.Equal(t, []string{"Front", "Data", "Data (2)", "Report"}, f.GetSheetList())
	assert.Equal(t, "Data", f.GetSheetName(f.GetActiveSheetIndex()), "the active sheet stays active")
	for sheet, ref := range map[string]string{"Front": "Front", "Data (2)": "'Data (2)'"} {
		assert.Equal(t, ref+"!B2+1", mustFormula(t, f, sheet, "E2"))
		v, err := f.GetCellValue(sheet, "A2")
		require.NoError(t, err)
		assert.Equal(t, "pen", v, sheet)
		notes, err := f.GetComments(sheet)
		require.NoError(t, err)
		assert.Len(t, notes, 1, sheet)
	}
	assert.Equal(t, "Data!B2+1", mustFormula(t, f, "Data", "E2"))
	assert.Equal(t, "Data!D2", mustFormula(t, f, "Report", "A1"))
	assert.Contains(t, f.GetDefinedName(), excelize.DefinedName{Name: "Local", RefersTo: "Data!$B$2", Scope: "Data"})
	assert.Contains(t, f.GetDefinedName(), excelize.DefinedName{Name: "Local", RefersTo: "Front!$B$2", Scope: "Front"})
}

// TestCopySheetBeforeAChartSheet: a copy goes right after its source, here
// before a chart sheet (excelize's MoveSheet crashes on chart sheets); the
// active sheet and sheet-scoped names stay on their sheets.
func TestCopySheetBeforeAChartSheet(t *testing.T) {
	e := newEnv(t)
	e.workbook("cs.xlsx", [][]any{{"k", "v"}, {"a", 1}, {"b", 2}})
	f := e.open("cs.xlsx")
	require.NoError(t, f.AddChartSheet("Chart", &excelize.Chart{Type: excelize.Line,
		Series: []excelize.ChartSeries{{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2:$A$3", Values: "Sheet1!$B$2:$B$3"}}}))
	_, err := f.NewSheet("Last")
	require.NoError(t, err)
	require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Here", RefersTo: "Last!$A$1", Scope: "Last"}))
	f.SetActiveSheet(2)
	require.NoError(t, f.Save())
	got := e.ok("copy_sheet", map[string]any{"file_path": "cs.xlsx", "sheet_name": "Sheet1"})
	assert.Equal(t, float64(1), got["position"])
	g := e.open("cs.xlsx")
	assert.Equal(t, []string{"Sheet1", "Sheet1 (2)", "Chart", "Last"}, g.GetSheetList())
	assert.Equal(t, "Last", g.GetSheetName(g.GetActiveSheetIndex()))
	assert.Equal(t, []excelize.DefinedName{{Name: "Here", RefersTo: "Last!$A$1", Scope: "Last"}}, g.GetDefinedName())
	v, err := g.GetCellValue("Sheet1 (2)", "A3")
	require.NoError(t, err)
	assert.Equal(t, "b", v)
	sheets := e.ok("describe_workbook", map[string]any{"file_path": "cs.xlsx"})["sheets"].([]any)
	require.Len(t, sheets, 4)
	assert.Equal(t, "chartsheet", sheets[2].(map[string]any)["kind"])
}

// TestMoveSheetWithoutBookViews: a workbook without <bookViews> shows its
// first sheet; placing a sheet before it keeps that sheet active.
func TestMoveSheetWithoutBookViews(t *testing.T) {
	e := newEnv(t)
	e.workbook("b.xlsx", [][]any{{1}})
	replaceElement(t, e.path("b.xlsx"), "xl/workbook.xml", regexp.MustCompile(`(?s)<bookViews>.*?</bookViews>`), "")
	e.ok("copy_sheet", map[string]any{"file_path": "b.xlsx", "sheet_name": "Sheet1", "position": 0})
	f := e.open("b.xlsx")
	assert.Equal(t, []string{"Sheet1 (2)", "Sheet1"}, f.GetSheetList())
	assert.Equal(t, "Sheet1", f.GetSheetName(f.GetActiveSheetIndex()))
}

// TestSheetToolsWithoutSheetViews runs the sheet-level tools on a sheet
// without <sheetViews> and on one whose <sheetViews> holds no <sheetView>
// (against the schema, but excelize reads it): each call succeeds, or
// (freeze_panes on the empty element, which excelize cannot add a view to)
// fails as damage; none panics.
func TestSheetToolsWithoutSheetViews(t *testing.T) {
	calls := []struct {
		name, tool string
		args       map[string]any
	}{
		{"copy", "copy_sheet", map[string]any{"sheet_name": "Bare"}},
		{"copy first", "copy_sheet", map[string]any{"sheet_name": "Bare", "position": 0}},
		{"copy other first", "copy_sheet", map[string]any{"sheet_name": "Sheet1", "position": 0}},
		{"create first", "create_sheet", map[string]any{"sheet_name": "New", "position": 0}},
		{"create last", "create_sheet", map[string]any{"sheet_name": "New"}},
		{"rename", "rename_sheet", map[string]any{"old_name": "Bare", "new_name": "Renamed"}},
		{"delete", "delete_sheet", map[string]any{"sheet_name": "Bare", "confirm": true}},
		{"delete other", "delete_sheet", map[string]any{"sheet_name": "Sheet1", "confirm": true}},
		{"freeze", "freeze_panes", map[string]any{"sheet_name": "Bare", "cell": "B2"}},
		{"unfreeze", "freeze_panes", map[string]any{"sheet_name": "Bare", "unfreeze": true}},
		{"autofilter", "set_autofilter", map[string]any{"sheet_name": "Bare", "cell_range": "A1:A2"}},
		{"describe", "describe_workbook", map[string]any{}},
	}
	for _, views := range []struct{ name, xml string }{{"absent", ""}, {"empty", "<sheetViews/>"}} {
		for _, c := range calls {
			t.Run(views.name+"/"+c.name, func(t *testing.T) {
				e := newEnvOf(t, t.TempDir(), []string{c.tool})
				e.workbook("v.xlsx", [][]any{{1}})
				f := e.open("v.xlsx")
				_, err := f.NewSheet("Bare")
				require.NoError(t, err)
				require.NoError(t, f.SetSheetCol("Bare", "A1", &[]any{"h", 7}))
				require.NoError(t, f.Save())
				replaceElement(t, e.path("v.xlsx"), "xl/worksheets/sheet2.xml", sheetViewsElement, views.xml)
				args := map[string]any{"file_path": "v.xlsx"}
				for k, v := range c.args {
					args[k] = v
				}
				res := e.call(c.tool, args)
				require.NotContains(t, res.Text, string(errorsjson.CodeInternal))
				if views.name == "empty" && c.tool == "freeze_panes" {
					require.True(t, res.IsError, res.Text)
					assert.Contains(t, res.Text, `"exception": "BadZipFile"`)
					assert.Contains(t, res.Text, "holds no <sheetView>")
					return
				}
				require.False(t, res.IsError, res.Text)
				if c.tool != "delete_sheet" && c.tool != "rename_sheet" {
					assert.Equal(t, "7", e.value("v.xlsx", "Bare", "A2"))
				}
			})
		}
	}
}
