package formulatext

import (
	"strings"

	"github.com/xuri/efp"
)

// Kind is what a formula's text tells of the type of its result.
type Kind int

// The kinds ResultKind tells apart.
const (
	// KindAny is a number, boolean or text: the result decides.
	KindAny Kind = iota
	// KindText is certainly text: a number-like result stays text.
	KindText
	// KindReference is a plain reference alone (=A1, =Sheet2!B3): the
	// cell it names decides.
	KindReference
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

// ResultKind tells from the formula's text (with or without its "=")
// whether its result is text: a top-level "&", a text literal or a
// top-level text function make it KindText; a reference alone is
// KindReference, with the reference as written; anything else is KindAny.
func ResultKind(formula string) (kind Kind, ref string) {
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
				return KindText, ""
			}
		}
		if tk.TSubType == efp.TokenSubTypeStart {
			depth++
		}
	}
	if len(top) == 0 {
		return KindAny, ""
	}
	first := top[0]
	switch {
	case len(top) == 2 && first.TType == efp.TokenTypeFunction:
		name := strings.ToUpper(strings.TrimPrefix(strings.TrimPrefix(first.TValue, "_xlfn."), "_xlws."))
		if textFunctions[name] {
			return KindText, ""
		}
	case len(top) == 1 && first.TType == efp.TokenTypeOperand && first.TSubType == efp.TokenSubTypeText:
		return KindText, ""
	case len(top) == 1 && first.TType == efp.TokenTypeOperand && first.TSubType == efp.TokenSubTypeRange:
		return KindReference, first.TValue
	}
	return KindAny, ""
}
