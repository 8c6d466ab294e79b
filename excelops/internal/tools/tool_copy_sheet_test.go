package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyBook writes c.xlsx: sheet Data (values, formulas, a reference to
// itself by name, a merge, a rule, a validation, a note, a sheet-scoped
// name) and sheet Report reading Data.
func copyBook(e *env) {
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(e.t, f.SetSheetName("Sheet1", "Data"))
	require.NoError(e.t, f.SetSheetRow("Data", "A1", &[]any{"item", "qty", "price", "total"}))
	require.NoError(e.t, f.SetSheetRow("Data", "A2", &[]any{"pen", 3, 1.5}))
	require.NoError(e.t, f.SetCellFormula("Data", "D2", "B2*C2"))
	require.NoError(e.t, f.SetCellFormula("Data", "E2", "Data!B2+1"))
	require.NoError(e.t, f.MergeCell("Data", "F1", "G1"))
	style, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetConditionalFormat("Data", "B2:B5", []excelize.ConditionalFormatOptions{{Type: "cell", Criteria: ">", Value: "2", Format: &style}}))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "C2:C5"
	require.NoError(e.t, dv.SetRange(0, 10, excelize.DataValidationTypeDecimal, excelize.DataValidationOperatorBetween))
	require.NoError(e.t, f.AddDataValidation("Data", dv))
	require.NoError(e.t, f.AddComment("Data", excelize.Comment{Cell: "A2", Author: "me", Text: "a pen"}))
	require.NoError(e.t, f.SetCellHyperLink("Data", "A1", "https://example.com/", "External"))
	require.NoError(e.t, f.SetDefinedName(&excelize.DefinedName{Name: "Local", RefersTo: "Data!$B$2", Scope: "Data"}))
	_, err = f.NewSheet("Report")
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetCellFormula("Report", "A1", "Data!D2"))
	require.NoError(e.t, f.SaveAs(e.path("c.xlsx")))
}

func TestCopySheet(t *testing.T) {
	e := newEnv(t)
	copyBook(e)
	got := e.ok("copy_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "data"})
	assert.Equal(t, "Data (2)", got["new_sheet"])
	assert.Equal(t, float64(1), got["position"])
	assert.NotContains(t, got, "not_copied")
	f := e.open("c.xlsx")
	assert.Equal(t, []string{"Data", "Data (2)", "Report"}, f.GetSheetList())
	for _, c := range []struct{ sheet, cell, formula string }{
		{"Data (2)", "D2", "B2*C2"},
		{"Data (2)", "E2", "'Data (2)'!B2+1"},
		{"Data", "E2", "Data!B2+1"},
		{"Report", "A1", "Data!D2"},
	} {
		got, err := f.GetCellFormula(c.sheet, c.cell)
		require.NoError(t, err)
		assert.Equal(t, c.formula, got, "%s!%s", c.sheet, c.cell)
	}
	v, err := f.GetCellValue("Data (2)", "D2")
	require.NoError(t, err)
	assert.Equal(t, "4.5", v)
	merged, err := f.GetMergeCells("Data (2)")
	require.NoError(t, err)
	require.Len(t, merged, 1)
	assert.Equal(t, "F1:G1", merged[0].GetStartAxis()+":"+merged[0].GetEndAxis())
	rules, err := f.GetConditionalFormats("Data (2)")
	require.NoError(t, err)
	assert.Contains(t, rules, "B2:B5")
	dvs, err := f.GetDataValidations("Data (2)")
	require.NoError(t, err)
	require.Len(t, dvs, 1)
	assert.Equal(t, "C2:C5", dvs[0].Sqref)
	notes, err := f.GetComments("Data (2)")
	require.NoError(t, err)
	require.Len(t, notes, 1)
	assert.Equal(t, "A2", notes[0].Cell)
	srcNotes, err := f.GetComments("Data")
	require.NoError(t, err)
	assert.Len(t, srcNotes, 1, "the source keeps its note")
	link, target, err := f.GetCellHyperLink("Data (2)", "A1")
	require.NoError(t, err)
	assert.True(t, link)
	assert.Equal(t, "https://example.com/", target)
	assert.Contains(t, f.GetDefinedName(), excelize.DefinedName{Name: "Local", RefersTo: "'Data (2)'!$B$2", Scope: "Data (2)"})
	assert.Contains(t, f.GetDefinedName(), excelize.DefinedName{Name: "Local", RefersTo: "Data!$B$2", Scope: "Data"})

	// A second copy gets the next free name; an explicit place and name.
	got = e.ok("copy_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Data"})
	assert.Equal(t, "Data (3)", got["new_sheet"])
	got = e.ok("copy_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Report", "new_name": "First", "position": 0})
	assert.Equal(t, []any{"First", "Data", "Data (3)", "Data (2)", "Report"}, got["sheets"])
	assert.Equal(t, "Data!D2", mustFormula(t, e.open("c.xlsx"), "First", "A1"))
}

