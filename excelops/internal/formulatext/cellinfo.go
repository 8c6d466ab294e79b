package formulatext

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/xuri/efp"
)

// cellInfoComputed are the CELL info types the engine computes (the
// patched excelize's calc_cell_info.go); the others are facts of the host
// (the file name) or of formats.
var cellInfoComputed = map[string]bool{"address": true, "col": true, "row": true, "contents": true, "type": true}

// CallsUncomputedForm reports whether formula calls CELL or PHONETIC in a
// form the engine leaves uncomputed: for CELL an info type not computed or
// not a text literal, no reference (Excel's last changed cell), or the
// "address" of a cell on another sheet (Excel names the file); for both a
// reference that is not written as one (INDEX(...) yields one in Excel, a
// value in the engine). Such a call is an error inside the engine, which
// IFERROR or MID would turn into a wrong value.
func CallsUncomputedForm(formula string) bool {
	toks := formulatok.Tokens(formula)
	for i, tk := range toks {
		switch name, _ := formulatok.FunctionName(tk); name {
		case "CELL":
			args := withoutWhitespace(toks[i+1:])
			if !cellCallComputed(args) && !(wholeFormula(toks, i) && referencedInfoType(args)) {
				return true
			}
		case "PHONETIC":
			if args := withoutWhitespace(toks[i+1:]); !plainReference(args, 0) || !closes(args, 1) {
				return true
			}
		}
	}
	return false
}

// cellCallComputed reports whether the arguments of a CELL call, the
// tokens after its start, are a computed info type as a text literal and a
// written reference.
func cellCallComputed(toks []efp.Token) bool {
	if refusedInfoType(toks) {
		return true // #VALUE! whatever the reference
	}
	if len(toks) < 4 || toks[0].TType != efp.TokenTypeOperand || toks[0].TSubType != efp.TokenSubTypeText {
		return false
	}
	info := strings.ToLower(toks[0].TValue)
	if !cellInfoComputed[info] || toks[1].TType != efp.TokenTypeArgument || !plainReference(toks, 2) || !closes(toks, 3) {
		return false
	}
	return info != "address" || !strings.Contains(toks[2].TValue, "!")
}

// cellInfoTypes are every info type Excel's CELL takes (Microsoft's CELL
// page); another text, a number or a boolean is #VALUE!.
var cellInfoTypes = map[string]bool{
	"address": true, "col": true, "color": true, "contents": true, "filename": true, "format": true,
	"parentheses": true, "prefix": true, "protect": true, "row": true, "type": true, "width": true,
}

// refusedInfoType reports whether the first argument of a CELL call (toks,
// the tokens after its start) is a literal Excel refuses as info_type: a
// number, a boolean or a text naming no info type, followed by the end of
// the argument.
func refusedInfoType(toks []efp.Token) bool {
	if len(toks) < 2 || toks[0].TType != efp.TokenTypeOperand ||
		(toks[1].TType != efp.TokenTypeArgument && !closes(toks, 1)) {
		return false
	}
	switch toks[0].TSubType {
	case efp.TokenSubTypeNumber, efp.TokenSubTypeLogical:
		return true
	case efp.TokenSubTypeText:
		return !cellInfoTypes[strings.ToLower(toks[0].TValue)]
	}
	return false
}

// referencedInfoType reports whether a CELL call's arguments (the tokens
// after its start) are a single-cell reference as info_type and a written
// reference: the engine computes the info types of calc_cell_info.go and
// answers the others with an uncomputed error, which only a call that is
// the whole formula may meet (nothing around it turns the error into a
// value).
func referencedInfoType(toks []efp.Token) bool {
	return plainReference(toks, 0) && !strings.Contains(toks[0].TValue, ":") &&
		len(toks) > 1 && toks[1].TType == efp.TokenTypeArgument && plainReference(toks, 2) && closes(toks, 3)
}

// wholeFormula reports whether the function call starting at toks[i] is
// the whole formula: nothing but whitespace before it or after its end.
func wholeFormula(toks []efp.Token, i int) bool {
	for _, tk := range toks[:i] {
		if tk.TType != efp.TokenTypeWhitespace {
			return false
		}
	}
	depth := 0
	for j := i; j < len(toks); j++ {
		tk := toks[j]
		switch {
		case tk.TType == efp.TokenTypeFunction && tk.TSubType == efp.TokenSubTypeStart:
			depth++
		case tk.TType == efp.TokenTypeFunction && tk.TSubType == efp.TokenSubTypeStop:
			if depth--; depth == 0 {
				for _, rest := range toks[j+1:] {
					if rest.TType != efp.TokenTypeWhitespace {
						return false
					}
				}
				return true
			}
		}
	}
	return false
}

// plainReference reports whether toks[i] is a reference written as one
// (A1, B2:C3, Other!A1, a name).
func plainReference(toks []efp.Token, i int) bool {
	return i < len(toks) && toks[i].TType == efp.TokenTypeOperand && toks[i].TSubType == efp.TokenSubTypeRange
}

// closes reports whether toks[i] ends the function call.
func closes(toks []efp.Token, i int) bool {
	return i < len(toks) && toks[i].TType == efp.TokenTypeFunction && toks[i].TSubType == efp.TokenSubTypeStop
}

// withoutWhitespace returns toks without its whitespace tokens.
func withoutWhitespace(toks []efp.Token) []efp.Token {
	var out []efp.Token
	for _, tk := range toks {
		if tk.TType != efp.TokenTypeWhitespace {
			out = append(out, tk)
		}
	}
	return out
}
