package formulatext

import (
	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// INDEX with a row or column of 0 (INDEX(A1:C3,0,2)) returns a reference
// of several cells, which Excel treats as it treats a range written out:
// a plain formula intersects it with its row (INDEX(A1:C3,0,2)*2 in row 2
// is B2*2), Excel 365 spills it. The analyses of this package that look
// for ranges read such a call as one.

// areaIndexRange is the operand that stands for a call of INDEX returning
// several cells in the tokens AreaIndexAsRange gives.
const areaIndexRange = "INDEX(...):INDEX(...)"

// AreaIndexAsRange returns tokens with each call of INDEX that returns a
// reference of several cells as written (excelize.AreaIndexCalls) replaced
// by one multi-cell range operand; tokens itself when there is none.
func AreaIndexAsRange(tokens []efp.Token) []efp.Token {
	calls := excelize.AreaIndexCalls(tokens)
	if len(calls) == 0 {
		return tokens
	}
	out := make([]efp.Token, 0, len(tokens))
	for i := 0; i < len(tokens); i++ {
		if len(calls) > 0 && calls[0][0] == i {
			out = append(out, efp.Token{TValue: areaIndexRange, TType: efp.TokenTypeOperand, TSubType: efp.TokenSubTypeRange})
			i, calls = calls[0][1], dropInside(calls[1:], calls[0][1])
			continue
		}
		out = append(out, tokens[i])
	}
	return out
}

// dropInside drops the leading calls that start before end (nested in a
// call replaced whole).
func dropInside(calls [][2]int, end int) [][2]int {
	for len(calls) > 0 && calls[0][0] < end {
		calls = calls[1:]
	}
	return calls
}

// callsIndex reports whether the function name is INDEX, whose result
// spills when a row or column of 0 makes it several cells.
func callsIndex(name string) bool {
	return name == "INDEX"
}
