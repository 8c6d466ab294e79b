package excelize

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/efp"
)

// TestPlainIntersection: a plain formula (no array formula, no dynamic
// array metadata) intersects a range where one value is taken with its
// row, as Excel before 365 and LibreOffice compute it. The cells are the
// oracle case intersection_plain_formulas (tests/oracle/cases_intersection.py)
// after its write of 7 to A5: A1:A10 the squares with A5 7, B1:B10 t1..t10.
// CalcCellArray of the same cell computes the formula as an array formula.
func TestPlainIntersection(t *testing.T) {
	f := NewFile()
	for i := 1; i <= 10; i++ {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i), i*i))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i), fmt.Sprintf("t%d", i)))
	}
	require.NoError(t, f.SetCellValue("Sheet1", "A5", 7))
	cases := []struct{ cell, formula, want string }{
		{"D5", "A1:A10*2", "14"},
		{"E5", "LEN(B1:B10)", "2"},
		{"F5", "A1:A10", "7"},
		{"G5", "N(A1:A10)", "7"},
		{"H5", "ROUND(A1:A10/3,1)", "2.3"},
		{"I5", `IF(A1:A10>20,"big","small")`, "small"},
		{"D6", "A1:A10&B1:B10", "36t6"},
		{"E6", "-A:A", "-36"},
		{"F6", "SUM(A1:A10)+A1:A10", "403"},
		{"D12", "A1:A10*2", "#VALUE!"},
		{"E12", "LEN(B1:B10)", "#VALUE!"},
	}
	for _, c := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", c.cell, c.formula))
		got, _ := f.CalcCellValue("Sheet1", c.cell)
		assert.Equal(t, c.want, got, "%s =%s", c.cell, c.formula)
	}
	arr, err := f.CalcCellArray(t.Context(), "Sheet1", "D12", CalcLimits{})
	require.NoError(t, err)
	assert.Equal(t, "2;8;18;32;14;72;98;128;162;200", arrayText(arr), "CalcCellArray: the whole array")
}

// TestPlainIntersectionExact: which plain formulas the calculator
// intersects wholly (exact), and which hold a range under an operator or
// a lifted call inside another function, where it does not.
func TestPlainIntersectionExact(t *testing.T) {
	cases := []struct {
		formula string
		exact   bool
	}{
		{"A1:A10*2", true},
		{"LEN(B1:B10)", true},
		{"SUM(A1:A10)+A1:A10", true},
		{"IF(A1>0,B1:B3,0)", true},
		{"SUMPRODUCT(A1:A5)", true},
		{"SUM(A1:A5*2)", false},
		{"SUMPRODUCT(A1:A5*B1:B5)", false},
		{"SUM(IF(A1:A5>3,1,0))", false},
		{"VLOOKUP(A1,B1:C5*1,2)", false},
		{"A1:B5 B2:C3", false},
		{"SUM((A1:A2,B1:B2))", false},
		{"INDEX(A1:A3,1):A5", false},
		{"INDEX(A1:C3,0,2)*2", true},
		{"LEN(INDEX(C1:C3,0))", true},
		{"SUM(INDEX(A1:C3,0,2))", true},
		{"SUM(INDEX(A1:C3,0,2)*2)", false},
		{"SUM(INDEX(A1:A3,2)*2)", true}, // one cell: nothing to intersect
	}
	for _, c := range cases {
		assert.Equal(t, c.exact, PlainIntersectionExact(c.formula), c.formula)
	}
}

// TestPlainIntersectionRewrite: the ranges a plain formula intersects are
// wrapped in SINGLE, and a formula building a reference is left whole.
func TestPlainIntersectionRewrite(t *testing.T) {
	cases := []struct{ formula, want string }{
		{"A1:A10*2", "SINGLE(A1:A10)*2"},
		{"SUM(A1:A10)+LEN(B1:B10)", "SUM(A1:A10)+LEN(SINGLE(B1:B10))"},
		{"A1:B5 B2:C3", "A1:B5B2:C3"},
		{"A1:A10+LEN(B1:B10)", "SINGLE(A1:A10)+LEN(SINGLE(B1:B10))"},
		{"INDEX(A1:A10,0)", "SINGLE(INDEX(A1:A10,0))"},
		{"INDEX(A1:C3,0,2)*2+A1:A3", "SINGLE(INDEX(A1:C3,0,2))*2+SINGLE(A1:A3)"},
		{"IF(B1>0,INDEX(A1:C3,2),0)", "IF(B1>0,SINGLE(INDEX(A1:C3,2)),0)"},
		{"SUM(INDEX(A1:C3,0,2))+INDEX(A1:A3,2)", "SUM(INDEX(A1:C3,0,2))+INDEX(A1:A3,2)"},
		// a row or column computed: intersected where a range would be, checked where
		// the engine would take a range whole under an operator, left in SUMPRODUCT
		{"INDEX(A1:C3,B1,2)", "SINGLE(INDEX(A1:C3,B1,2))"},
		{"INDEX(A1:C3,MATCH(5,B1:B3,0)-1,2)*2", "SINGLE(INDEX(A1:C3,MATCH(5,B1:B3,0)-1,2))*2"},
		{"SUM(INDEX(A1:C3,B1,2))", "SUM(INDEX(A1:C3,B1,2))"},
		{"SUM(INDEX(A1:C3,B1,2)*2)", "SUM(CHECK(INDEX(A1:C3,B1,2))*2)"},
		{"SUM(LEN(INDEX(C1:C3,B1)))", "SUM(LEN(CHECK(INDEX(C1:C3,B1))))"},
		{"SUMPRODUCT(INDEX(A1:C3,B1,2)*2)", "SUMPRODUCT(INDEX(A1:C3,B1,2)*2)"},
		{"INDEX(Data,2)+1", "SINGLE(INDEX(Data,2))+1"},
		{"SUM(INDEX(INDEX(A1:C3,B1,D1)*1,1))", "SUM(INDEX(CHECK(INDEX(A1:C3,B1,D1))*1,1))"},
		{"INDEX(INDEX(A1:C3,B1,D1)*1,C1)", "SINGLE(INDEX(CHECK(INDEX(A1:C3,B1,D1))*1,C1))"},
	}
	for _, c := range cases {
		ps := efp.ExcelParser()
		got := ""
		tokens := ps.Parse("=" + c.formula)
		plan := plainIntersection(tokens)
		for _, tk := range wrapCalls(tokens, map[string][]tokenSpan{"SINGLE": plan.single, checkOneCell: plan.checked}) {
			switch {
			case isFunctionStartToken(tk) && tk.TValue == checkOneCell:
				got += "CHECK("
			case isFunctionStartToken(tk):
				got += tk.TValue + "("
			case isFunctionStopToken(tk):
				got += ")"
			default:
				got += tk.TValue
			}
		}
		assert.Equal(t, c.want, got, c.formula)
	}
}
