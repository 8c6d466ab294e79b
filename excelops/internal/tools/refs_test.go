package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// refsBook writes a workbook with formulas on two sheets, a defined name and
// a chart, for the reference-semantics tests.
func refsBook(t *testing.T, e *env, name string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for r := 1; r <= 5; r++ {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(1, r), r))
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(2, r), r*10))
	}
	set := func(sheet, cell, formula string) { require.NoError(t, f.SetCellFormula(sheet, cell, formula)) }
	set("Sheet1", "C1", "A3*10")
	set("Sheet1", "C2", "SUM(A1:A5)")
	set("Sheet1", "C3", "SUM(A2:A3)")
	set("Sheet1", "C4", `"A3"&A4`)
	set("Sheet1", "D1", "$A$5+A$4")
	set("Sheet1", "D2", "SUM(A:A)")
	_, err := f.NewSheet("销售 2024")
	require.NoError(t, err)
	set("销售 2024", "A1", "Sheet1!A3+Sheet1!A5")
	set("销售 2024", "A2", "SUM(Sheet1!B1:B5)")
	set("销售 2024", "A3", "A5")
	set("销售 2024", "A4", "SUM(Sheet1!A2:A3)")
	require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Amounts", RefersTo: "Sheet1!$B$2:$B$5"}))
	require.NoError(t, f.AddChart("Sheet1", "F2", &excelize.Chart{
		Type:   excelize.Line,
		Series: []excelize.ChartSeries{{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2:$A$5", Values: "Sheet1!$B$2:$B$5"}},
	}))
	require.NoError(t, f.SaveAs(e.path(name)))
}

// formulaOf reads a formula of a workspace workbook.
func (e *env) formulaOf(name, sheet, cell string) string {
	e.t.Helper()
	got, err := e.open(name).GetCellFormula(sheet, cell)
	require.NoError(e.t, err)
	return got
}

// chartXML returns the first chart part of a workspace workbook.
func (e *env) chartXML(name string) string {
	e.t.Helper()
	f := e.open(name)
	v, ok := f.Pkg.Load("xl/charts/chart1.xml")
	require.True(e.t, ok)
	return string(v.([]byte))
}

func TestDeleteRowsRewritesReferencesAsExcel(t *testing.T) {
	e := newEnv(t)
	refsBook(t, e, "r.xlsx")
	e.ok("delete_rows", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "row": 3})
	want := map[string]string{
		"C1": "#REF!*10", "C2": "SUM(A1:A4)", "C3": `"A3"&A3`, "C4": "",
		"D1": "$A$4+A$3", "D2": "SUM(A:A)",
	}
	for cell, f := range want {
		assert.Equal(t, f, e.formulaOf("r.xlsx", "Sheet1", cell), cell)
	}
	assert.Equal(t, "#REF!+Sheet1!A4", e.formulaOf("r.xlsx", "销售 2024", "A1"))
	assert.Equal(t, "SUM(Sheet1!B1:B4)", e.formulaOf("r.xlsx", "销售 2024", "A2"))
	assert.Equal(t, "A5", e.formulaOf("r.xlsx", "销售 2024", "A3"), "a reference into its own sheet is not moved by another sheet's edit")
	names := e.open("r.xlsx").GetDefinedName()
	require.Len(t, names, 1)
	assert.Equal(t, "Sheet1!$B$2:$B$4", names[0].RefersTo)
	chart := e.chartXML("r.xlsx")
	assert.Contains(t, chart, "f>Sheet1!$B$2:$B$4</")
	assert.Contains(t, chart, "f>Sheet1!$A$2:$A$4</")
	assert.NotContains(t, chart, "$B$5")
}

func TestDeleteRowsOfAWholeRangeGivesRef(t *testing.T) {
	e := newEnv(t)
	refsBook(t, e, "r.xlsx")
	e.ok("delete_rows", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "row": 2, "count": 2})
	assert.Equal(t, "#REF!*10", e.formulaOf("r.xlsx", "Sheet1", "C1"))
	assert.Equal(t, `"A3"&A2`, e.formulaOf("r.xlsx", "Sheet1", "C2"), "C4 moved up to C2")
	assert.Equal(t, "$A$3+A$2", e.formulaOf("r.xlsx", "Sheet1", "D1"))
	assert.Equal(t, "SUM(#REF!)", e.formulaOf("r.xlsx", "销售 2024", "A4"))
	assert.Equal(t, "Sheet1!$B$2:$B$3", e.open("r.xlsx").GetDefinedName()[0].RefersTo)
}

