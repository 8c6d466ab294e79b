// registry-sidecar addition: Excel's LET (PATCHES.md, section 10).
//
// The calculator evaluates every argument of a function before calling it,
// so a name LET binds cannot be looked up at run time. Instead LET is
// expanded in the formula's tokens before evaluation: each name is replaced
// by its value expression, in parentheses, in the values after it and in
// the body, innermost LET first (so an inner LET's names shadow an outer
// one's). LET(x,2,y,x*3,x+y) is evaluated as ((2))+((2)*3). A value is thus
// evaluated once per use instead of once: the same result except for
// volatile functions (RAND() named once and used twice gives two numbers),
// and the expansion is bounded (maxLetTokens) against a chain of names each
// using the previous one twice.

package excelize

import (
	"errors"
	"strings"

	"github.com/xuri/efp"
)

// maxLetTokens bounds the tokens a formula's LETs expand to.
const maxLetTokens = 1 << 16

// errLetExpansion is the error of a formula whose LETs expand past
// maxLetTokens: not an Excel error, the formula is left uncomputed.
var errLetExpansion = errors.New("LET expands to more than 65536 tokens: not supported")

// isLetStart reports whether token starts a call of LET.
func isLetStart(token efp.Token) bool {
	return token.TType == efp.TokenTypeFunction && token.TSubType == efp.TokenSubTypeStart &&
		strings.EqualFold(strings.TrimPrefix(strings.ToUpper(token.TValue), "_XLFN."), "LET")
}

// letName returns the name a LET parameter token spells (lower case, the
// file's _xlpm. prefix dropped), ok false when token is not a name.
func letName(token efp.Token) (string, bool) {
	if token.TType != efp.TokenTypeOperand || token.TSubType != efp.TokenSubTypeRange {
		return "", false
	}
	name := strings.ToLower(token.TValue)
	name = strings.TrimPrefix(name, "_xlpm.")
	if name == "" || strings.ContainsAny(name, "!:$'[]") {
		return "", false
	}
	if _, _, err := CellNameToCoordinates(name); err == nil {
		return "", false // A1 is a cell, not a name
	}
	return name, true
}

// opens and closes tell how a token changes the nesting of the formula.
func opens(token efp.Token) bool {
	return token.TSubType == efp.TokenSubTypeStart &&
		(token.TType == efp.TokenTypeFunction || token.TType == efp.TokenTypeSubexpression)
}

func closes(token efp.Token) bool {
	return token.TSubType == efp.TokenSubTypeStop &&
		(token.TType == efp.TokenTypeFunction || token.TType == efp.TokenTypeSubexpression)
}

// expandLet returns tokens with every LET call replaced by its body, the
// names it binds replaced by their values. A LET without an odd number of
// arguments (at least 3), or whose parameters are not names, is #VALUE!.
func expandLet(guard *calcGuard, tokens []efp.Token) ([]efp.Token, error) {
	has := false
	for _, t := range tokens {
		if isLetStart(t) {
			has = true
			break
		}
	}
	if !has {
		return tokens, nil
	}
	budget := maxLetTokens
	out, stop, err := expandLetFrom(guard, tokens, 0, &budget)
	if err == nil && stop < len(tokens) {
		err = ErrInvalidFormula
	}
	return unwrapped(out), err
}

// unwrapped returns tokens without parentheses around them all: a formula
// that is one LET ending with a function returning an array keeps its
// array (keepsArray looks for the call as the formula's last token).
func unwrapped(tokens []efp.Token) []efp.Token {
	for len(tokens) >= 2 && isBeginParenthesesToken(tokens[0]) {
		depth := 0
		for i, t := range tokens {
			if opens(t) {
				depth++
			} else if closes(t) {
				depth--
			}
			if depth == 0 && i < len(tokens)-1 {
				return tokens
			}
		}
		tokens = tokens[1 : len(tokens)-1]
	}
	return tokens
}

// expandLetFrom expands tokens from i up to the stop token closing the
// level i is in (or the end), returning the expansion and the index of that
// stop token (len(tokens) at the end).
func expandLetFrom(guard *calcGuard, tokens []efp.Token, i int, budget *int) ([]efp.Token, int, error) {
	var out []efp.Token
	for i < len(tokens) {
		t := tokens[i]
		if closes(t) {
			return out, i, nil
		}
		if isLetStart(t) {
			body, next, err := expandLetCall(guard, tokens, i+1, budget)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, body...)
			i = next
			continue
		}
		out = append(out, t)
		i++
		if opens(t) {
			inner, stop, err := expandLetFrom(guard, tokens, i, budget)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, inner...)
			if stop < len(tokens) {
				out = append(out, tokens[stop])
			}
			i = stop + 1
		}
	}
	return out, i, nil
}

