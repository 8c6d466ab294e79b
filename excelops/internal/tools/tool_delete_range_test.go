package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rangeBook writes r.xlsx: A1:A6 = 1..6, B1:B6 = 10..60, formulas of
// every kind in D, a sheet Other reading Sheet1, a bold A5, a note on A5,
// a link on A6, a rule and a validation on A5:A6, a merge E5:E6 and a
// workbook name over A1:A6.
func rangeBook(e *env) {
	f := excelize.NewFile()
	defer f.Close()
	for r := 1; r <= 6; r++ {
		require.NoError(e.t, f.SetSheetRow("Sheet1", grid.CellName(1, r), &[]any{r, r * 10}))
	}
	for cell, formula := range map[string]string{
		"D1": "A3*10", "D2": "SUM(A1:A6)", "D3": "A5+B5", "D4": "SUM(A1:B6)", "D5": "A4", "D6": "SUM(A5:A6)",
	} {
		require.NoError(e.t, f.SetCellFormula("Sheet1", cell, formula))
	}
	_, err := f.NewSheet("Other")
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetCellFormula("Other", "A1", "Sheet1!A5"))
	require.NoError(e.t, f.SetCellFormula("Other", "A2", "SUM(Sheet1!A1:A6)"))
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetCellStyle("Sheet1", "A5", "A5", bold))
	require.NoError(e.t, f.AddComment("Sheet1", excelize.Comment{Cell: "A5", Author: "me", Text: "five"}))
	require.NoError(e.t, f.SetCellHyperLink("Sheet1", "A6", "Other!A1", "Location"))
	style, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Italic: true}})
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetConditionalFormat("Sheet1", "A5:A6", []excelize.ConditionalFormatOptions{{Type: "cell", Criteria: ">", Value: "4", Format: &style}}))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "A5:A6"
	require.NoError(e.t, dv.SetRange(0, 100, excelize.DataValidationTypeWhole, excelize.DataValidationOperatorBetween))
	require.NoError(e.t, f.AddDataValidation("Sheet1", dv))
	require.NoError(e.t, f.MergeCell("Sheet1", "E5", "E6"))
	require.NoError(e.t, f.SetDefinedName(&excelize.DefinedName{Name: "Nums", RefersTo: "Sheet1!$A$1:$A$6"}))
	require.NoError(e.t, f.SaveAs(e.path("r.xlsx")))
}

func TestDeleteRangeShiftUp(t *testing.T) {
	e := newEnv(t)
	rangeBook(e)
	got := e.ok("delete_range", map[string]any{"file_path": "r.xlsx", "cell_range": "A3:A4", "shift": "up"})
	assert.Equal(t, float64(2), got["cells_deleted"])
	assert.Equal(t, float64(2), got["cells_moved"])
	f := e.open("r.xlsx")
	want := map[string]string{"A1": "1", "A2": "2", "A3": "5", "A4": "6", "A5": "", "A6": "", "B3": "30", "B6": "60"}
	for cell, v := range want {
		got, err := f.GetCellValue("Sheet1", cell)
		require.NoError(t, err)
		assert.Equal(t, v, got, cell)
	}
	formulas := map[[2]string]string{
		{"Sheet1", "D1"}: "#REF!*10", {"Sheet1", "D2"}: "SUM(A1:A4)", {"Sheet1", "D3"}: "A3+B5",
		{"Sheet1", "D4"}: "SUM(A1:B6)", {"Sheet1", "D5"}: "#REF!", {"Sheet1", "D6"}: "SUM(A3:A4)",
		{"Other", "A1"}: "Sheet1!A3", {"Other", "A2"}: "SUM(Sheet1!A1:A4)",
	}
	for at, want := range formulas {
		assert.Equal(t, want, mustFormula(t, f, at[0], at[1]), "%s!%s", at[0], at[1])
	}
	read := e.ok("read_excel", map[string]any{"file_path": "r.xlsx", "range": "D2:D4"})
	assert.Equal(t, []any{[]any{float64(14)}, []any{float64(55)}, []any{float64(224)}}, read["values"])
	st, err := f.GetCellStyle("Sheet1", "A3")
	require.NoError(t, err)
	assert.NotZero(t, st, "the style moved with its cell")
	notes, err := f.GetComments("Sheet1")
	require.NoError(t, err)
	require.Len(t, notes, 1)
	assert.Equal(t, "A3", notes[0].Cell)
	link, target, err := f.GetCellHyperLink("Sheet1", "A4")
	require.NoError(t, err)
	assert.True(t, link)
	assert.Equal(t, "Other!A1", target)
	rules, err := f.GetConditionalFormats("Sheet1")
	require.NoError(t, err)
	assert.Contains(t, rules, "A3:A4")
	dvs, err := f.GetDataValidations("Sheet1")
	require.NoError(t, err)
	require.Len(t, dvs, 1)
	assert.Equal(t, "A3:A4", dvs[0].Sqref)
	merged, err := f.GetMergeCells("Sheet1")
	require.NoError(t, err)
	require.Len(t, merged, 1, "E5:E6 is outside the band and stays")
	assert.Equal(t, "E5", merged[0].GetStartAxis())
	assert.Equal(t, "Sheet1!$A$1:$A$4", f.GetDefinedName()[0].RefersTo)
	d := e.ok("describe_workbook", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1"})
	assert.Equal(t, "A1:D6", d["sheets"].([]any)[0].(map[string]any)["used_range"])
}

func TestDeleteRangeShiftLeft(t *testing.T) {
	e := newEnv(t)
	e.workbook("l.xlsx", [][]any{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}})
	f := e.open("l.xlsx")
	require.NoError(t, f.SetCellFormula("Sheet1", "A4", "SUM(A1:E1)"))
	require.NoError(t, f.SetCellFormula("Sheet1", "B4", "D1+B1"))
	require.NoError(t, f.SetCellFormula("Sheet1", "C4", "SUM(A1:E2)"))
	require.NoError(t, f.MergeCell("Sheet1", "D2", "E2"))
	require.NoError(t, f.Save())
	got := e.ok("delete_range", map[string]any{"file_path": "l.xlsx", "cell_range": "B1:C1", "shift": "left"})
	assert.Equal(t, float64(2), got["cells_moved"])
	f = e.open("l.xlsx")
	rows, err := f.GetRows("Sheet1")
	require.NoError(t, err)
	assert.Equal(t, []string{"1", "4", "5"}, rows[0])
	assert.Equal(t, []string{"6", "7", "8", "9"}, rows[1], "row 2 is outside the band (E2 was emptied by its merge)")
	merged, err := f.GetMergeCells("Sheet1")
	require.NoError(t, err)
	require.Len(t, merged, 1)
	assert.Equal(t, "D2", merged[0].GetStartAxis())
	assert.Equal(t, "SUM(A1:C1)", mustFormula(t, f, "Sheet1", "A4"))
	assert.Equal(t, "B1+#REF!", mustFormula(t, f, "Sheet1", "B4"))
	assert.Equal(t, "SUM(A1:E2)", mustFormula(t, f, "Sheet1", "C4"))
	read := e.ok("read_excel", map[string]any{"file_path": "l.xlsx", "range": "A4:A4"})
	assert.Equal(t, []any{[]any{float64(10)}}, read["values"])
}

