package recalc

import (
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/textdist"
	"github.com/xuri/efp"
)

// excelFunctionsText is excel_functions.txt: Excel's function names, one a
// line, generated from sources nobody here wrote (scripts/excel_functions.py).
//
//go:embed excel_functions.txt
var excelFunctionsText string

// ExcelFunctions returns Excel's function names (upper case, no _xlfn.
// prefix), each with the prefix a file must spell it with ("" for the
// functions of Excel 2007, "_xlfn." for newer ones), parsed once.
var ExcelFunctions = sync.OnceValue(func() map[string]string {
	set := map[string]string{}
	for _, line := range strings.Split(excelFunctionsText, "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			name, prefix, _ := strings.Cut(line, "\t")
			set[name] = prefix
		}
	}
	return set
})

// WithFilePrefixes returns formula (without its "=") as a file must hold
// it (formulatext.WithFilePrefixes over Excel's function names).
func WithFilePrefixes(formula string) string {
	return formulatext.WithFilePrefixes(formula, ExcelFunctions())
}

// commonFunctions break ties between equally close did-you-mean candidates:
// the function an agent most likely meant comes first.
var commonFunctions = []string{
	"SUM", "IF", "COUNT", "AVERAGE", "VLOOKUP", "MAX", "MIN", "ROUND", "SUMIF", "COUNTIF",
	"INDEX", "MATCH", "IFERROR", "AND", "OR", "TEXT", "LEFT", "RIGHT", "LEN", "CONCATENATE",
	"XLOOKUP", "SUMIFS", "COUNTIFS", "DATE", "TODAY", "ABS", "HLOOKUP",
}

// CheckFormulaText refuses, before anything is written, a formula (given
// without its "=") for the cell ref that does not parse or calls a function
// Excel does not have, naming the cell and the problem.
func CheckFormulaText(ref, formula string) error {
	_, err := FormulaTokens(ref, formula)
	return err
}

// FormulaTokens is checkFormulaText returning the formula's tokens, for
// the checks that read them further (FormulaRefsOf).
func FormulaTokens(ref, formula string) ([]efp.Token, error) {
	toks, err := parseFormulaTokens(formula)
	if err != nil {
		return nil, failure.New(failure.KindInvalidArgument, fmt.Sprintf("cell %s: formula %q is not valid: %s; nothing was written",
			ref, "="+formula, err.Error()), err)
	}
	return toks, nil
}

// formulaError is why a formula does not parse or names an unknown function.
type formulaError struct {
	msg string
}

// Error returns the reason.
func (e *formulaError) Error() string { return e.msg }

// ParseFormula checks formula (without its leading "="): its strings and
// quoted sheet names are closed, parentheses balance, every operator has its
// operands, and every function is one Excel has.
func ParseFormula(formula string) error {
	_, err := parseFormulaTokens(formula)
	return err
}

