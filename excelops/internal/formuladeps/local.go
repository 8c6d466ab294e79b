package formuladeps

import (
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// Names a LET or LAMBDA binds are local to it: they read no cell, so the
// dependency scan (Scan) passes over them rather than take them for
// defined names. A name is local only where its LET or LAMBDA binds
// it: a LET's name from the argument after its value on, a LAMBDA's
// parameters in its body (its last argument). The same name elsewhere in
// the formula (its own value included) is what it is there (a defined
// name, say).

// bindingCall is a function call (or parenthesised expression) open at a
// point of the scan.
type bindingCall struct {
	name  string         // the function's name as formulatok.FunctionName gives it ("" for parentheses)
	arg   int            // the argument the scan is in, from 0
	nargs int            // how many arguments the call has
	bound map[string]int // the names it binds so far (upper case, without _xlpm.), each at its argument
}

// sees reports whether name, met in c's current argument, is one c binds.
func (c bindingCall) sees(name string) bool {
	at, ok := c.bound[name]
	switch {
	case !ok:
		return false
	case c.name == "LAMBDA":
		return c.arg == c.nargs-1
	default:
		return c.arg >= at+2
	}
}

// LocalNames reports, for each of toks (a tokenized formula), whether it
// is a name a LET or LAMBDA around it binds at that point, or the name a
// LET or LAMBDA binds where it binds it; nil when the formula calls
// neither.
func LocalNames(toks []efp.Token) []bool {
	nargs := callArity(toks)
	if nargs == nil {
		return nil
	}
	local := make([]bool, len(toks))
	var stack []bindingCall
	for i, tk := range toks {
		switch {
		case tk.TSubType == efp.TokenSubTypeStart && (tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression):
			name, _ := formulatok.FunctionName(tk)
			stack = append(stack, bindingCall{name: name, nargs: nargs[i]})
		case tk.TSubType == efp.TokenSubTypeStop && (tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression):
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case tk.TType == efp.TokenTypeArgument && len(stack) > 0:
			stack[len(stack)-1].arg++
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange:
			name := strings.TrimPrefix(strings.ToUpper(tk.TValue), "_XLPM.")
			if n := len(stack); n > 0 && bindsHere(stack[n-1], toks, i) {
				if stack[n-1].bound == nil {
					stack[n-1].bound = map[string]int{}
				}
				stack[n-1].bound[name] = stack[n-1].arg
				local[i] = true
				continue
			}
			for _, c := range stack {
				if c.sees(name) {
					local[i] = true
					break
				}
			}
		}
	}
	return local
}

// bindsHere reports whether the name toks[i], inside call c, is a name c
// binds: it stands alone as an argument of LET in a name's place (an
// argument of even index before the last) or of LAMBDA before the last.
func bindsHere(c bindingCall, toks []efp.Token, i int) bool {
	if c.arg >= c.nargs-1 || !(c.name == "LAMBDA" || c.name == "LET" && c.arg%2 == 0) {
		return false
	}
	prev, next := significant(toks, i, -1), significant(toks, i, 1)
	opens := prev >= 0 && (toks[prev].TType == efp.TokenTypeArgument || toks[prev].TSubType == efp.TokenSubTypeStart)
	closes := next >= 0 && toks[next].TType == efp.TokenTypeArgument
	return opens && closes
}

// callArity returns, for each token of toks that opens a call or a
// parenthesised expression, how many arguments it has (other tokens
// hold 0); nil when the formula calls neither LET nor LAMBDA.
func callArity(toks []efp.Token) []int {
	binds := false
	for _, tk := range toks {
		if name, ok := formulatok.FunctionName(tk); ok && (name == "LET" || name == "LAMBDA") {
			binds = true
			break
		}
	}
	if !binds {
		return nil
	}
	nargs := make([]int, len(toks))
	var open []int
	for i, tk := range toks {
		switch {
		case tk.TSubType == efp.TokenSubTypeStart && (tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression):
			open = append(open, i)
			nargs[i] = 1
		case tk.TSubType == efp.TokenSubTypeStop && (tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression):
			if len(open) > 0 {
				open = open[:len(open)-1]
			}
		case tk.TType == efp.TokenTypeArgument && len(open) > 0:
			nargs[open[len(open)-1]]++
		}
	}
	return nargs
}

// significant returns the index of the first token from i in direction
// step (1 or -1), i excluded, that is not whitespace, or -1.
func significant(toks []efp.Token, i, step int) int {
	for j := i + step; j >= 0 && j < len(toks); j += step {
		if toks[j].TType != efp.TokenTypeWhitespace {
			return j
		}
	}
	return -1
}
