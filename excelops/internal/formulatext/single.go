package formulatext

import (
	"strings"
)

// The implicit intersection operator. Excel 365 shows @A1:A10 (the cell
// of A1:A10 in the formula's row) and stores it in the file as
// _xlfn.SINGLE(A1:A10); a formula from before Excel 365 is stored and
// shown as it was, without @.

// singleCall is how a file spells the @ operator.
const singleCall = "_xlfn.SINGLE("

// withSingleCalls returns formula with each @ operand (@A1:A10,
// @Sheet2!A:A, @INDEX(...), @(expression)) written as _xlfn.SINGLE(operand),
// outside text in double quotes, quoted sheet names and the brackets of
// structured references (Table1[@Col] keeps its @).
func withSingleCalls(formula string) string {
	if !strings.Contains(formula, "@") {
		return formula
	}
	var out strings.Builder
	last := 0
	for i := 0; i < len(formula); i++ {
		switch c := formula[i]; c {
		case '"', '\'':
			i = skipQuoted(formula, i, c)
		case '[':
			i = skipBrackets(formula, i)
		case '@':
			end := operandEnd(formula, i+1)
			if end == i+1 {
				continue
			}
			operand := formula[i+1 : end]
			if operand[0] == '(' {
				operand = operand[1 : len(operand)-1]
			}
			out.WriteString(formula[last:i])
			out.WriteString(singleCall + operand + ")")
			last, i = end, end-1
		}
	}
	if last == 0 {
		return formula
	}
	out.WriteString(formula[last:])
	return out.String()
}

// withAtSigns returns formula with each _xlfn.SINGLE(operand) call shown as
// Excel shows it: @operand for a reference, a name or a function call,
// @(operand) for another expression.
func withAtSigns(formula string) string {
	if !strings.Contains(strings.ToLower(formula), strings.ToLower(singleCall)) {
		return formula
	}
	var out strings.Builder
	last := 0
	for i := 0; i < len(formula); i++ {
		if c := formula[i]; c == '"' || c == '\'' {
			i = skipQuoted(formula, i, c)
			continue
		}
		if !strings.EqualFold(formula[i:min(i+len(singleCall), len(formula))], singleCall) ||
			(i > 0 && (isNameChar(formula[i-1]))) {
			continue
		}
		open := i + len(singleCall) - 1
		closing := matchingParen(formula, open)
		if closing < 0 {
			continue
		}
		operand := formula[open+1 : closing]
		out.WriteString(formula[last:i])
		if operandEnd(operand, 0) == len(operand) && operand != "" {
			out.WriteString("@" + operand)
		} else {
			out.WriteString("@(" + operand + ")")
		}
		last, i = closing+1, closing
	}
	if last == 0 {
		return formula
	}
	out.WriteString(formula[last:])
	return out.String()
}

// operandEnd returns where the operand of @ starting at s[i] ends: after a
// parenthesized expression, or after a reference or name (a quoted sheet
// name included) and the argument list of a call, if one follows; i when
// no operand starts there.
func operandEnd(s string, i int) int {
	j := i
	if j < len(s) && s[j] == '(' {
		return matchingParen(s, j) + 1
	}
	if j < len(s) && s[j] == '\'' {
		j = skipQuoted(s, j, '\'') + 1
	}
	for j < len(s) && (isNameChar(s[j]) || s[j] == ':' || s[j] == '!') {
		j++
	}
	if j > i && j < len(s) && s[j] == '(' {
		if k := matchingParen(s, j); k >= 0 {
			return k + 1
		}
	}
	return j
}

// matchingParen returns the index of the ")" closing the "(" at s[open],
// or -1 when none does; text in quotes is skipped.
func matchingParen(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\'':
			i = skipQuoted(s, i, c)
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i
			}
		}
	}
	return -1
}

// skipBrackets returns the index of the "]" closing the "[" at s[i]
// (nested brackets of a structured reference included).
func skipBrackets(s string, i int) int {
	depth := 0
	for j := i; j < len(s); j++ {
		switch s[j] {
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return len(s) - 1
}
