package recalc

import (
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// typedResult types the calculator's result res of formula: a cached
// value's t attribute and text; ("", "") for none, ("str", "") for an
// empty text (CLEAN(""), IFNA(A1,"")).
func typedResult(f *excelize.File, sheet, formula string, res excelize.CalcResult) (t, v string) {
	switch res.Kind {
	case excelize.CalcResultEmpty:
		return "", "0" // a reference to a blank cell (=A1) is 0, as in Excel
	case excelize.CalcResultText:
		return "str", res.Value
	case excelize.CalcResultBool:
		if res.Value == "TRUE" {
			return "b", "1"
		}
		return "b", "0"
	case excelize.CalcResultError:
		if excelErrors[res.Value] {
			return "e", res.Value
		}
		return "", ""
	}
	if res.Value == "" {
		return "", ""
	}
	if resultKind(f, sheet, formula) == formulatext.KindText {
		return "str", res.Value // a text function's result the calculator left a number
	}
	if _, err := strconv.ParseFloat(res.Value, 64); err == nil {
		return "", res.Value
	}
	return "str", res.Value
}

// resultKind tells whether the formula's result (on sheet) is text: its
// text says so (formulatext.ResultKind), or it is a plain reference to a
// text cell, followed through formulas up to maxReferenceHops.
func resultKind(f *excelize.File, sheet, formula string) formulatext.Kind {
	return resultKindAt(f, sheet, formula, 0)
}

// maxReferenceHops bounds how far resultKind follows plain references
// (=A1 where A1 holds =B1 ...), so a circular chain ends.
const maxReferenceHops = 8

// resultKindAt is resultKind after hops plain references.
func resultKindAt(f *excelize.File, sheet, formula string, hops int) formulatext.Kind {
	kind, ref := formulatext.ResultKind(formula)
	if kind != formulatext.KindReference {
		return kind
	}
	if hops < maxReferenceHops {
		return referencedKind(f, sheet, ref, hops+1)
	}
	return formulatext.KindAny
}

// referencedKind is formulatext.KindText when ref is one cell holding text.
func referencedKind(f *excelize.File, sheet, ref string, hops int) formulatext.Kind {
	target := sheet
	if i := strings.LastIndex(ref, "!"); i >= 0 {
		target, ref = strings.Trim(ref[:i], "'"), ref[i+1:]
		target = strings.ReplaceAll(target, "''", "'")
	}
	ref = strings.ReplaceAll(ref, "$", "")
	if strings.Contains(ref, ":") {
		return formulatext.KindAny
	}
	typ, err := f.GetCellType(target, ref)
	if err != nil {
		return formulatext.KindAny
	}
	switch typ {
	case excelize.CellTypeSharedString, excelize.CellTypeInlineString:
		return formulatext.KindText
	case excelize.CellTypeFormula:
		if formula, err := f.GetCellFormula(target, ref); err == nil && formula != "" {
			return resultKindAt(f, target, formula, hops)
		}
	}
	return formulatext.KindAny
}