// mustFormula reads one cell's formula.
func mustFormula(t *testing.T, f *excelize.File, sheet, cell string) string {
	t.Helper()
	got, err := f.GetCellFormula(sheet, cell)
	require.NoError(t, err)
	return got
}

func TestCopySheetReportsWhatItCannotCopy(t *testing.T) {
	e := newEnv(t)
	describedBook(e)
	got := e.ok("copy_sheet", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet1", "new_name": "Copy"})
	left := got["not_copied"].([]any)
	require.Len(t, left, 2)
	assert.Contains(t, left[0], "1 table(s)")
	assert.Equal(t, "1 chart(s)", left[1])
	d := e.ok("describe_workbook", map[string]any{"file_path": "d.xlsx", "sheet_name": "Copy"})
	s := d["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, "A1:C5", s["used_range"])
	assert.Equal(t, float64(0), s["tables_count"])
	assert.Equal(t, float64(0), s["charts_count"])
	assert.NotNil(t, s["freeze_panes"])
	// The source keeps its table and chart.
	d = e.ok("describe_workbook", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet1"})
	s = d["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, float64(1), s["tables_count"])
	assert.Equal(t, float64(1), s["charts_count"])
}

func TestCopySheetErrors(t *testing.T) {
	cases := []struct {
		name      string
		args      map[string]any
		exception string
		want      string
	}{
		{"name taken", map[string]any{"new_name": "report"}, "ValueError", "already exists"},
		{"bad name", map[string]any{"new_name": "a:b"}, "ValueError", "may not contain"},
		{"position past the end", map[string]any{"position": 3}, "ValueError", "position must be between 0 and 2"},
		{"missing sheet", map[string]any{"sheet_name": "Dta"}, "KeyError", `Did you mean "Data"?`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			copyBook(e)
			c.args["file_path"] = "c.xlsx"
			p := e.fail("copy_sheet", c.args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
			assert.Equal(t, []string{"Data", "Report"}, e.open("c.xlsx").GetSheetList())
		})
	}
	t.Run("chart sheet", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("cs.xlsx", [][]any{{"k", "v"}, {"a", 1}, {"b", 2}})
		f := e.open("cs.xlsx")
		require.NoError(t, f.AddChartSheet("Chart", &excelize.Chart{Type: excelize.Line,
			Series: []excelize.ChartSeries{{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2:$A$3", Values: "Sheet1!$B$2:$B$3"}}}))
		require.NoError(t, f.Save())
		p := e.fail("copy_sheet", map[string]any{"file_path": "cs.xlsx", "sheet_name": "Chart"})
		assert.Equal(t, "ValueError", p["exception"])
		assert.Contains(t, p["message"], "chart sheet")
	})
}

// TestSheetScopedNamesFollowMovedSheets: a sheet-scoped name's scope is a
// sheet position; placing a new sheet or a copy before the name's sheet
// must keep the name on it.
func TestSheetScopedNamesFollowMovedSheets(t *testing.T) {
	e := newEnv(t)
	copyBook(e)
	e.ok("create_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Front", "position": 0})
	e.ok("copy_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Report", "position": 0})
	names := e.open("c.xlsx").GetDefinedName()
	assert.Equal(t, []excelize.DefinedName{{Name: "Local", RefersTo: "Data!$B$2", Scope: "Data"}}, names)
}

// TestCachedValuesSurviveAnArrayFormula: computing an array formula can add
// cells to a row; the values computed for the other formulas of that row
// must still be stored.
func TestCachedValuesSurviveAnArrayFormula(t *testing.T) {
	e := newEnv(t)
	clearBook(e)
	e.ok("write_cells", map[string]any{"file_path": "k.xlsx", "cell": "B3", "value": 7})
	read := e.ok("read_excel", map[string]any{"file_path": "k.xlsx", "range": "D3:D3"})
	assert.Equal(t, []any{[]any{float64(70)}}, read["values"])
}