// parseFormulaTokens is parseFormula returning efp's tokens of the formula.
func parseFormulaTokens(formula string) ([]efp.Token, error) {
	formula = formulatext.WithoutSpillMarks(formula) // C3# reads as C3
	if err := checkQuotes(formula); err != nil {
		return nil, err
	}
	ps := efp.ExcelParser()
	toks := ps.Parse("=" + formula)
	wantOperand := true // at the start, after an operator, "(" or ","
	var open []string   // the parentheses open at this point (function names, "" for a group)
	var prev efp.Token
	params := formulatext.BoundNames(formula) // LET and LAMBDA names, which may be called: LET(f,LAMBDA(...),f(3))
	closed := ""                              // the function the last ")" closed
	for _, tk := range toks {
		switch tk.TType {
		case efp.TokenTypeWhitespace, efp.TokenTypeNoop:
			continue
		case efp.TokenTypeOperand:
			if !wantOperand {
				return nil, &formulaError{fmt.Sprintf("%q follows %q without an operator between them", tk.TValue, text(prev))}
			}
			wantOperand = false
		case efp.TokenTypeFunction:
			if tk.TSubType == efp.TokenSubTypeStart {
				if !wantOperand {
					return nil, &formulaError{fmt.Sprintf("%s( follows %q without an operator between them", tk.TValue, text(prev))}
				}
				if err := checkFunctionName(tk.TValue); err != nil && !params[strings.TrimPrefix(strings.ToUpper(tk.TValue), "_XLPM.")] {
					return nil, err
				}
				open = append(open, tk.TValue)
				wantOperand = true
				break
			}
			if len(open) == 0 {
				return nil, &formulaError{"it has a \")\" that closes nothing"}
			}
			if wantOperand && (prev.TType == efp.TokenTypeOperatorInfix || prev.TType == efp.TokenTypeOperatorPrefix) {
				return nil, &formulaError{fmt.Sprintf("the operator %q has nothing on its right", prev.TValue)}
			}
			closed = open[len(open)-1]
			open = open[:len(open)-1]
			wantOperand = false
			prev = tk
			continue
		case efp.TokenTypeSubexpression:
			if tk.TSubType == efp.TokenSubTypeStart {
				if !wantOperand && isFunctionStop(prev) && isLambdaName(closed) {
					open = append(open, lambdaCall) // LAMBDA(x,x*2)(3): the arguments of a call
					wantOperand = true
					break
				}
				if !wantOperand {
					return nil, &formulaError{fmt.Sprintf("\"(\" follows %q without an operator between them", text(prev))}
				}
				open = append(open, "")
				wantOperand = true
				break
			}
			if wantOperand && len(open) > 0 && open[len(open)-1] == lambdaCall {
				open = open[:len(open)-1] // LAMBDA(x,y,x)(1,) or LAMBDA(1)(): arguments left empty
				wantOperand = false
				break
			}
			if wantOperand {
				return nil, &formulaError{"it has empty parentheses \"()\" or an operator right before \")\""}
			}
			if len(open) == 0 {
				return nil, &formulaError{"it has a \")\" that closes nothing"}
			}
			open = open[:len(open)-1]
		case efp.TokenTypeArgument:
			if len(open) == 0 || open[len(open)-1] == "" {
				return nil, &formulaError{"it has a \",\" outside a function's arguments"}
			}
			if wantOperand && (prev.TType == efp.TokenTypeOperatorInfix || prev.TType == efp.TokenTypeOperatorPrefix) {
				return nil, &formulaError{fmt.Sprintf("the operator %q has nothing on its right", prev.TValue)}
			}
			wantOperand = true // an empty argument is allowed, as in IF(A1,,1)
		case efp.TokenTypeOperatorPrefix:
			if !wantOperand {
				return nil, &formulaError{fmt.Sprintf("%q follows %q without an operator between them", tk.TValue, text(prev))}
			}
		case efp.TokenTypeOperatorPostfix:
			if wantOperand {
				return nil, &formulaError{fmt.Sprintf("%q has nothing on its left", tk.TValue)}
			}
		case efp.TokenTypeOperatorInfix:
			if wantOperand {
				if tk.TSubType == efp.TokenSubTypeIntersection {
					return nil, &formulaError{"it has a stray space where a value is expected"}
				}
				return nil, &formulaError{fmt.Sprintf("the operator %q has nothing on its left", tk.TValue)}
			}
			if tk.TSubType == efp.TokenSubTypeIntersection && !isReferenceLike(prev) {
				return nil, &formulaError{fmt.Sprintf("%q is followed by a space and another value, not an operator", text(prev))}
			}
			wantOperand = true
		default:
			return nil, &formulaError{fmt.Sprintf("it cannot be read near %q", tk.TValue)}
		}
		prev = tk
	}
	switch {
	case wantOperand && (prev.TType == efp.TokenTypeOperatorInfix || prev.TType == efp.TokenTypeOperatorPrefix):
		return nil, &formulaError{fmt.Sprintf("it ends with the operator %q", prev.TValue)}
	case wantOperand && len(open) == 0:
		return nil, &formulaError{"it is empty"}
	case len(open) > 0:
		if len(open) == 1 {
			return nil, &formulaError{"a parenthesis is not closed"}
		}
		return nil, &formulaError{fmt.Sprintf("%d parentheses are not closed", len(open))}
	}
	return toks, nil
}

