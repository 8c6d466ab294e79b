package formulatext

import (
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Operators over arrays. Excel 365 applies an operator to a range or an
// array constant element by element (A1:A5*10, {1,2}+{10;20}) and spills
// the result; a formula written so is a dynamic array formula even when its
// result is one value (SUM(A1:A5*B1:B5)), since Excel before 365, and a
// workbook's plain formula, would intersect the range with the formula's
// row instead.

// arrayOperation reports whether formula (with or without its "=")
// applies an operator to an array (a multi-cell range or an array
// constant next to an operator), calls a function lifted over an array
// (liftedCallsIn: LEN(A1:A3)), or is a multi-cell range alone (=A1:A5):
// its result can be an array that spills.
func arrayOperation(formula string) bool {
	tokens := formulatok.Tokens(WithoutSpillMarks(formula))
	if len(tokens) == 1 && tokens[0].TSubType == efp.TokenSubTypeRange && strings.Contains(tokens[0].TValue, ":") {
		return true
	}
	if liftedCallsIn(tokens).any {
		return true
	}
	edges := arrayConstantEdges(tokens)
	for i := range tokens {
		if operatesOnRange(tokens, i) {
			return true
		}
		if !edges[i] {
			continue
		}
		for _, j := range []int{i - 1, i + 1} {
			if j >= 0 && j < len(tokens) && isOperatorToken(tokens[j]) {
				return true
			}
		}
	}
	return false
}

// arrayConstantEdges marks the tokens that open or close an array constant
// ({ and }): the tokenizer spells one as a call of ARRAY whose rows are
// calls of ARRAYROW.
func arrayConstantEdges(tokens []efp.Token) map[int]bool {
	var (
		edges map[int]bool
		calls []string
	)
	for i, tk := range tokens {
		if tk.TType != efp.TokenTypeFunction {
			continue
		}
		if tk.TSubType == efp.TokenSubTypeStart {
			calls = append(calls, tk.TValue)
		} else if len(calls) > 0 {
			tk.TValue, calls = calls[len(calls)-1], calls[:len(calls)-1]
		}
		if tk.TValue == "ARRAY" {
			if edges == nil {
				edges = map[int]bool{}
			}
			edges[i] = true
		}
	}
	return edges
}

// NeedsArrayFormula reports whether formula must be stored as a dynamic
// array formula even when its result is one value: an operator applies to
// a multi-cell range, or a function is lifted over an array, outside
// SUMPRODUCT (SUM(IF(A1:A5>3,1,0))), which a plain formula intersects.
func NeedsArrayFormula(formula string) bool {
	return IntersectedInPlain(formulatok.Tokens(WithoutSpillMarks(formula)))
}

// IntersectedInPlain reports whether a plain formula (not an array
// formula) of these tokens is computed by Excel with implicit
// intersection: an operator applies to a multi-cell range (an INDEX
// returning several cells being one: AreaIndexAsRange), or a function is
// lifted over an array, outside SUMPRODUCT.
func IntersectedInPlain(tokens []efp.Token) bool {
	tokens = AreaIndexAsRange(tokens)
	return rangeArithmetic(tokens) || liftedCallsIn(tokens).intersected
}

// liftedArithmetic reports whether an operator applies to a multi-cell
// range whose nearest enclosing function neither takes arrays
// (takesArrays) nor is lifted over them by the engine as by Excel
// (excelize.LiftsOverArrays: IF, ABS, LEN...): the engine would apply it
// to one value where Excel computes something else.
func liftedArithmetic(tokens []efp.Token) bool {
	return rangeOperandWhere(tokens, func(calls []string) bool {
		last := ""
		if len(calls) > 0 {
			last = calls[len(calls)-1]
		}
		return last != "" && !takesArrays(last) && !excelize.LiftsOverArrays(last)
	})
}

// takesArrays reports whether the function (upper case, without file
// prefixes) takes an array where an operator's array result can stand:
// it aggregates, looks up in or reshapes the array rather than computing
// one value per element.
func takesArrays(name string) bool {
	switch name {
	case "SUM", "SUMPRODUCT", "SUMSQ", "PRODUCT", "AVERAGE", "AVERAGEA", "MIN", "MINA", "MAX", "MAXA",
		"COUNT", "COUNTA", "MEDIAN", "LARGE", "SMALL", "STDEV", "STDEV.S", "STDEV.P", "STDEVA", "STDEVP",
		"VAR", "VAR.S", "VAR.P", "VARA", "VARP", "AND", "OR", "XOR", "CONCAT", "TEXTJOIN",
		"FILTER", "SORT", "SORTBY", "UNIQUE", "ROWS", "COLUMNS", "INDEX", "MATCH", "XMATCH", "XLOOKUP",
		"TRANSPOSE", "TAKE", "DROP", "CHOOSEROWS", "CHOOSECOLS", "VSTACK", "HSTACK", "TOCOL", "TOROW",
		"EXPAND", "WRAPROWS", "WRAPCOLS", "MMULT", "ARRAY", "ARRAYROW":
		return true
	}
	return false
}
