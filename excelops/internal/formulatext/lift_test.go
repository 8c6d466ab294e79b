package formulatext

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// TestLiftedCallsIn: which calls Excel lifts over arrays, whether a plain
// formula would intersect them (outside SUMPRODUCT), and whether the
// lifted array stands where neither an array nor a lifted call is taken.
func TestLiftedCallsIn(t *testing.T) {
	cases := []struct {
		formula                     string
		any, intersected, misplaced bool
	}{
		{"LEN(A1:A3)", true, true, false},
		{"SUM(IF(A1:A5>3,1,0))", true, true, false},
		{"SUMPRODUCT(LEN(A1:A3))", true, false, false},
		{"ABS({-1,2})", true, true, false},
		{"SUM(IF(ISNUMBER(SEARCH(\"a\",B1:B5)),1,0))", true, true, false},
		{"ISNUMBER(FILTER(A1:A5,A1:A5>2))", true, true, false},
		{"COUNTIF(LEN(A1:A3),1)", true, true, true},
		{"IF(A1>0,B1:B3,0)", false, false, false},
		{"LEN(A1)", false, false, false},
		{"ABS(SUM(A1:A3))", false, false, false},
		{"VLOOKUP(A1,B1:C5,2,FALSE)", false, false, false},
		{"VLOOKUP(A1:A2,B1:C5,2,FALSE)", true, true, false},
		{"SUM(A1:A5*B1:B5)", false, false, false},
	}
	for _, c := range cases {
		got := liftedCallsIn(formulatok.Tokens(c.formula))
		assert.Equal(t, liftedCalls{c.any, c.intersected, c.misplaced}, got, c.formula)
	}
}
