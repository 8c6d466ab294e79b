package recalc

import (
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
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
//     together (legacyArrayValues, legacy_array.go);
//   - what InexactInArrays lists, in any formula.
func inexact(f *excelize.File, sheet, ref, formula string) bool {
	if isLegacyArrayOverCells(f, sheet, ref) {
		return true // legacy_array.go
	}
	tokens := formulatok.Tokens(formula) // once: this runs for every formula recomputed
	if formulatext.IntersectedInPlain(tokens) && !isArrayFormulaCell(f, sheet, ref) &&
		(!isPlainFormulaCell(f, sheet, ref) || !excelize.PlainIntersectionExact(formula)) {
		return true
	}
	return inexactTokens(f, sheet, formula, tokens)
}

// InexactInArrays reports whether the engine computes formula (on sheet)
// unlike Excel even as an array formula: an operator applies to a range,
// or a lifted call's array stands, inside a function that neither takes
// arrays nor is lifted over them (formulatext.Inexact);
// the @ of a function's result; or a SUBTOTAL or AGGREGATE over a range
// that holds another one.
func InexactInArrays(f *excelize.File, sheet, formula string) bool {
	return inexactTokens(f, sheet, formula, formulatok.Tokens(formula))
}

// inexactTokens is InexactInArrays given the formula's tokens, an INDEX
// returning several cells read as the range it is (formulatext.AreaIndexAsRange:
// @INDEX(A1:A10,0) is exact, the engine intersecting that reference).
func inexactTokens(f *excelize.File, sheet, formula string, tokens []efp.Token) bool {
	tokens = formulatext.AreaIndexAsRange(tokens)
	if formulatext.Inexact(tokens) {
		return true
	}
	return formulatok.TokensCall(tokens, formulatext.Subtotals) && readsSubtotal(f, formula, sheet)
}

// isArrayFormulaCell reports whether sheet!ref holds an array formula that
// the engine evaluates whole on its own (<f t="array">): a dynamic array
// anchor, or a legacy array formula of one cell. A legacy array formula
// over several cells is computed with its range (legacyArrayValues).
func isArrayFormulaCell(f *excelize.File, sheet, ref string) bool {
	c := ParsedCell(f, sheet, ref)
	if c == nil || c.F == nil || c.F.T != excelize.STCellFormulaTypeArray {
		return false
	}
	if _, ok := DynamicAnchor(c); ok {
		return true
	}
	r, err := grid.ParseRange(c.F.Ref)
	return err != nil || (r.C1 == r.C2 && r.R1 == r.R2) // no ref: the cell itself
}

// ParsedCell returns the cell sheet!ref of f as parsed, nil when the sheet,
// the reference or the cell is not there.
func ParsedCell(f *excelize.File, sheet, ref string) *excelize.XMLCell {
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return nil
	}
	col, row, err := excelize.CellNameToCoordinates(ref)
	if err != nil {
		return nil
	}
	return SheetCell(ws, col, row)
}

// isPlainFormulaCell reports whether sheet!ref holds a plain formula: its
// own <f>, not an array formula (a cell of a legacy array formula other
// than its first holds no <f>).
func isPlainFormulaCell(f *excelize.File, sheet, ref string) bool {
	c := ParsedCell(f, sheet, ref)
	return c != nil && c.F != nil && c.F.T != excelize.STCellFormulaTypeArray
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
