// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It computes Excel 365's
// implicit intersection operator: @A1:A10 in a formula, which a file
// stores as _xlfn.SINGLE(A1:A10).

package excelize

import (
	"container/list"
	"strings"

	"github.com/xuri/efp"
)

// expandAt rewrites each reference written with the implicit intersection
// operator (@A1:A10, a token the tokenizer reads as one range) as a call
// of SINGLE on the reference.
func expandAt(tokens []efp.Token) []efp.Token {
	var out []efp.Token
	for i, tk := range tokens {
		if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeRange || !strings.HasPrefix(tk.TValue, "@") {
			if out != nil {
				out = append(out, tk)
			}
			continue
		}
		if out == nil {
			out = append(make([]efp.Token, 0, len(tokens)+2), tokens[:i]...)
		}
		ref := tk
		ref.TValue = strings.TrimPrefix(tk.TValue, "@")
		out = append(out,
			efp.Token{TValue: "SINGLE", TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStart},
			ref,
			efp.Token{TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStop})
	}
	if out == nil {
		return tokens
	}
	return out
}

// SINGLE is Excel's implicit intersection (the @ operator): of a reference
// to one column (or one row), the cell in the formula's own row (or
// column); of a block, the cell in both; #VALUE! when the formula's cell
// has no such cell. Of an array that is not a reference, its first value;
// of a value, the value. The syntax of the function is:
//
//	SINGLE(value)
func (fn *formulaFuncs) SINGLE(argsList *list.List) formulaArg {
	if argsList.Len() != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, "SINGLE requires 1 argument")
	}
	arg := argsList.Front().Value.(formulaArg)
	if arg.Type != ArgMatrix && arg.Type != ArgList {
		return arg
	}
	m := matrixOf(arg)
	if m == nil {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if arg.cellRanges == nil || arg.cellRanges.Len() != 1 {
		return m[0][0]
	}
	rng := arg.cellRanges.Front().Value.(cellRange)
	col, row, err := CellNameToCoordinates(fn.cell)
	if err != nil {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	r, okRow := intersectAt(rng.From.Row, rng.To.Row, row)
	c, okCol := intersectAt(rng.From.Col, rng.To.Col, col)
	if !okRow || !okCol {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if r >= len(m) || c >= len(m[r]) {
		return newEmptyFormulaArg() // past the sheet's data: a blank cell
	}
	return m[r][c]
}

// intersectAt returns the offset in from..to that pos intersects: 0 for a
// span of one, pos's offset when pos is inside it; false otherwise.
func intersectAt(from, to, pos int) (int, bool) {
	from, to = min(from, to), max(from, to)
	if from == to {
		return 0, true
	}
	if pos < from || pos > to {
		return 0, false
	}
	return pos - from, true
}
