package recalc

import (
	"context"
	"fmt"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInexactFormulasLeftUncomputed: what the engine computes unlike Excel
// gets no value, while the same functions where the engine is right keep
// computing. LibreOffice judged the values in the corpus: SUM(B1:C1*B2:C2)
// as an array formula and SUMPRODUCT(B1:C1*B2:C2) are 1030 (21*30+10*40),
// the nested SUBTOTAL 6401 where the engine would say 10702. An operator on
// a range inside a function of a plain formula (SUM(B1:C1*B2:C2)) is
// Excel's implicit intersection, which the engine computes only outside
// any other function: no value; nor is the @ of a function's result. A
// legacy array formula over several cells is not computed on its own
// cell: its range is, together (TestLegacyArrayOverItsRange).
func TestInexactFormulasLeftUncomputed(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	defer f.Close()
	for ref, v := range map[string]int{"B1": 21, "C1": 10, "B2": 30, "C2": 40, "E1": 1, "E2": 2, "E4": 3} {
		require.NoError(t, f.SetCellValue("Sheet1", ref, v))
	}
	array := excelize.STCellFormulaTypeArray
	one := "A1"
	require.NoError(t, f.SetCellFormula("Sheet1", "A1", "SUM(B1:C1*B2:C2)", excelize.FormulaOpts{Type: &array, Ref: &one}))
	two := "A2"
	require.NoError(t, f.SetCellFormula("Sheet1", "A2", "SUM(B1:C2)", excelize.FormulaOpts{Type: &array, Ref: &two}))
	require.NoError(t, f.SetCellFormula("Sheet1", "A3", "SUMPRODUCT(B1:C1*B2:C2)"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A4", "SUMPRODUCT(B1:C1,B2:C2)"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A5", "SUM(B1:C1*B2:C2)")) // plain: intersected in Excel
	require.NoError(t, f.SetCellFormula("Sheet1", "E3", "SUBTOTAL(9,E1:E2)"))
	require.NoError(t, f.SetCellFormula("Sheet1", "E5", "SUBTOTAL(9,E1:E4)")) // holds E3
	require.NoError(t, f.SetCellFormula("Sheet1", "F1", "SUBTOTAL(9,E1:E2)+E4"))
	// A legacy array formula over three cells (the corpus's autofit12.xlsx):
	// Excel shows 1030 in each, computed with its range only.
	three := "G1:G3"
	require.NoError(t, f.SetCellFormula("Sheet1", "G1", "SUM(B1:C1*B2:C2)", excelize.FormulaOpts{Type: &array, Ref: &three}))
	// Implicit intersection (@) of a reference is computed, INDEX's whole
	// column being one (B1 in row 1); of another function's result (a
	// reference in Excel, an array for the engine) it is not.
	require.NoError(t, f.SetCellFormula("Sheet1", "H1", "_xlfn.SINGLE(INDEX(B1:B3,0))"))
	require.NoError(t, f.SetCellFormula("Sheet1", "H2", "_xlfn.SINGLE(B1:B2)"))
	require.NoError(t, f.SetCellFormula("Sheet1", "H3", "_xlfn.SINGLE(OFFSET(B1:B3,0,0))"))
	// A function lifted over a range: an array formula computes it (21, 30
	// and 40 of B1:C2 above 15); a plain one, which Excel intersects with
	// its row, computes where the engine intersects it too (ABS(B1:B2) in
	// row 2 is ABS(B2), in row 7 #VALUE!), not inside another function
	// (SUM); inside SUMPRODUCT it computes in any formula (LEN of 21 and 10).
	i1 := "I1"
	require.NoError(t, f.SetCellFormula("Sheet1", "I1", "SUM(IF(B1:C2>15,1,0))", excelize.FormulaOpts{Type: &array, Ref: &i1}))
	require.NoError(t, f.SetCellFormula("Sheet1", "I2", "ABS(B1:B2)"))
	require.NoError(t, f.SetCellFormula("Sheet1", "I3", "SUMPRODUCT(LEN(B1:C1))"))
	require.NoError(t, f.SetCellFormula("Sheet1", "I4", "SUM(IF(B1:C2>15,1,0))"))
	require.NoError(t, f.SetCellFormula("Sheet1", "I7", "ABS(B1:B2)"))
	// A legacy array formula over several cells, of another shape than its
	// array (Excel repeats the column B1:B2*2 in J and K), likewise.
	block := "J1:K2"
	require.NoError(t, f.SetCellFormula("Sheet1", "J1", "B1:B2*2", excelize.FormulaOpts{Type: &array, Ref: &block}))
	cases := map[string]string{"A1": "1030", "A2": "101", "A3": "1030", "A4": "1030", "A5": "", "E3": "3", "E5": "", "F1": "6", "G1": "", "H1": "21", "H2": "30", "H3": "",
		"I1": "3", "I2": "30", "I3": "4", "I4": "", "I7": "#VALUE!", "J1": ""}
	for ref, want := range cases {
		formula, err := f.GetCellFormula("Sheet1", ref)
		require.NoError(t, err)
		_, v, err := ComputeFormula(context.Background(), f, limits.DefaultLimits().Calc(), "Sheet1", ref)
		require.NoError(t, err)
		assert.Equal(t, want, v, "%s =%s", ref, formula)
	}
}

// TestExcelErrorResultsCached: a formula the engine evaluates to an Excel
// error keeps that error as its cached value, whatever message came with it
// (LOG("abc") is #VALUE! with strconv's message, LibreOffice and Excel agree),
// while a formula the engine cannot compute stays without a value.
func TestExcelErrorResultsCached(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	defer f.Close()
	cases := []struct{ formula, t, v string }{
		{`LOG("abc",10)`, "e", "#VALUE!"},
		{`COSH("abc")`, "e", "#VALUE!"},
		{`SQRT(-1)`, "e", "#NUM!"},
		{`MATCH(9,{1,2,3},0)`, "e", "#N/A"},
		{`1/0`, "e", "#DIV/0!"},
		{`NOSUCHFUNCTION(1)`, "", ""},
		{`LOG(100,10)`, "", "2"},
	}
	for i, c := range cases {
		ref := fmt.Sprintf("A%d", i+1)
		require.NoError(t, f.SetCellFormula("Sheet1", ref, c.formula))
		typ, v, err := ComputeFormula(context.Background(), f, limits.DefaultLimits().Calc(), "Sheet1", ref)
		require.NoError(t, err)
		assert.Equal(t, c.t+" "+c.v, typ+" "+v, c.formula)
	}
}
