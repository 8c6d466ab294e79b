package formulatext

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// TestIndexAreaAnalyses: a call of INDEX returning several cells as
// written (a row or column of 0) counts as a range for what a plain
// formula intersects and what write_cells spills or stores as an array
// formula; INDEX of one cell does not.
func TestIndexAreaAnalyses(t *testing.T) {
	cases := []struct {
		formula                    string
		maySpill, intersected, arr bool // maySpill, intersectedInPlain, needsArrayFormula
	}{
		{"INDEX(A1:C3,0,2)", true, false, false},
		{"INDEX(A1:C3,0,2)*2", true, true, true},
		{"SUM(INDEX(A1:C3,0,2)*2)", true, true, true},
		{"LEN(INDEX(C1:C3,0))", true, true, true},
		{"SUM(INDEX(A1:C3,0,2))", true, false, false},
		{"SUMPRODUCT(INDEX(A1:C3,0,2)*2)", true, false, false},
		{"INDEX(A1:C3,2,3)*2", true, false, false},
		{"IFERROR(INDEX(A1:A10,MATCH(5,B1:B10,0)),0)", true, false, false},
		{"SUM(A1:A3)", false, false, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.maySpill, MaySpill(c.formula), "maySpill %s", c.formula)
		assert.Equal(t, c.intersected, IntersectedInPlain(formulatok.Tokens(c.formula)), "intersectedInPlain %s", c.formula)
		assert.Equal(t, c.arr, NeedsArrayFormula(c.formula), "needsArrayFormula %s", c.formula)
	}
}

// TestAreaIndexAsRange: each call of INDEX returning several cells, nested
// ones with it, becomes one range operand; other tokens stay.
func TestAreaIndexAsRange(t *testing.T) {
	cases := []struct {
		formula string
		want    int // tokens left
	}{
		{"INDEX(A1:A10,0)", 1},
		{"INDEX(INDEX(A1:C3,0,0),0,2)*2", 3},
		{"SUM(INDEX(A1:C3,0,2),INDEX(A1:C3,2,0))", 5},
		{"INDEX(A1:C3,2,3)", 7},
	}
	for _, c := range cases {
		got := AreaIndexAsRange(formulatok.Tokens(c.formula))
		assert.Len(t, got, c.want, c.formula)
	}
}
