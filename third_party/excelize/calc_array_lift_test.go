package excelize

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// liftBook is opsBook with D1:D5 apple, x, banana, cat, x. The oracle case
// spill_lifted_functions (tests/oracle/cases_spill.py) has the same cells
// and formulas, and LibreOffice 25.2 computes the values below from them.
func liftBook(t *testing.T) *File {
	t.Helper()
	f := opsBook(t)
	for i, s := range []string{"apple", "x", "banana", "cat", "x"} {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("D%d", i+1), s))
	}
	return f
}

// TestArrayLiftedFunctions checks functions given an array where they take
// one value, as Excel 365 computes them: applied to each element (a range,
// an array constant, an operator's or a function's array result), arrays
// stretched over one another as an operator's operands, #N/A where one has
// no element, an error in its own element, and the aggregates over the
// results.
func TestArrayLiftedFunctions(t *testing.T) {
	checkArrays(t, liftBook(t), []struct{ formula, want string }{
		{"ABS(A1:A3-4)", "3;2;1"},
		{"SUM(IF(A1:A5>3,1,0))", "2"},
		{`IF(A1:A5>3,"big","small")`, "small;small;small;big;big"},
		{"LEN(D1:D3)", "5;1;6"},
		{"ROUND(A1:A3*1.1,1)", "1.1;2.2;3.3"},
		{"SUM(--(A1:A5>2))", "3"},
		{"SUMPRODUCT(LEN(D1:D5))", "16"},
		{`MAX(IF(D1:D5="x",A1:A5))`, "5"},
		{`TEXT(A1:A3,"0.0")`, "1.0;2.0;3.0"},
		{"ISNUMBER(A3:C3)", "1,1,0"},
		{`SUM(IF(ISNUMBER(SEARCH("a",D1:D5)),1,0))`, "3"},
		{"IFERROR(1/B3:B5,-1)", "0.25;0.5;-1"},
		{"IF(A1:A3>1,B1:B3,C1:C3)", "x;6;4"},
		{"IF(A1:A3>2,A1:A3)", "0;0;3"},
		{"CHOOSE({1,2},A1,B1)", "1,8"},
		{"ROUND(A1:A2/3,{1,2})", "0.3,0.33;0.7,0.67"},
		{"MID(D3:D4,2,2)", "an;at"},
		{"VLOOKUP(A2:A3,A1:B5,2,FALSE)", "6;4"},
		{"ABS({-1,2;-3,4})", "1,2;3,4"},
		{`UPPER(D1:D2)&"!"`, "APPLE!;X!"},
		{"A1:A2+LEN(D1:D2)", "6;3"},
		{"ISBLANK(C1:C3)", "0;0;1"},
		{"N(A2:D2)", "2,6,#DIV/0!,0"},
		{"ABS(C1:C2)", "#VALUE!;#DIV/0!"},
		{"IF({1,0,1},{1,2},0)", "1,0,#N/A"},
		{`SUM(--(D1:D5="x"))`, "2"},
		{"--TRUE", "1"},
		{"---A2", "-2"},
	})
}

// TestArrayLiftKinds checks the table of parameters that lift: a value
// parameter lifts, a range or array parameter does not, IF's results are
// paired only when its condition lifts, and an aggregate never lifts.
func TestArrayLiftKinds(t *testing.T) {
	cases := []struct {
		name  string
		param int
		lifts bool
	}{
		{"ABS", 0, true},
		{"ROUND", 1, true},
		{"CONCATENATE", 5, true},
		{"IF", 0, true},
		{"IF", 1, false},
		{"VLOOKUP", 0, true},
		{"VLOOKUP", 1, false},
		{"VLOOKUP", 3, true},
		{"CEILING.MATH", 0, true},
		{"SUM", 0, false},
		{"INDEX", 0, false},
		{"NOSUCH", 0, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.lifts, LiftsParameter(c.name, c.param), "%s parameter %d", c.name, c.param)
	}
	assert.True(t, LiftsOverArrays("IF"))
	assert.False(t, LiftsOverArrays("SUM"))
}
