package formulatext

import (
	"slices"
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// Inexact reports whether the engine computes a formula of these tokens
// (as AreaIndexAsRange gives them) unlike Excel even as an array formula:
// an operator applies to a range, or a lifted call's array stands, inside
// a function that neither takes arrays nor is lifted over them
// (liftedArithmetic, liftedCalls.misplaced), or the @ applies to a
// function's result. What the formula reads (a SUBTOTAL in its range) is
// the caller's to check.
func Inexact(tokens []efp.Token) bool {
	return liftedArithmetic(tokens) || liftedCallsIn(tokens).misplaced || intersectsNonReference(tokens)
}

// intersectsNonReference reports whether the implicit intersection
// operator applies to something other than a reference or a value
// (@INDEX(A1:A10,0), stored _xlfn.SINGLE(INDEX(A1:A10,0))): Excel
// intersects the reference the function returns with the formula's row or
// column, the engine, which turns it into an array, takes its first value.
func intersectsNonReference(tokens []efp.Token) bool {
	for i, tk := range tokens {
		if name, ok := formulatok.FunctionName(tk); !ok || name != "SINGLE" {
			continue
		}
		if i+2 >= len(tokens) || tokens[i+1].TType != efp.TokenTypeOperand ||
			tokens[i+2].TType != efp.TokenTypeFunction || tokens[i+2].TSubType != efp.TokenSubTypeStop {
			return true
		}
	}
	return false
}

// Subtotals reports whether the function name is SUBTOTAL or AGGREGATE,
// the two that leave nested ones out.
func Subtotals(name string) bool {
	return name == "SUBTOTAL" || name == "AGGREGATE"
}

// rangeArithmetic reports whether an operator applies to a multi-cell
// range (B1:C1*B2:C2, A1:A3>0) outside the arguments of SUMPRODUCT, which
// takes arrays in any formula.
func rangeArithmetic(tokens []efp.Token) bool {
	return rangeOperandWhere(tokens, func(calls []string) bool { return !slices.Contains(calls, "SUMPRODUCT") })
}

// rangeOperandWhere reports whether some multi-cell range an operator
// applies to (operatesOnRange) satisfies match, given the functions whose
// arguments it stands in, outermost first.
func rangeOperandWhere(tokens []efp.Token, match func(calls []string) bool) bool {
	var calls []string
	for i, tk := range tokens {
		if name, ok := formulatok.FunctionName(tk); ok {
			calls = append(calls, name)
			continue
		}
		if tk.TType == efp.TokenTypeFunction && tk.TSubType == efp.TokenSubTypeStop && len(calls) > 0 {
			calls = calls[:len(calls)-1]
			continue
		}
		if operatesOnRange(tokens, i) && match(calls) {
			return true
		}
	}
	return false
}

// operatesOnRange reports whether tokens[i] is a multi-cell range an
// operator applies to (an operator token next to it).
func operatesOnRange(tokens []efp.Token, i int) bool {
	tk := tokens[i]
	if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeRange || !strings.Contains(tk.TValue, ":") {
		return false
	}
	for _, j := range []int{i - 1, i + 1} {
		if j >= 0 && j < len(tokens) && isOperatorToken(tokens[j]) {
			return true
		}
	}
	return false
}

// isOperatorToken reports whether tk is an operator: infix, prefix or
// postfix (%).
func isOperatorToken(tk efp.Token) bool {
	return tk.TType == efp.TokenTypeOperatorInfix || tk.TType == efp.TokenTypeOperatorPrefix || tk.TType == efp.TokenTypeOperatorPostfix
}
