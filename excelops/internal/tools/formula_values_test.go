package tools

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// part returns one part of a saved workbook as text.
func part(t *testing.T, path, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			require.NoError(t, err)
			defer rc.Close()
			b, err := io.ReadAll(rc)
			require.NoError(t, err)
			return string(b)
		}
	}
	t.Fatalf("no part %s in %s", name, path)
	return ""
}

func TestFormulaValuesCached(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "f.xlsx", "cell_range": "A1", "values": [][]any{
		{1, 2, "=A1+B1", "=A1/0", "=A1>0", `="n"&A1`, `=INFO("release")`, `=TEXT(A1,"000")`, "=C1",
			`=LEN(INFO("release"))`, `=IFERROR(CELL("filename",A1),5)`, `=CELL("col",C1)`},
	}})
	sheet := part(t, e.path("f.xlsx"), "xl/worksheets/sheet1.xml")
	for _, want := range []string{
		`<c r="C1"><f>A1+B1</f><v>3</v></c>`,            // a number, typed as one
		`<c r="D1" t="e"><f>A1/0</f><v>#DIV/0!</v></c>`, // an error value
		`<c r="E1" t="b"><f>A1&gt;0</f><v>1</v></c>`,    // a boolean
		`<c r="F1" t="str"><f>&#34;n&#34;&amp;A1</f><v>n1</v></c>`,
		`<c r="G1"><f>INFO(&#34;release&#34;)</f></c>`,                // the engine cannot: no value at all
		`<c r="J1"><f>LEN(INFO(&#34;release&#34;))</f></c>`,           // nor around it (excelize would say 25)
		`<c r="K1"><f>IFERROR(CELL(&#34;filename&#34;,A1),5)</f></c>`, // (excelize would say 5)
		`<c r="L1"><f>CELL(&#34;col&#34;,C1)</f><v>3</v></c>`,         // a CELL the engine computes
		`<c r="H1" t="str"><f>TEXT(A1,&#34;000&#34;)</f><v>001</v></c>`,
		`<c r="I1"><f>C1</f><v>3</v></c>`,
	} {
		assert.Contains(t, sheet, want)
	}
	assert.Contains(t, part(t, e.path("f.xlsx"), "xl/workbook.xml"), `fullCalcOnLoad="true"`)
}

func TestChangedCellUpdatesDependentsOnEverySheet(t *testing.T) {
	e := newEnv(t)
	// A workbook whose cached totals (656) are what another program saved.
	f := excelize.NewFile()
	_, err := f.NewSheet("Report")
	require.NoError(t, err)
	for i, v := range []int{100, 156, 200, 200} {
		cell, _ := excelize.CoordinatesToCellName(5, i+2)
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	require.NoError(t, f.SetCellValue("Sheet1", "E6", 656))
	require.NoError(t, f.SetCellFormula("Sheet1", "E6", "SUM(E2:E5)"))
	require.NoError(t, f.SetCellValue("Report", "A1", 656))
	require.NoError(t, f.SetCellFormula("Report", "A1", "Sheet1!E6*2"))
	require.NoError(t, f.SaveAs(e.path("sales.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "sales.xlsx", "cell": "E3", "value": 246})
	got := e.ok("read_excel", map[string]any{"file_path": "sales.xlsx", "range": "E6"})
	assert.Equal(t, []any{[]any{746.0}}, got["values"])
	got = e.ok("read_excel", map[string]any{"file_path": "sales.xlsx", "sheet_name": "Report", "range": "A1"})
	assert.Equal(t, []any{[]any{1492.0}}, got["values"])
}

func TestUncomputableCachedValueIsDropped(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", 1))
	require.NoError(t, f.SetCellValue("Sheet1", "B1", 99)) // stale: WEBSERVICE cannot be recomputed here
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", `A1+WEBSERVICE(A1)`))
	require.NoError(t, f.SaveAs(e.path("o.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "o.xlsx", "cell": "A1", "value": 5})
	got := e.ok("read_excel", map[string]any{"file_path": "o.xlsx", "range": "A1:B1"})
	assert.Equal(t, []any{[]any{5.0, `=A1+WEBSERVICE(A1)`}}, got["values"])
	got = e.ok("read_excel", map[string]any{"file_path": "o.xlsx", "range": "A1:B1", "formulas": "both"})
	assert.Equal(t, []any{[]any{5.0, map[string]any{"formula": `=A1+WEBSERVICE(A1)`, "value": nil}}}, got["values"])
}

func TestReadExcelFormulasModes(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1", "values": [][]any{
		{"qty", "price", "amount"}, {3, 1.5, "=A2*B2"}, {nil, nil, nil}, {nil, nil, "=SUM(C2:C2)"},
	}})
	cases := []struct {
		mode string
		want any
	}{
		{"values", []any{[]any{"qty", "price", "amount"}, []any{3.0, 1.5, 4.5}, []any{nil, nil, nil}, []any{nil, nil, 4.5}}},
		{"formulas", []any{[]any{"qty", "price", "amount"}, []any{3.0, 1.5, "=A2*B2"}, []any{nil, nil, nil}, []any{nil, nil, "=SUM(C2:C2)"}}},
		{"both", []any{[]any{"qty", "price", "amount"}, []any{3.0, 1.5, map[string]any{"formula": "=A2*B2", "value": 4.5}},
			[]any{nil, nil, nil}, []any{nil, nil, map[string]any{"formula": "=SUM(C2:C2)", "value": 4.5}}}},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			got := e.ok("read_excel", map[string]any{"file_path": "m.xlsx", "range": "A1:C4", "formulas": c.mode})
			assert.Equal(t, c.want, got["values"])
			// Summary mode shows the same cells, formula-only rows included.
			got = e.ok("read_excel", map[string]any{"file_path": "m.xlsx", "formulas": c.mode})
			rows := c.want.([]any)
			assert.Equal(t, []any{rows[1], rows[3]}, got["rows"])
		})
	}
	bad := e.fail("read_excel", map[string]any{"file_path": "m.xlsx", "formulas": "text"})
	assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", bad["error_code"])
}

func TestReadExcelExpandsSharedFormulas(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for r := 1; r <= 3; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		require.NoError(t, f.SetCellValue("Sheet1", cell, r))
	}
	shared, ref := excelize.STCellFormulaTypeShared, "B1:B3"
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", "A1*$A$1+Sheet1!A1", excelize.FormulaOpts{Type: &shared, Ref: &ref}))
	require.NoError(t, f.SaveAs(e.path("s.xlsx")))
	require.NoError(t, f.Close())
	require.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), `t="shared"`)

	got := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "range": "B1:B3", "formulas": "formulas"})
	assert.Equal(t, []any{[]any{"=A1*$A$1+Sheet1!A1"}, []any{"=A2*$A$1+Sheet1!A2"}, []any{"=A3*$A$1+Sheet1!A3"}}, got["values"])
}