// text names a token in a message.
func text(tk efp.Token) string {
	if tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression {
		if tk.TSubType == efp.TokenSubTypeStop {
			return ")"
		}
		return tk.TValue + "("
	}
	return tk.TValue
}

// isReferenceLike reports whether tk may be a reference, the only operand
// the intersection operator (a space) takes.
func isReferenceLike(tk efp.Token) bool {
	switch tk.TType {
	case efp.TokenTypeOperand:
		return tk.TSubType == efp.TokenSubTypeRange
	case efp.TokenTypeFunction, efp.TokenTypeSubexpression:
		return true // INDEX(...), OFFSET(...), (A1:B2) may yield references
	}
	return false
}

// checkQuotes refuses an unterminated string or quoted sheet name, which
// the tokenizer would otherwise read as an operand.
func checkQuotes(formula string) error {
	inString, inSheet := false, false
	for _, r := range formula {
		switch {
		case inString:
			inString = r != '"' // a doubled "" closes and reopens: same effect
		case inSheet:
			inSheet = r != '\''
		case r == '"':
			inString = true
		case r == '\'':
			inSheet = true
		}
	}
	switch {
	case inString:
		return &formulaError{"a text in double quotes is not closed"}
	case inSheet:
		return &formulaError{"a sheet name in single quotes is not closed"}
	}
	return nil
}

// lambdaCall stands in the open parentheses for the arguments of a LAMBDA
// called where it is written.
const lambdaCall = "LAMBDA()"

// isFunctionStop reports whether tk ends a function's arguments.
func isFunctionStop(tk efp.Token) bool {
	return tk.TType == efp.TokenTypeFunction && tk.TSubType == efp.TokenSubTypeStop
}

// isLambdaName reports whether the function name is LAMBDA (any case, with
// or without its file prefix).
func isLambdaName(name string) bool {
	return strings.EqualFold(strings.TrimPrefix(strings.ToUpper(name), "_XLFN."), "LAMBDA")
}

// checkFunctionName refuses a function Excel does not have, suggesting the
// closest one. The tokenizer's ARRAY/ARRAYROW stand for {...} constants.
func checkFunctionName(name string) error {
	up := strings.ToUpper(name)
	for _, p := range []string{"_XLFN._XLWS.", "_XLFN.", "_XLWS."} {
		up = strings.TrimPrefix(up, p)
	}
	if _, ok := ExcelFunctions()[up]; ok || up == "ARRAY" || up == "ARRAYROW" {
		return nil
	}
	msg := fmt.Sprintf("%s is not an Excel function", name)
	if best := closestFunction(up); best != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", best)
	}
	return &formulaError{msg}
}

// closestFunction returns the Excel function nearest to name by edit
// distance, or "" when none is close (more than a third of the name apart).
func closestFunction(name string) string {
	limit := max(2, len(name)/3)
	rank := map[string]int{}
	for i, n := range commonFunctions {
		rank[n] = i + 1
	}
	type cand struct {
		name   string
		dist   int
		prefix bool
	}
	var cands []cand
	for fn := range ExcelFunctions() {
		if d := textdist.Within([]byte(name), []byte(fn), limit); d <= limit {
			cands = append(cands, cand{fn, d, strings.HasPrefix(name, fn) || strings.HasPrefix(fn, name)})
		}
	}
	if len(cands) == 0 {
		return ""
	}
	sort.Slice(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		if a.dist != b.dist {
			return a.dist < b.dist
		}
		if a.prefix != b.prefix {
			return a.prefix
		}
		ra, rb := rank[a.name], rank[b.name]
		if (ra == 0) != (rb == 0) {
			return ra != 0
		}
		if ra != rb {
			return ra < rb
		}
		return a.name < b.name
	})
	return cands[0].name
}
