package formulatext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestMaySpill checks which formulas write_cells treats as possibly
// spilling (and so hands to the excelize path): a call of an array function
// anywhere, with or without the file prefixes, not a name in a text.
func TestMaySpill(t *testing.T) {
	cases := []struct {
		formula string
		want    bool
	}{
		{"SEQUENCE(3)", true},
		{"=_xlfn.UNIQUE(A1:A3)", true},
		{"SUM(_xlfn._xlws.FILTER(A1:A3,A1:A3>1))", true},
		{"SUM(A1:A3)", false},
		{"SUM(A1:A3)+1", false},
		{"A1:A5*10", true},
		{"-A1:A5", true},
		{"{1,2}+{10;20}", true},
		{"A1:A5", true},
		{"SUM({1,2})", false},
		{`"SEQUENCE(3)"`, false},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, MaySpill(tc.formula), tc.formula)
	}
}
