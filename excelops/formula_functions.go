package excelops

import (
	"strings"

	"github.com/xuri/efp"
)

// functionName returns the name of the function a token starts, upper-case
// and without the _xlfn. and _xlws. prefixes a file gives newer functions;
// ok is false for any other token.
func functionName(tk efp.Token) (name string, ok bool) {
	if tk.TType != efp.TokenTypeFunction || tk.TSubType != efp.TokenSubTypeStart {
		return "", false
	}
	name = strings.ToUpper(tk.TValue)
	for _, p := range []string{"_XLFN.", "_XLWS."} {
		name = strings.TrimPrefix(name, p)
	}
	return name, true
}

// formulaTokensOf tokenizes formula, given with or without its "=".
func formulaTokensOf(formula string) []efp.Token {
	ps := efp.ExcelParser()
	return ps.Parse("=" + strings.TrimPrefix(formula, "="))
}

// callsAny reports whether formula calls a function whose name (as
// functionName gives it) is satisfies.
func callsAny(formula string, is func(name string) bool) bool {
	return tokensCall(formulaTokensOf(formula), is)
}

// tokensCall is callsAny over a formula's tokens.
func tokensCall(tokens []efp.Token, is func(name string) bool) bool {
	for _, tk := range tokens {
		if name, ok := functionName(tk); ok && is(name) {
			return true
		}
	}
	return false
}
