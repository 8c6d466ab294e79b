package formulatok

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFunctionNames(t *testing.T) {
	for _, c := range []struct {
		formula string
		want    []string
	}{
		{"=SUM(A1,2)", []string{"SUM"}},
		{"_xlfn.XLOOKUP(A1,B:B,C:C)", []string{"XLOOKUP"}},
		{"_xlfn._xlws.SORT(A1:A3)", []string{"SORT"}},
		{"sum(max(A1),_xlfn.anchorarray(C3))", []string{"SUM", "MAX", "ANCHORARRAY"}},
		{`"SUM(A1)"&A2`, nil}, // inside a string, no call
		{"A1+(B1*2)", nil},    // parentheses open no function
	} {
		var got []string
		for _, tk := range Tokens(c.formula) {
			if name, ok := FunctionName(tk); ok {
				got = append(got, name)
			}
		}
		assert.Equal(t, c.want, got, c.formula)
	}
}

func TestCallsAny(t *testing.T) {
	isNow := func(name string) bool { return name == "NOW" }
	for _, c := range []struct {
		formula string
		want    bool
	}{
		{"NOW()-A1", true},
		{"=IF(A1,_xlfn.NOW(),0)", true},
		{`"NOW()"`, false},
		{"NOWHERE(A1)", false},
		{"A1", false},
	} {
		assert.Equal(t, c.want, CallsAny(c.formula, isNow), c.formula)
		assert.Equal(t, c.want, TokensCall(Tokens(c.formula), isNow), c.formula)
	}
}