func TestRejectedFormulaWritesNothing(t *testing.T) {
	e := newEnv(t)
	name := e.workbook("r.xlsx", [][]any{{1, 2}})
	before, err := os.ReadFile(e.path(name))
	require.NoError(t, err)
	got := e.fail("write_cells", map[string]any{"file_path": name, "cell_range": "A2", "values": [][]any{{5, "=SUMME(A1)"}}})
	assert.Equal(t, "ValueError", got["exception"])
	assert.Equal(t, `cell B2: formula "=SUMME(A1)" is not valid: SUMME is not an Excel function (did you mean SUM?); nothing was written`, got["message"])
	after, err := os.ReadFile(e.path(name))
	require.NoError(t, err)
	assert.Equal(t, before, after)
	got = e.fail("write_cells", map[string]any{"file_path": "new.xlsx", "cell": "A1", "value": "=1+"})
	assert.Contains(t, got["message"], `cell A1: formula "=1+" is not valid: it ends with the operator "+"`)
	assert.NoFileExists(t, e.path("new.xlsx"))
}

func TestStyleEditsKeepCachedValues(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", 1))
	require.NoError(t, f.SetCellValue("Sheet1", "B1", 99)) // what another program computed
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", `A1+WEBSERVICE(A1)`))
	require.NoError(t, f.SaveAs(e.path("k.xlsx")))
	require.NoError(t, f.Close())

	// Formatting changes no value: the cached value the engine cannot
	// recompute stays; a value edit drops it.
	e.ok("format_cells", map[string]any{"file_path": "k.xlsx", "cell_range": "A1", "font": map[string]any{"bold": true}})
	got := e.ok("read_excel", map[string]any{"file_path": "k.xlsx", "range": "B1"})
	assert.Equal(t, []any{[]any{"99"}}, got["values"], "excelize stored it as text (t=\"str\")")
	e.ok("write_cells", map[string]any{"file_path": "k.xlsx", "cell": "A1", "value": 2})
	got = e.ok("read_excel", map[string]any{"file_path": "k.xlsx", "range": "B1"})
	assert.Equal(t, []any{[]any{`=A1+WEBSERVICE(A1)`}}, got["values"])
}

func TestRecalcBudgetDropsTheRest(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", 2))
	for _, c := range []string{"B1", "C1", "D1"} {
		require.NoError(t, f.SetCellValue("Sheet1", c, 99)) // stale
		require.NoError(t, f.SetCellFormula("Sheet1", c, "A1*2"))
	}
	none := func(string) (bool, error) { return false, nil }
	st, err := recalc.RefreshFormulaValuesUpTo(context.Background(), f, limits.DefaultLimits().Calc(), none, nil, 2)
	require.NoError(t, err)
	assert.Equal(t, recalc.FormulaStats{Computed: 2, Dropped: 1, Changed: 2}, st) // 99 -> 4 twice
	for c, want := range map[string]string{"B1": "4", "C1": "4", "D1": ""} {
		got, err := f.GetCellValue("Sheet1", c, excelize.Options{RawCellValue: true})
		require.NoError(t, err)
		assert.Equal(t, want, got, c)
	}
	props, err := f.GetCalcProps()
	require.NoError(t, err)
	require.NotNil(t, props.FullCalcOnLoad)
	assert.True(t, *props.FullCalcOnLoad)
}

// TestRecalcUnchangedLeavesCalcProps: a refresh that computes every value
// the cells already cached changes nothing, so the workbook is not marked
// for a full recalculation on open (workbook.xml stays as it was).
func TestRecalcUnchangedLeavesCalcProps(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", 2))
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", "A1*2"))
	ws, err := f.Worksheet("Sheet1")
	require.NoError(t, err)
	ws.SheetData.Row[0].C[1].T, ws.SheetData.Row[0].C[1].V = "", "4" // cached as Excel would
	none := func(string) (bool, error) { return false, nil }
	st, err := recalc.RefreshFormulaValues(context.Background(), f, limits.DefaultLimits().Calc(), none, nil)
	require.NoError(t, err)
	assert.Equal(t, recalc.FormulaStats{Computed: 1}, st)
	props, err := f.GetCalcProps()
	require.NoError(t, err)
	assert.Nil(t, props.FullCalcOnLoad, "nothing to recalculate on open")
}
