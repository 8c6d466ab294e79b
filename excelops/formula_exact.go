package excelops

import (
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
)

// Formulas the engine computes unlike Excel. Rather than store a guessed
// value, such a formula is left without one (and the workbook is marked
// to be recalculated on open), as one calling a function the engine lacks.

// inexact reports whether the engine cannot compute the formula of
// sheet!ref exactly as Excel does:
//   - arithmetic or a comparison on a multi-cell range (SUM(B1:C1*B2:C2),
//     in an array formula or in SUMPRODUCT), which Excel computes element
//     by element and the engine as a scalar (B1*B2);
//   - SUBTOTAL or AGGREGATE over a range that holds another one, which
//     Excel leaves out and the engine counts twice.
func inexact(f *excelize.File, sheet, formula string) bool {
	if tokens := formulaTokensOf(formula); rangeArithmetic(tokens) {
		return true
	}
	return callsAny(formula, subtotals) && readsSubtotal(f, formula, sheet)
}

// subtotals reports whether the function name is SUBTOTAL or AGGREGATE,
// the two that leave nested ones out.
func subtotals(name string) bool {
	return name == "SUBTOTAL" || name == "AGGREGATE"
}

// rangeArithmetic reports whether an operator applies to a multi-cell
// range (B1:C1*B2:C2, A1:A3>0).
func rangeArithmetic(tokens []efp.Token) bool {
	for i, tk := range tokens {
		if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeRange || !strings.Contains(tk.TValue, ":") {
			continue
		}
		for _, j := range []int{i - 1, i + 1} {
			if j >= 0 && j < len(tokens) && (tokens[j].TType == efp.TokenTypeOperatorInfix || tokens[j].TType == efp.TokenTypeOperatorPrefix) {
				return true
			}
		}
	}
	return false
}

// readsSubtotal reports whether a range formula (on host) reads holds a
// SUBTOTAL or AGGREGATE formula.
func readsSubtotal(f *excelize.File, formula, host string) bool {
	areas, wide := formulaDeps(formula, host)
	if wide {
		return true
	}
	for _, a := range areas {
		ws, err := f.Worksheet(a.sheet)
		if err != nil {
			continue
		}
		rows := ws.SheetData.Row
		i := sort.Search(len(rows), func(i int) bool { return rows[i].R >= a.r1 })
		for ; i < len(rows) && rows[i].R <= a.r2; i++ {
			for _, c := range rows[i].C {
				if c.F == nil {
					continue
				}
				col, _, err := excelize.CellNameToCoordinates(c.R)
				if err != nil || col < a.c1 || col > a.c2 {
					continue
				}
				text, _ := f.GetCellFormula(a.sheet, c.R)
				if strings.Contains(strings.ToUpper(text), "SUBTOTAL(") || strings.Contains(strings.ToUpper(text), "AGGREGATE(") {
					return true
				}
			}
		}
	}
	return false
}
