// registry-sidecar: an error argument goes on as itself through the
// functions that read a number (PATCHES.md, section "An error is no
// number"), SEC is the secant and IF takes any non-zero number for true. Found by the LibreOffice formula corpus
// (tests/oracle/formula_corpus.py). Run with go test ./third_party/excelize -run 'ErrorArgument|IfCondition'.

package excelize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorArgumentPropagates(t *testing.T) {
	f := NewFile()
	require.NoError(t, f.SetCellFormula("Sheet1", "A1", "=1/0"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A2", "=NA()"))
	for _, tc := range []struct{ formula, want string }{
		{"=ABS(1/0)", "#DIV/0!"},
		{"=SIN(NA())", "#N/A"},
		{"=ROUND(A1,1)", "#DIV/0!"},
		{"=EXP(A2)", "#N/A"},
		{"=MOD(7,A1)", "#DIV/0!"},
		{"=FACT(A2)", "#N/A"},
		{"=IFERROR(ABS(A1),5)", "5"},
		{"=ABS(-2.5)", "2.5"},
		{"=ABS(\"3\")", "3"},
		{"=ABS(B9)", "0"}, // an empty cell is 0
		{"=SEC(1)", "1.85081571768093"},
		{"=SEC(0)", "1"},
		{"=SEC(-2.5)", "-1.24821565146882"},
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "C1", tc.formula))
		got, _ := f.CalcCellValue("Sheet1", "C1")
		assert.Equal(t, tc.want, got, tc.formula)
	}
}

func TestIfConditionIsAnyNonZeroNumber(t *testing.T) {
	f := NewFile()
	for _, tc := range []struct{ formula, want string }{
		{`=IF(-2.5,"yes","no")`, "yes"},
		{`=IF(2,"yes","no")`, "yes"},
		{`=IF(0.25,"yes","no")`, "yes"},
		{`=IF(1,"yes","no")`, "yes"},
		{`=IF(0,"yes","no")`, "no"},
		{`=IF(TRUE,"yes","no")`, "yes"},
		{`=IF(FALSE,"yes","no")`, "no"},
		{`=IF(1>2,"yes","no")`, "no"},
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "A1", tc.formula))
		got, err := f.CalcCellValue("Sheet1", "A1")
		require.NoError(t, err, tc.formula)
		assert.Equal(t, tc.want, got, tc.formula)
	}
}
