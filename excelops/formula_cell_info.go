package excelops

import (
	"strings"

	"github.com/xuri/efp"
)

// cellInfoComputed are the CELL info types the engine computes (the
// patched excelize's calc_cell_info.go); the others are facts of the host
// (the file name) or of formats.
var cellInfoComputed = map[string]bool{"address": true, "col": true, "row": true, "contents": true, "type": true}

// callsHostCell reports whether formula calls CELL in a form the engine
// leaves uncomputed: an info type not computed or not a text literal, no
// reference (Excel's last changed cell), or the "address" of a cell on
// another sheet (Excel names the file). Such a call is an error inside the
// engine, which IFERROR or MID would turn into a wrong value.
func callsHostCell(formula string) bool {
	toks := formulaTokensOf(formula)
	for i, tk := range toks {
		if name, ok := functionName(tk); ok && name == "CELL" && !cellCallComputed(toks[i+1:]) {
			return true
		}
	}
	return false
}

// cellCallComputed reports whether the arguments of a CELL call, the
// tokens after its start, are a computed info type as a text literal and a
// reference.
func cellCallComputed(args []efp.Token) bool {
	var toks []efp.Token
	for _, tk := range args {
		if tk.TType != efp.TokenTypeWhitespace {
			toks = append(toks, tk)
		}
	}
	if len(toks) < 3 || toks[0].TType != efp.TokenTypeOperand || toks[0].TSubType != efp.TokenSubTypeText {
		return false
	}
	info := strings.ToLower(toks[0].TValue)
	if !cellInfoComputed[info] || toks[1].TType != efp.TokenTypeArgument {
		return false
	}
	ref := toks[2]
	if ref.TType == efp.TokenTypeFunction && ref.TSubType == efp.TokenSubTypeStop {
		return false // CELL("row",) leaves the reference out
	}
	return info != "address" || !strings.Contains(ref.TValue, "!")
}
