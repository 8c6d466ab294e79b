package excelize

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCorpusFixesTextDateCriteria checks the text, date, lookup and
// criteria fixes against LibreOffice 25.2 on the corpus's data block, or
// Microsoft's function page where the two differ (TIME, CHAR).
func TestCorpusFixesTextDateCriteria(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`BASE(255,16,TRUE)`, CalcResultText, "FF"},
		{`BASE(255,16,2.9)`, CalcResultText, "FF"},
		{`BASE(255,2,"x")`, CalcResultError, "#VALUE!"},
		{`DECIMAL("",16)`, CalcResultNumber, "0"},
		{`COUNTIF(A1:A6,H10)`, CalcResultNumber, "1"},
		{`COUNTIF(C1:C6,"5")`, CalcResultNumber, "1"},
		{`COUNTIF(C1:C6,">4")`, CalcResultNumber, "0"},
		{`COUNTIF(B1:B6,7)`, CalcResultNumber, "1"},
		{`INDIRECT(E2,TRUE)`, CalcResultError, "#DIV/0!"},
		{`NETWORKDAYS(45292,45350,E1:E3)`, CalcResultError, "#N/A"},
		{`NETWORKDAYS.INTL(45292,45350,1,E2)`, CalcResultError, "#DIV/0!"},
		{`TIME(32767,0,0)`, CalcResultNumber, "0.291666666666667"},
		{`TIME(32768,0,0)`, CalcResultError, "#NUM!"},
		{`TIME(1E+12,45,30)`, CalcResultError, "#NUM!"},
		{`TIME(27,0,0)`, CalcResultNumber, "0.125"},
		{`CHAR(0)`, CalcResultError, "#VALUE!"},
		{`CHAR(65)`, CalcResultText, "A"},
	})
}

// TestCorpusFixesDatabase checks the database functions' field and
// criteria labels on the corpus's database A8:C11 (criteria E8:E9):
// LibreOffice 25.2's results, or its Err:504 as #VALUE!.
func TestCorpusFixesDatabase(t *testing.T) {
	for _, c := range []corpusCase{
		{`DMAX(A8:C11,H10,E8:E9)`, CalcResultError, "#VALUE!"},
		{`DPRODUCT(A8:C11,H10,E8:E9)`, CalcResultError, "#VALUE!"},
		{`DMAX(A8:C11,"Price",E8:E9)`, CalcResultNumber, "1.5"},
		{`DSUM(A8:C11,3,E8:E9)`, CalcResultNumber, "2.75"},
		{`DMIN(A8:C11,"Price",C1:C6)`, CalcResultError, "#VALUE!"}, // the label 4 names no column
		{`DCOUNT(A8:C11,"Qty",E8:E9)`, CalcResultNumber, "2"},
	} {
		t.Run(c.formula, func(t *testing.T) {
			f := corpusFixture(t)
			defer f.Close()
			for ref, v := range map[string]any{
				"A8": "Item", "B8": "Qty", "C8": "Price", "A9": "pen", "B9": 3, "C9": 1.5,
				"A10": "ink", "B10": 5, "C10": 4, "A11": "pen", "B11": 2, "C11": 1.25, "E8": "Item", "E9": "pen",
			} {
				require.NoError(t, f.SetCellValue("Sheet1", ref, v))
			}
			require.NoError(t, f.SetCellFormula("Sheet1", "L1", c.formula))
			got, _ := f.CalcCellResultContext(context.Background(), "Sheet1", "L1", CalcLimits{}, Options{RawCellValue: true})
			assert.Equal(t, CalcResult{Kind: c.kind, Value: c.value}, got)
		})
	}
}
