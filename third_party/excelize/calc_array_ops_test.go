package excelize

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// opsBook is the sheet of the operator cases: A1:A5 1..5, B1:B5 8,6,4,2,0,
// C1 text, C2 #DIV/0!, C3 blank. The oracle case spill_array_operators
// (tests/oracle/cases_spill.py) has the same cells and formulas, and
// LibreOffice 25.2 computes the values below from them.
func opsBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	for i, b := range []int{8, 6, 4, 2, 0} {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i+1), i+1))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i+1), b))
	}
	require.NoError(t, f.SetCellValue("Sheet1", "C1", "x"))
	require.NoError(t, f.SetCellFormula("Sheet1", "C2", "1/0"))
	return f
}

// TestArrayOperators checks operators over arrays as Excel 365 computes
// them: element by element, a single row or column stretched, #N/A where
// sizes differ, errors per element, and the aggregates over the results.
func TestArrayOperators(t *testing.T) {
	checkArrays(t, opsBook(t), []struct{ formula, want string }{
		{"SEQUENCE(3)*2", "2;4;6"},
		{"A1:A5*10", "10;20;30;40;50"},
		{"A1:A5>3", "0;0;0;1;1"},
		{"{1,2}+{10;20}", "11,12;21,22"},
		{"{1,2,3}*{1,2}", "1,4,#N/A"},
		{"{1;2}*{1;2;3}", "1;4;#N/A"},
		{"FILTER(A1:A5,A1:A5>3)", "4;5"},
		{"FILTER(A1:B5,(A1:A5>1)*(B1:B5<5))", "3,4;4,2;5,0"},
		{"SUM(A1:A5*B1:B5)", "40"},
		{"SUMPRODUCT((A1:A5>2)*B1:B5)", "6"},
		{"SUM(TRANSPOSE({1,2;3,4}))", "10"},
		{"TRANSPOSE(A1:A3*2)", "2,4,6"},
		{"-A1:A3", "-1;-2;-3"},
		{"A1:A2%", "0.01;0.02"},
		{"A1:A3^2", "1;4;9"},
		{"A1:A2&\"x\"", "1x;2x"},
		{"A1:A3/B3:B5", "0.25;1;#DIV/0!"},
		{"C1:C3*2", "#VALUE!;#DIV/0!;0"},
		{"C1:C3&\"!\"", "x!;#DIV/0!;!"},
		{"C1:C3=\"\"", "0;#DIV/0!;1"},
		{"SUM({-1,2})", "1"},
		{"SUM({1,2}*{3,4})", "11"},
		{"{\"a\",\"B\"}<\"b\"", "1,0"},
		{"{1,\"1\"}>0", "1,1"},
		{"0.1+0.2=0.3", "1"},
		{"1234567&\"\"", "1234567"},
		{"ROWS(FILTER(A1:A5,A1:A5>2))", "3"},
		{"COLUMNS({1,2,3})", "3"},
		{"ROWS(A1:A5*2)", "5"},
	})
}
