package excelops

import (
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
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
	if resultKind(f, sheet, formula) == kindText {
		return "str", res.Value // a text function's result the calculator left a number
	}
	if _, err := strconv.ParseFloat(res.Value, 64); err == nil {
		return "", res.Value
	}
	return "str", res.Value
}

// resultKinds of a formula, as far as its text tells.
const (
	kindAny  = iota // number, boolean or text: decided by the result
	kindText        // certainly text (a number-like result stays text)
)

// textFunctions return text even when it looks like a number ("007", "1010").
var textFunctions = map[string]bool{
	"CONCATENATE": true, "CONCAT": true, "TEXTJOIN": true, "TEXT": true, "LEFT": true, "LEFTB": true,
	"RIGHT": true, "RIGHTB": true, "MID": true, "MIDB": true, "UPPER": true, "LOWER": true, "PROPER": true,
	"TRIM": true, "CLEAN": true, "SUBSTITUTE": true, "REPLACE": true, "REPLACEB": true, "REPT": true, "T": true,
	"CHAR": true, "UNICHAR": true, "FIXED": true, "DOLLAR": true, "BAHTTEXT": true, "ROMAN": true,
	"DEC2BIN": true, "DEC2HEX": true, "DEC2OCT": true, "BIN2HEX": true, "BIN2OCT": true, "OCT2BIN": true,
	"OCT2HEX": true, "HEX2BIN": true, "HEX2OCT": true, "BASE": true, "ADDRESS": true, "FORMULATEXT": true,
	"TEXTBEFORE": true, "TEXTAFTER": true, "ENCODEURL": true, "ARRAYTOTEXT": true, "VALUETOTEXT": true,
	"COMPLEX": true, "DBCS": true, "ASC": true, "JIS": true, "PHONETIC": true,
	// The complex-number functions answer text, "3.46410161513775" for IMSQRT(12) as "1+i" for
	// IMSQRT("2i") (IMABS, IMAGINARY, IMREAL and IMARGUMENT answer numbers).
	"IMCONJUGATE": true, "IMCOS": true, "IMCOSH": true, "IMCOT": true, "IMCSC": true, "IMCSCH": true,
	"IMDIV": true, "IMEXP": true, "IMLN": true, "IMLOG10": true, "IMLOG2": true, "IMPOWER": true,
	"IMPRODUCT": true, "IMSEC": true, "IMSECH": true, "IMSIN": true, "IMSINH": true, "IMSQRT": true,
	"IMSUB": true, "IMSUM": true, "IMTAN": true,
}

// resultKind tells from the formula's text whether its result is text: a
// top-level "&", a text literal, a top-level text function, or a plain
// reference to a text cell.
func resultKind(f *excelize.File, sheet, formula string) int {
	return resultKindAt(f, sheet, formula, 0)
}

// maxReferenceHops bounds how far resultKind follows plain references
// (=A1 where A1 holds =B1 ...), so a circular chain ends.
const maxReferenceHops = 8

// resultKindAt is resultKind after hops plain references.
func resultKindAt(f *excelize.File, sheet, formula string, hops int) int {
	ps := efp.ExcelParser()
	toks := ps.Parse("=" + strings.TrimPrefix(formula, "="))
	depth := 0
	var top []efp.Token
	for _, tk := range toks {
		if tk.TType == efp.TokenTypeWhitespace {
			continue
		}
		if tk.TSubType == efp.TokenSubTypeStop {
			depth--
		}
		if depth == 0 {
			top = append(top, tk)
			if tk.TType == efp.TokenTypeOperatorInfix && tk.TSubType == efp.TokenSubTypeConcatenation {
				return kindText
			}
		}
		if tk.TSubType == efp.TokenSubTypeStart {
			depth++
		}
	}
	if len(top) == 0 {
		return kindAny
	}
	first := top[0]
	switch {
	case len(top) == 2 && first.TType == efp.TokenTypeFunction:
		name := strings.ToUpper(strings.TrimPrefix(strings.TrimPrefix(first.TValue, "_xlfn."), "_xlws."))
		if textFunctions[name] {
			return kindText
		}
	case len(top) == 1 && first.TType == efp.TokenTypeOperand && first.TSubType == efp.TokenSubTypeText:
		return kindText
	case len(top) == 1 && first.TType == efp.TokenTypeOperand && first.TSubType == efp.TokenSubTypeRange:
		if hops < maxReferenceHops {
			return referencedKind(f, sheet, first.TValue, hops+1)
		}
	}
	return kindAny
}

// referencedKind is kindText when ref is one cell holding text.
func referencedKind(f *excelize.File, sheet, ref string, hops int) int {
	target := sheet
	if i := strings.LastIndex(ref, "!"); i >= 0 {
		target, ref = strings.Trim(ref[:i], "'"), ref[i+1:]
		target = strings.ReplaceAll(target, "''", "'")
	}
	ref = strings.ReplaceAll(ref, "$", "")
	if strings.Contains(ref, ":") {
		return kindAny
	}
	typ, err := f.GetCellType(target, ref)
	if err != nil {
		return kindAny
	}
	switch typ {
	case excelize.CellTypeSharedString, excelize.CellTypeInlineString:
		return kindText
	case excelize.CellTypeFormula:
		if formula, err := f.GetCellFormula(target, ref); err == nil && formula != "" {
			return resultKindAt(f, target, formula, hops)
		}
	}
	return kindAny
}
