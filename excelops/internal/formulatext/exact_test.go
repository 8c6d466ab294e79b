package formulatext

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// TestLiftedArithmetic: an operator on a range inside a function that
// neither takes arrays nor is lifted over them (COUNTIF's range, ISREF) is
// computed by the engine unlike Excel, even as an array formula; inside a
// function taking arrays, or one the engine lifts as Excel does
// (SUM(IF(A1:A5>3,1,0)), ABS(A1:A3*-1)), it is not.
func TestLiftedArithmetic(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		want    bool
	}{
		{"SUM(IF(A1:A5>3,1,0))", false},
		{"ABS(A1:A3*-1)", false},
		{`COUNTIF(A1:A5*2,">3")`, true},
		{"ISREF(A1:A3*2)", true},
		{"SUM(A1:A5*B1:B5)", false},
		{"MATCH(TRUE,A1:A5>3,0)", false},
		{"A1:A5*10", false},
		{"IF(A1>3,SUM(A1:A5*2),0)", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, liftedArithmetic(formulatok.Tokens(c.formula)), c.formula)
	}
}

// TestInexact: what the engine computes unlike Excel even as an array
// formula, read from the tokens AreaIndexAsRange gives: an operator on a
// range or a lifted call inside a function that takes neither, and the @ of
// a function's result other than an INDEX returning several cells (which
// is a reference the engine intersects).
func TestInexact(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		want    bool
	}{
		{`COUNTIF(A1:A5*2,">3")`, true},
		{"COUNTIF(LEN(A1:A3),1)", true},
		{"_xlfn.SINGLE(INDEX(A1:A10,5))", true},
		{"_xlfn.SINGLE(INDEX(A1:A10,0))", false},
		{"_xlfn.SINGLE(A1:A10)", false},
		{"SUM(A1:A5*B1:B5)", false},
		{"LEN(A1:A3)", false},
		{"SUMPRODUCT(LEN(A1:A3))", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, Inexact(AreaIndexAsRange(formulatok.Tokens(c.formula))), c.formula)
	}
}
