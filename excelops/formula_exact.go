package excelops

import (
	"slices"
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
)

// Formulas the engine computes unlike Excel. Rather than store a guessed
// value, such a formula is left without one (and the workbook is marked
// to be recalculated on open), as one calling a function the engine lacks.

// inexact reports whether the engine cannot compute the formula of
// sheet!ref exactly as Excel does:
//   - arithmetic or a comparison on a multi-cell range (A1:A3*2, A1:A3>0),
//     or a function lifted over an array (LEN(A1:A3)), in an ordinary
//     formula, outside SUMPRODUCT: Excel intersects the range with the
//     formula's row or column (implicit intersection), which the engine
//     does where one value is taken outside any other function
//     (excelize.PlainIntersectionExact: A1:A10*2, LEN(A1:A10)) and not
//     inside one (SUM(A1:A5*2), where it computes the whole array, as for
//     an array formula: a dynamic array anchor, or a legacy one, exact);
//   - the first cell of a legacy array formula over several cells, on its
//     own: its value is one of its range's, which the refresh computes
//     together (legacyArrayValues, formula_legacy_array.go);
//   - what inexactInArrays lists, in any formula.
func inexact(f *excelize.File, sheet, ref, formula string) bool {
	if isLegacyArrayOverCells(f, sheet, ref) {
		return true // formula_legacy_array.go
	}
	tokens := formulatok.Tokens(formula) // once: this runs for every formula recomputed
	if intersectedInPlain(tokens) && !isArrayFormulaCell(f, sheet, ref) &&
		(!isPlainFormulaCell(f, sheet, ref) || !excelize.PlainIntersectionExact(formula)) {
		return true
	}
	return inexactTokens(f, sheet, formula, tokens)
}

// inexactInArrays reports whether the engine computes formula (on sheet)
// unlike Excel even as an array formula: an operator applies to a range,
// or a lifted call's array stands, inside a function that neither takes
// arrays nor is lifted over them (liftedArithmetic, liftedCalls.misplaced);
// the @ of a function's result; or a SUBTOTAL or AGGREGATE over a range
// that holds another one.
func inexactInArrays(f *excelize.File, sheet, formula string) bool {
	return inexactTokens(f, sheet, formula, formulatok.Tokens(formula))
}

// inexactTokens is inexactInArrays given the formula's tokens, an INDEX
// returning several cells read as the range it is (areaIndexAsRange:
// @INDEX(A1:A10,0) is exact, the engine intersecting that reference).
func inexactTokens(f *excelize.File, sheet, formula string, tokens []efp.Token) bool {
	tokens = areaIndexAsRange(tokens)
	if liftedArithmetic(tokens) || liftedCallsIn(tokens).misplaced || intersectsNonReference(tokens) {
		return true
	}
	return formulatok.TokensCall(tokens, subtotals) && readsSubtotal(f, formula, sheet)
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

// isArrayFormulaCell reports whether sheet!ref holds an array formula that
// the engine evaluates whole on its own (<f t="array">): a dynamic array
// anchor, or a legacy array formula of one cell. A legacy array formula
// over several cells is computed with its range (legacyArrayValues).
func isArrayFormulaCell(f *excelize.File, sheet, ref string) bool {
	c := parsedCell(f, sheet, ref)
	if c == nil || c.F == nil || c.F.T != excelize.STCellFormulaTypeArray {
		return false
	}
	if _, ok := dynamicAnchor(c); ok {
		return true
	}
	r, err := parseRange(c.F.Ref)
	return err != nil || (r.C1 == r.C2 && r.R1 == r.R2) // no ref: the cell itself
}

// parsedCell returns the cell sheet!ref of f as parsed, nil when the sheet,
// the reference or the cell is not there.
func parsedCell(f *excelize.File, sheet, ref string) *excelize.XMLCell {
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return nil
	}
	col, row, err := excelize.CellNameToCoordinates(ref)
	if err != nil {
		return nil
	}
	return sheetCell(ws, col, row)
}

// isPlainFormulaCell reports whether sheet!ref holds a plain formula: its
// own <f>, not an array formula (a cell of a legacy array formula other
// than its first holds no <f>).
func isPlainFormulaCell(f *excelize.File, sheet, ref string) bool {
	c := parsedCell(f, sheet, ref)
	return c != nil && c.F != nil && c.F.T != excelize.STCellFormulaTypeArray
}

// subtotals reports whether the function name is SUBTOTAL or AGGREGATE,
// the two that leave nested ones out.
func subtotals(name string) bool {
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

// readsSubtotal reports whether a range formula (on host) reads holds a
// SUBTOTAL or AGGREGATE formula.
func readsSubtotal(f *excelize.File, formula, host string) bool {
	areas, wide := formuladeps.ScanSheet(formula, host)
	if wide {
		return true
	}
	for _, a := range areas {
		ws, err := f.Worksheet(a.Sheet)
		if err != nil {
			continue
		}
		rows := ws.SheetData.Row
		i := sort.Search(len(rows), func(i int) bool { return rows[i].R >= a.R1 })
		for ; i < len(rows) && rows[i].R <= a.R2; i++ {
			for _, c := range rows[i].C {
				if c.F == nil {
					continue
				}
				col, _, err := excelize.CellNameToCoordinates(c.R)
				if err != nil || col < a.C1 || col > a.C2 {
					continue
				}
				text, _ := f.GetCellFormula(a.Sheet, c.R)
				if strings.Contains(strings.ToUpper(text), "SUBTOTAL(") || strings.Contains(strings.ToUpper(text), "AGGREGATE(") {
					return true
				}
			}
		}
	}
	return false
}