func TestInsertAndDeleteColumnsRewriteReferences(t *testing.T) {
	e := newEnv(t)
	refsBook(t, e, "r.xlsx")
	e.ok("insert_columns", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "column": "B", "count": 2})
	assert.Equal(t, "SUM(Sheet1!D1:D5)", e.formulaOf("r.xlsx", "销售 2024", "A2"))
	assert.Equal(t, "SUM(A:A)", e.formulaOf("r.xlsx", "Sheet1", "F2"))
	assert.Contains(t, e.chartXML("r.xlsx"), "f>Sheet1!$D$2:$D$5</")
	e.ok("delete_columns", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "column": 4})
	assert.Equal(t, "SUM(#REF!)", e.formulaOf("r.xlsx", "销售 2024", "A2"))
	assert.Equal(t, "#REF!", e.open("r.xlsx").GetDefinedName()[0].RefersTo)
	e.ok("delete_columns", map[string]any{"file_path": "r.xlsx", "sheet_name": "Sheet1", "column": "A"})
	assert.Equal(t, "#REF!*10", e.formulaOf("r.xlsx", "Sheet1", "C1"), "C1 went to E1, D1, then C1")
	assert.Equal(t, "#REF!+#REF!", e.formulaOf("r.xlsx", "Sheet1", "D1"))
}

func TestRenameSheetRewritesEveryReference(t *testing.T) {
	e := newEnv(t)
	refsBook(t, e, "r.xlsx")
	e.ok("rename_sheet", map[string]any{"file_path": "r.xlsx", "old_name": "Sheet1", "new_name": "Q1 'Plan' v1"})
	assert.Equal(t, "'Q1 ''Plan'' v1'!A3+'Q1 ''Plan'' v1'!A5", e.formulaOf("r.xlsx", "销售 2024", "A1"))
	assert.Equal(t, "SUM('Q1 ''Plan'' v1'!B1:B5)", e.formulaOf("r.xlsx", "销售 2024", "A2"))
	assert.Equal(t, "A3*10", e.formulaOf("r.xlsx", "Q1 'Plan' v1", "C1"), "unqualified references stay")
	assert.Equal(t, "'Q1 ''Plan'' v1'!$B$2:$B$5", e.open("r.xlsx").GetDefinedName()[0].RefersTo)
	assert.Contains(t, e.chartXML("r.xlsx"), "f>'Q1 ''Plan'' v1'!$B$2:$B$5</")
	e.ok("rename_sheet", map[string]any{"file_path": "r.xlsx", "old_name": "销售 2024", "new_name": "Summary"})
	e.ok("delete_sheet", map[string]any{"file_path": "r.xlsx", "sheet_name": "Q1 'Plan' v1", "confirm": true})
	assert.Equal(t, "#REF!+#REF!", e.formulaOf("r.xlsx", "Summary", "A1"))
	assert.Equal(t, "SUM(#REF!)", e.formulaOf("r.xlsx", "Summary", "A2"))
	assert.Equal(t, "A5", e.formulaOf("r.xlsx", "Summary", "A3"))
	assert.Equal(t, "#REF!", e.open("r.xlsx").GetDefinedName()[0].RefersTo)
}

