// registry-sidecar: an error argument goes on as itself through the
// functions that read a number (PATCHES.md, section "An error is no
// number"), and SEC is the secant. Found by the LibreOffice formula corpus
// (tests/oracle/formula_corpus.py). Run with go test ./third_party/excelize -run ErrorArgument.

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
