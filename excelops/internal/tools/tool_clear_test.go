package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// clearBook writes k.xlsx: qty and price in B2:C5, a shared formula
// D2:D5 = B*C anchored at D2, a bold B2, a merge E1:F2 and an array
// formula in G2:G3.
func clearBook(e *env) {
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(e.t, f.SetSheetRow("Sheet1", "A1", &[]any{"item", "qty", "price", "total"}))
	for r := 2; r <= 5; r++ {
		require.NoError(e.t, f.SetSheetRow("Sheet1", grid.CellName(1, r), &[]any{"x", r, 10}))
	}
	shared, ref := excelize.STCellFormulaTypeShared, "D2:D5"
	require.NoError(e.t, f.SetCellFormula("Sheet1", "D2", "B2*C2", excelize.FormulaOpts{Type: &shared, Ref: &ref}))
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetCellStyle("Sheet1", "B2", "B2", bold))
	require.NoError(e.t, f.SetCellValue("Sheet1", "E1", "merged"))
	require.NoError(e.t, f.MergeCell("Sheet1", "E1", "F2"))
	array, aref := excelize.STCellFormulaTypeArray, "G2:G3"
	require.NoError(e.t, f.SetCellFormula("Sheet1", "G2", "B2:B3*2", excelize.FormulaOpts{Type: &array, Ref: &aref}))
	require.NoError(e.t, f.SaveAs(e.path("k.xlsx")))
}

func TestClearRange(t *testing.T) {
	t.Run("values keep styles and formulas elsewhere recompute", func(t *testing.T) {
		e := newEnv(t)
		clearBook(e)
		got := e.ok("clear_range", map[string]any{"file_path": "k.xlsx", "cell_range": "B2:B3"})
		assert.Equal(t, float64(2), got["values_cleared"])
		assert.Equal(t, float64(0), got["formulas_cleared"])
		assert.Equal(t, []any{}, got["unmerged"])
		f := e.open("k.xlsx")
		for _, c := range []string{"B2", "B3"} {
			v, err := f.GetCellValue("Sheet1", c)
			require.NoError(t, err)
			assert.Empty(t, v, c)
		}
		st, err := f.GetCellStyle("Sheet1", "B2")
		require.NoError(t, err)
		assert.NotZero(t, st, "the style stays")
		read := e.ok("read_excel", map[string]any{"file_path": "k.xlsx", "range": "D2:D5"})
		assert.Equal(t, []any{[]any{float64(0)}, []any{float64(0)}, []any{float64(40)}, []any{float64(50)}}, read["values"])
	})
	t.Run("clearing a shared formula's anchor keeps its followers", func(t *testing.T) {
		e := newEnv(t)
		clearBook(e)
		got := e.ok("clear_range", map[string]any{"file_path": "k.xlsx", "cell_range": "D2"})
		assert.Equal(t, float64(1), got["formulas_cleared"])
		f := e.open("k.xlsx")
		assert.Equal(t, "", mustFormula(t, f, "Sheet1", "D2"))
		assert.Equal(t, "B3*C3", mustFormula(t, f, "Sheet1", "D3"))
		assert.Equal(t, "B5*C5", mustFormula(t, f, "Sheet1", "D5"))
		v, err := f.GetCellValue("Sheet1", "D4")
		require.NoError(t, err)
		assert.Equal(t, "40", v)
	})
	t.Run("formats keep values and unmerge", func(t *testing.T) {
		e := newEnv(t)
		clearBook(e)
		got := e.ok("clear_range", map[string]any{"file_path": "k.xlsx", "cell_range": "A2:E2", "what": "formats"})
		assert.Equal(t, float64(0), got["values_cleared"])
		assert.Equal(t, float64(1), got["formats_cleared"])
		assert.Equal(t, []any{"E1:F2"}, got["unmerged"])
		f := e.open("k.xlsx")
		st, err := f.GetCellStyle("Sheet1", "B2")
		require.NoError(t, err)
		assert.Zero(t, st)
		v, err := f.GetCellValue("Sheet1", "B2")
		require.NoError(t, err)
		assert.Equal(t, "2", v)
		merged, err := f.GetMergeCells("Sheet1")
		require.NoError(t, err)
		assert.Empty(t, merged)
		assert.Equal(t, "merged", e.value("k.xlsx", "Sheet1", "E1"))
	})
	t.Run("both", func(t *testing.T) {
		e := newEnv(t)
		clearBook(e)
		f0 := e.open("k.xlsx")
		require.NoError(t, f0.AddComment("Sheet1", excelize.Comment{Cell: "A2", Author: "me", Text: "gone"}))
		require.NoError(t, f0.AddComment("Sheet1", excelize.Comment{Cell: "H1", Author: "me", Text: "kept"}))
		require.NoError(t, f0.SetCellHyperLink("Sheet1", "A3", "https://example.com/", "External"))
		require.NoError(t, f0.Save())
		got := e.ok("clear_range", map[string]any{"file_path": "k.xlsx", "cell_range": "A1:G5", "what": "both"})
		assert.Equal(t, float64(5), got["formulas_cleared"], "D2:D5 and the array anchor G2")
		assert.Equal(t, float64(1), got["notes_removed"])
		assert.Equal(t, float64(1), got["links_removed"])
		f := e.open("k.xlsx")
		notes, err := f.GetComments("Sheet1")
		require.NoError(t, err)
		require.Len(t, notes, 1)
		assert.Equal(t, "H1", notes[0].Cell)
		link, _, err := f.GetCellHyperLink("Sheet1", "A3")
		require.NoError(t, err)
		assert.False(t, link)
		rows, err := f.GetRows("Sheet1")
		require.NoError(t, err)
		for _, r := range rows {
			for _, v := range r {
				assert.Empty(t, v)
			}
		}
		merged, err := f.GetMergeCells("Sheet1")
		require.NoError(t, err)
		assert.Empty(t, merged)
	})
	errs := []struct {
		name, exception, want string
		args                  map[string]any
	}{
		{"part of an array formula", "ValueError", "part of the array formula in G2:G3", map[string]any{"cell_range": "G3"}},
		{"bad range", "ValueError", "invalid cell range", map[string]any{"cell_range": "A0"}},
		{"missing sheet", "KeyError", "Nope", map[string]any{"cell_range": "A1", "sheet_name": "Nope"}},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			clearBook(e)
			c.args["file_path"] = "k.xlsx"
			p := e.fail("clear_range", c.args)
			assert.Equal(t, c.exception, p["exception"], p)
			assert.Contains(t, p["message"], c.want)
			assert.Equal(t, "B2*C2", mustFormula(t, e.open("k.xlsx"), "Sheet1", "D2"), "nothing changed")
		})
	}
	t.Run("unknown what is refused by the schema", func(t *testing.T) {
		e := newEnv(t)
		clearBook(e)
		p := e.fail("clear_range", map[string]any{"file_path": "k.xlsx", "cell_range": "A1", "what": "all"})
		assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", p["error_code"])
	})
}
