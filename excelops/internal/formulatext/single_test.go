package formulatext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSingleCalls checks how the @ operator is stored (as Excel 365 writes
// it, _xlfn.SINGLE) and shown back, and what keeps its @: text, quoted
// sheet names and structured references.
func TestSingleCalls(t *testing.T) {
	cases := []struct{ shown, stored string }{
		{"@A1:A10", "_xlfn.SINGLE(A1:A10)"},
		{"SUM(@$A$1:$A$10)*2", "SUM(_xlfn.SINGLE($A$1:$A$10))*2"},
		{"@'My Sheet'!B:B+1", "_xlfn.SINGLE('My Sheet'!B:B)+1"},
		{"@Prices", "_xlfn.SINGLE(Prices)"},
		{"@INDEX(A1:B2,1,0)", "_xlfn.SINGLE(INDEX(A1:B2,1,0))"},
		{"@(A1:A3+1)", "_xlfn.SINGLE(A1:A3+1)"},
		{`"a@b"&Table1[@Qty]`, `"a@b"&Table1[@Qty]`},
		{"A1:A10", "A1:A10"},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.stored, withSingleCalls(tc.shown), tc.shown)
		assert.Equal(t, tc.shown, withAtSigns(tc.stored), tc.stored)
	}
}