func TestDeleteRangeRefusals(t *testing.T) {
	cases := []struct {
		name, exception, want string
		args                  map[string]any
		setup                 func(f *excelize.File)
	}{
		{"splits a merge", "ValueError", "would split the merged range E5:E6", map[string]any{"cell_range": "E5", "shift": "up"}, nil},
		{"moves part of a merge", "ValueError", "would split the merged range E1:E2", map[string]any{"cell_range": "D1", "shift": "left"}, func(f *excelize.File) {
			require.NoError(t, f.MergeCell("Sheet1", "E1", "E2"))
		}},
		{"touches a table", "ValueError", `table "T"`, map[string]any{"cell_range": "G2", "shift": "up"}, func(f *excelize.File) {
			require.NoError(t, f.SetSheetRow("Sheet1", "G1", &[]any{"h"}))
			require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "G1:G4", Name: "T"}))
		}},
		{"splits an array formula", "ValueError", "array formula in H1:H2", map[string]any{"cell_range": "H1", "shift": "up"}, func(f *excelize.File) {
			array, ref := excelize.STCellFormulaTypeArray, "H1:H2"
			require.NoError(t, f.SetCellFormula("Sheet1", "H1", "A1:A2*2", excelize.FormulaOpts{Type: &array, Ref: &ref}))
		}},
		{"bad range", "ValueError", "invalid cell range", map[string]any{"cell_range": "A:A", "shift": "up"}, nil},
		{"missing sheet", "KeyError", "Nope", map[string]any{"cell_range": "A1", "shift": "up", "sheet_name": "Nope"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			rangeBook(e)
			if c.setup != nil {
				f := e.open("r.xlsx")
				c.setup(f)
				require.NoError(t, f.Save())
			}
			c.args["file_path"] = "r.xlsx"
			p := e.fail("delete_range", c.args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
			assert.Equal(t, "A3*10", mustFormula(t, e.open("r.xlsx"), "Sheet1", "D1"), "nothing changed")
		})
	}
	t.Run("shift is required and checked by the schema", func(t *testing.T) {
		e := newEnv(t)
		rangeBook(e)
		for _, args := range []map[string]any{{"cell_range": "A1"}, {"cell_range": "A1", "shift": "down"}} {
			args["file_path"] = "r.xlsx"
			p := e.fail("delete_range", args)
			assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", p["error_code"])
		}
	})
	t.Run("a merge inside the band moves, one inside the range goes", func(t *testing.T) {
		e := newEnv(t)
		rangeBook(e)
		e.ok("delete_range", map[string]any{"file_path": "r.xlsx", "cell_range": "E1:E2", "shift": "up"})
		merged, err := e.open("r.xlsx").GetMergeCells("Sheet1")
		require.NoError(t, err)
		require.Len(t, merged, 1)
		assert.Equal(t, "E3", merged[0].GetStartAxis())
		assert.Equal(t, "E4", merged[0].GetEndAxis())
		e.ok("delete_range", map[string]any{"file_path": "r.xlsx", "cell_range": "E3:E4", "shift": "up"})
		merged, err = e.open("r.xlsx").GetMergeCells("Sheet1")
		require.NoError(t, err)
		assert.Empty(t, merged)
	})
}
