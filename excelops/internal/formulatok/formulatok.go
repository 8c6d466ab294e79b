// Package formulatok holds the few questions excelops asks of a formula's
// tokens (github.com/xuri/efp): tokenize it, name the function a token
// opens, tell whether it calls a function. The package map is in
// ARCHITECTURE.md at the root of the repository.
package formulatok

import (
	"strings"

	"github.com/xuri/efp"
)

// FunctionName returns the name of the function a token starts, upper-case
// and without the _xlfn. and _xlws. prefixes a file gives newer functions;
// ok is false for any other token.
func FunctionName(tk efp.Token) (name string, ok bool) {
	if tk.TType != efp.TokenTypeFunction || tk.TSubType != efp.TokenSubTypeStart {
		return "", false
	}
	name = strings.ToUpper(tk.TValue)
	for _, p := range []string{"_XLFN.", "_XLWS."} {
		name = strings.TrimPrefix(name, p)
	}
	return name, true
}

// Tokens tokenizes formula, given with or without its "=".
func Tokens(formula string) []efp.Token {
	ps := efp.ExcelParser()
	return ps.Parse("=" + strings.TrimPrefix(formula, "="))
}

// CallsAny reports whether formula calls a function whose name (as
// FunctionName gives it) satisfies is.
func CallsAny(formula string, is func(name string) bool) bool {
	return TokensCall(Tokens(formula), is)
}

// TokensCall is CallsAny over a formula's tokens.
func TokensCall(tokens []efp.Token, is func(name string) bool) bool {
	for _, tk := range tokens {
		if name, ok := FunctionName(tk); ok && is(name) {
			return true
		}
	}
	return false
}
