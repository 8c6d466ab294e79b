package formulatext

import (
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Functions lifted over arrays. Excel 365 applies a function given an
// array where it takes one value (excelize.LiftsParameter) to each element
// (LEN(A1:A3), IF(A1:A5>3,1,0)) and the formula spills; a plain formula, as
// Excel before 365 computes it, intersects the range with its row instead.

// liftedCalls is what liftedCallsIn finds in a formula.
type liftedCalls struct {
	// any: some call is lifted over an array.
	any bool
	// intersected: some lifted call stands outside SUMPRODUCT, which takes
	// arrays in any formula: a plain formula would intersect its range.
	intersected bool
	// misplaced: a lifted call's array is an argument of a function that
	// neither takes arrays (takesArrays) nor lifts (COUNTIF(LEN(A1:A3),1)).
	misplaced bool
}

// liftCall is one function call open while liftedCallsIn walks a formula.
type liftCall struct {
	name     string
	arg      int  // the argument being read, 0-based
	argArray bool // that argument is an array
	lifted   bool // an array stands for one of its value parameters
}

// liftedCallsIn walks the tokens of a formula for calls that Excel lifts
// over arrays: a function given, for a value parameter, an argument that
// is an array (a multi-cell range or an array constant, alone or under an
// operator, or the result of a spilling function or of a lifted call).
func liftedCallsIn(tokens []efp.Token) liftedCalls {
	var (
		found liftedCalls
		stack = []liftCall{{}} // the formula itself, outside any call
	)
	top := func() *liftCall { return &stack[len(stack)-1] }
	closeArg := func() {
		c := top()
		if c.argArray && excelize.LiftsParameter(c.name, c.arg) {
			c.lifted = true
		}
		c.arg, c.argArray = c.arg+1, false
	}
	for i := 0; i < len(tokens); i++ {
		tk := tokens[i]
		if name, ok := formulatok.FunctionName(tk); ok {
			if name == "ARRAY" { // an array constant: one array operand
				i = constantEnd(tokens, i)
				top().argArray = true
				continue
			}
			stack = append(stack, liftCall{name: name})
			continue
		}
		switch {
		case tk.TType == efp.TokenTypeFunction && tk.TSubType == efp.TokenSubTypeStop && len(stack) > 1:
			closeArg()
			call := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if call.lifted {
				found.note(stack)
			}
			top().argArray = top().argArray || call.lifted || isSpillFunction(call.name)
		case tk.TType == efp.TokenTypeArgument && len(stack) > 1:
			closeArg()
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange && strings.Contains(tk.TValue, ":"):
			top().argArray = true
		}
	}
	return found
}

// note records a lifted call inside the calls open around it (outermost
// first, the formula itself at 0).
func (found *liftedCalls) note(around []liftCall) {
	found.any = true
	inSumproduct := false
	for _, c := range around {
		inSumproduct = inSumproduct || c.name == "SUMPRODUCT"
	}
	found.intersected = found.intersected || !inSumproduct
	if parent := around[len(around)-1].name; parent != "" && !takesArrays(parent) && !excelize.LiftsOverArrays(parent) {
		found.misplaced = true
	}
}

// constantEnd returns the index of the token closing the array constant
// (the call of ARRAY) that opens at tokens[i].
func constantEnd(tokens []efp.Token, i int) int {
	depth := 0
	for j := i; j < len(tokens); j++ {
		if tokens[j].TType != efp.TokenTypeFunction {
			continue
		}
		if tokens[j].TSubType == efp.TokenSubTypeStart {
			depth++
		} else if depth--; depth == 0 {
			return j
		}
	}
	return len(tokens) - 1
}