func TestCopyRangeTranslatesFormulas(t *testing.T) {
	e := newEnv(t)
	refsBook(t, e, "r.xlsx")
	e.ok("copy_range_between_sheets", map[string]any{"source_file": "r.xlsx", "source_sheet": "Sheet1", "source_range": "C1:D2",
		"target_sheet": "销售 2024", "target_start": "E3"})
	assert.Equal(t, "C5*10", e.formulaOf("r.xlsx", "销售 2024", "E3"))
	assert.Equal(t, "SUM(C3:C7)", e.formulaOf("r.xlsx", "销售 2024", "E4"))
	assert.Equal(t, "$A$5+C$4", e.formulaOf("r.xlsx", "销售 2024", "F3"))
	assert.Equal(t, "SUM(C:C)", e.formulaOf("r.xlsx", "销售 2024", "F4"))

	e.workbook("other.xlsx", [][]any{{"x"}})
	e.ok("copy_range_between_sheets", map[string]any{"source_file": "r.xlsx", "source_sheet": "Sheet1", "source_range": "C1",
		"target_file": "other.xlsx", "target_sheet": "Sheet1", "target_start": "A1"})
	assert.Equal(t, "#REF!*10", e.formulaOf("other.xlsx", "Sheet1", "A1"), "A3 moved two columns left is off the grid")

	e.ok("copy_range_between_sheets", map[string]any{"source_file": "r.xlsx", "source_sheet": "Sheet1", "source_range": "C1:C2",
		"target_sheet": "Sheet1", "target_start": "H1", "values_only": true})
	f := e.open("r.xlsx")
	got, err := f.GetCellFormula("Sheet1", "H1")
	require.NoError(t, err)
	assert.Empty(t, got, "values only")
	v, err := f.GetCellValue("Sheet1", "H1")
	require.NoError(t, err)
	assert.Equal(t, "30", v)
	v, err = f.GetCellValue("Sheet1", "H2")
	require.NoError(t, err)
	assert.Equal(t, "15", v)
}

func TestFormulaCellsSeesEveryFormula(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for r := 1; r <= 6; r++ {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(1, r), r))
	}
	shared, ref := excelize.STCellFormulaTypeShared, "B1:B6"
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", "A1*2", excelize.FormulaOpts{Type: &shared, Ref: &ref}))
	require.NoError(t, f.SetCellFormula("Sheet1", "D4", "SUM(B1:B6)"))
	require.NoError(t, f.SaveAs(e.path("s.xlsx")))
	require.NoError(t, f.Close())

	_, err := e.parsedRead("s.xlsx", func(b *engine.Book) (any, error) {
		cells, err := b.FormulaCells("Sheet1")
		require.NoError(t, err)
		var refs []string
		for _, c := range cells {
			refs = append(refs, c.Ref)
		}
		assert.Equal(t, []string{"B1", "B2", "B3", "B4", "D4", "B5", "B6"}, refs)
		return nil, nil
	})
	require.NoError(t, err)

	// Deleting a row inside a shared formula's range keeps every follower right.
	e.ok("delete_rows", map[string]any{"file_path": "s.xlsx", "row": 3})
	for r, want := range []string{"A1*2", "A2*2", "A3*2", "A4*2", "A5*2"} {
		assert.Equal(t, want, e.formulaOf("s.xlsx", "Sheet1", grid.CellName(2, r+1)))
	}
	assert.Equal(t, "SUM(B1:B5)", e.formulaOf("s.xlsx", "Sheet1", "D3"))
}

func TestArrayFormulaStaysArray(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for r := 1; r <= 6; r++ {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(1, r), r))
	}
	array, ref := excelize.STCellFormulaTypeArray, "C5"
	require.NoError(t, f.SetCellFormula("Sheet1", "C5", "SUM(A1:A6*2)", excelize.FormulaOpts{Type: &array, Ref: &ref}))
	require.NoError(t, f.SaveAs(e.path("a.xlsx")))
	require.NoError(t, f.Close())
	e.ok("delete_rows", map[string]any{"file_path": "a.xlsx", "row": 2, "count": 2})
	assert.Equal(t, "SUM(A1:A4*2)", e.formulaOf("a.xlsx", "Sheet1", "C3"))
	_, err := e.parsedRead("a.xlsx", func(b *engine.Book) (any, error) {
		cells, err := b.FormulaCells("Sheet1")
		require.NoError(t, err)
		require.Len(t, cells, 1)
		assert.Equal(t, "C3", cells[0].Ref)
		assert.Contains(t, []string{"C3", "C3:C3"}, cells[0].ArrayRef, "still an array formula")
		return nil, nil
	})
	require.NoError(t, err)
}