// expandLetCall expands the arguments of the LET call whose first argument
// starts at i, and returns its body in parentheses and the index after the
// call's stop token.
func expandLetCall(guard *calcGuard, tokens []efp.Token, i int, budget *int) ([]efp.Token, int, error) {
	var args [][]efp.Token
	for {
		arg, stop, err := expandLetArg(guard, tokens, i, budget)
		if err != nil {
			return nil, 0, err
		}
		args = append(args, arg)
		if stop >= len(tokens) {
			return nil, 0, errors.New("LET is not closed")
		}
		i = stop + 1
		if closes(tokens[stop]) {
			break
		}
	}
	if len(args) < 3 || len(args)%2 == 0 {
		return nil, 0, errors.New("LET requires names with values and a calculation")
	}
	names := make([]string, 0, len(args)/2)
	for k := 0; k+1 < len(args); k += 2 {
		if len(args[k]) != 1 {
			return nil, 0, errors.New("LET requires a name as its parameter")
		}
		name, ok := letName(args[k][0])
		if !ok {
			return nil, 0, errors.New("LET requires a name as its parameter")
		}
		names = append(names, name)
	}
	for k, name := range names {
		value := args[2*k+1]
		targets := []int{len(args) - 1} // the body, and the values after this one
		for later := 2*k + 3; later < len(args)-1; later += 2 {
			targets = append(targets, later)
		}
		for _, later := range targets {
			expanded, err := substituteLetName(guard, args[later], name, value, budget)
			if err != nil {
				return nil, 0, err
			}
			args[later] = expanded
		}
	}
	body := args[len(args)-1]
	out := make([]efp.Token, 0, len(body)+2)
	out = append(out, efp.Token{TValue: "(", TType: efp.TokenTypeSubexpression, TSubType: efp.TokenSubTypeStart})
	out = append(out, body...)
	out = append(out, efp.Token{TValue: ")", TType: efp.TokenTypeSubexpression, TSubType: efp.TokenSubTypeStop})
	return out, i, nil
}

// expandLetArg expands one argument of a call from i: up to the argument
// separator or the stop token at its own level, whose index it returns.
func expandLetArg(guard *calcGuard, tokens []efp.Token, i int, budget *int) ([]efp.Token, int, error) {
	var out []efp.Token
	for i < len(tokens) {
		t := tokens[i]
		if closes(t) || t.TType == efp.TokenTypeArgument {
			return out, i, nil
		}
		if isLetStart(t) {
			body, next, err := expandLetCall(guard, tokens, i+1, budget)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, body...)
			i = next
			continue
		}
		out = append(out, t)
		i++
		if opens(t) {
			inner, stop, err := expandLetFrom(guard, tokens, i, budget)
			if err != nil {
				return nil, 0, err
			}
			out = append(out, inner...)
			if stop < len(tokens) {
				out = append(out, tokens[stop])
			}
			i = stop + 1
		}
	}
	return out, i, nil
}

// substituteLetName replaces each use of name in tokens by value in
// parentheses, counting the tokens it adds against budget and the guard. A
// value that is one LAMBDA is put without parentheses, and a call of the
// name, f(3), becomes a call of that LAMBDA: LAMBDA(x,x*2)(3).
func substituteLetName(guard *calcGuard, tokens []efp.Token, name string, value []efp.Token, budget *int) ([]efp.Token, error) {
	lambda := isOneLambda(value)
	uses := 0
	for _, t := range tokens {
		if n, ok := letName(t); (ok && n == name) || (lambda && isLetCall(t, name)) {
			uses++
		}
	}
	if uses == 0 {
		return tokens, nil
	}
	added := uses * (len(value) + 1)
	if *budget -= added; *budget < 0 {
		return nil, errLetExpansion
	}
	if err := guard.spend(float64(added)); err != nil {
		return nil, err
	}
	out := make([]efp.Token, 0, len(tokens)+added)
	var calls []bool // for each open token, whether it is a call of name
	for _, t := range tokens {
		switch n, ok := letName(t); {
		case ok && n == name && lambda:
			out = append(out, value...)
		case ok && n == name:
			out = append(out, efp.Token{TValue: "(", TType: efp.TokenTypeSubexpression, TSubType: efp.TokenSubTypeStart})
			out = append(out, value...)
			out = append(out, efp.Token{TValue: ")", TType: efp.TokenTypeSubexpression, TSubType: efp.TokenSubTypeStop})
		case lambda && isLetCall(t, name):
			calls = append(calls, true)
			out = append(out, value...)
			out = append(out, efp.Token{TValue: "(", TType: efp.TokenTypeSubexpression, TSubType: efp.TokenSubTypeStart})
		case opens(t):
			calls = append(calls, false)
			out = append(out, t)
		case closes(t) && len(calls) > 0:
			call := calls[len(calls)-1]
			calls = calls[:len(calls)-1]
			if call {
				t = efp.Token{TValue: ")", TType: efp.TokenTypeSubexpression, TSubType: efp.TokenSubTypeStop}
			}
			out = append(out, t)
		default:
			out = append(out, t)
		}
	}
	return out, nil
}

// isLetCall reports whether t starts a call of the LET name name.
func isLetCall(t efp.Token, name string) bool {
	return isFunctionStartToken(t) && strings.EqualFold(strings.TrimPrefix(strings.ToLower(t.TValue), "_xlpm."), name)
}

// isOneLambda reports whether tokens are one LAMBDA, not called.
func isOneLambda(tokens []efp.Token) bool {
	if len(tokens) < 2 || !isNamedFunction(tokens[0], "LAMBDA") {
		return false
	}
	_, next, err := splitArgs(tokens, 1)
	return err == nil && next == len(tokens)
}
