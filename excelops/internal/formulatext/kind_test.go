package formulatext

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestResultKind: what a formula's text tells of its result's type: text
// for a top-level "&", a text literal or a top-level text function (the
// complex-number ones included, not those answering a part or the
// modulus), the reference itself when it is one alone, nothing otherwise.
func TestResultKind(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		kind    Kind
		ref     string
	}{
		{`A1&"x"`, KindText, ""},
		{`="007"`, KindText, ""},
		{`TEXT(A1,"0")`, KindText, ""},
		{"_xlfn.CONCAT(A1,B1)", KindText, ""},
		{"LEFT(A1&B1,2)", KindText, ""},
		{"IMSQRT(12)", KindText, ""},
		{`IMABS("3+4i")`, KindAny, ""},
		{`TEXT(A1,"0")+1`, KindAny, ""},
		{`IF(A1,"a","b")`, KindAny, ""},
		{"SUM(A1:A3)", KindAny, ""},
		{"", KindAny, ""},
		{"=Sheet2!$B$3", KindReference, "Sheet2!$B$3"},
		{" A1 ", KindReference, "A1"},
	}
	for _, c := range cases {
		kind, ref := ResultKind(c.formula)
		assert.Equal(t, c.kind, kind, c.formula)
		assert.Equal(t, c.ref, ref, c.formula)
	}
}
