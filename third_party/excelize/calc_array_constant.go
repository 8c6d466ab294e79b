// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It reads an array constant
// ({1,2;3,4}) as one operand, wherever it stands in a formula.

package excelize

import (
	"container/list"

	"github.com/xuri/efp"
)

// arrayConstant reads the array constant ({1,2;3,4}) whose ARRAY start
// token is tokens[start]: its matrix, and the index of its stop token.
func arrayConstant(tokens []efp.Token, start int) (formulaArg, int, error) {
	var (
		rows  [][]formulaArg
		row   []formulaArg
		inRow bool
		sign  = 1.0
	)
	for i := start + 1; i < len(tokens); i++ {
		tk := tokens[i]
		switch {
		case isFunctionStartToken(tk) && tk.TValue == "ARRAYROW":
			row, inRow, sign = nil, true, 1
		case isFunctionStopToken(tk) && inRow:
			rows, inRow = append(rows, row), false
		case isFunctionStopToken(tk):
			if len(rows) == 0 || len(rows[0]) == 0 {
				return formulaArg{}, i, ErrInvalidFormula
			}
			for _, r := range rows {
				if len(r) != len(rows[0]) {
					return formulaArg{}, i, ErrInvalidFormula
				}
			}
			return newMatrixFormulaArg(rows), i, nil
		case tk.TType == efp.TokenTypeOperatorPrefix && (tk.TValue == "-" || tk.TValue == "+"):
			if tk.TValue == "-" {
				sign = -sign
			}
		case tk.TType == efp.TokenTypeOperand:
			v := tokenToFormulaArg(tk)
			switch tk.TSubType {
			case efp.TokenSubTypeError:
				v = newErrorFormulaArg(tk.TValue, tk.TValue)
			case efp.TokenSubTypeNumber:
				v.Number *= sign
			case efp.TokenSubTypeRange:
				return formulaArg{}, i, ErrInvalidFormula // no references in a constant
			}
			row, sign = append(row, v), 1
		case tk.TType == efp.TokenTypeArgument:
		default:
			return formulaArg{}, i, ErrInvalidFormula
		}
	}
	return formulaArg{}, len(tokens), ErrInvalidFormula
}

// pushArrayConstant puts an array constant where the calculator puts a
// range operand: on the operand stack at the top level; inside a function
// call on the call's operand stack when an operator applies to it, else
// into the call's arguments. rest are the tokens after the constant.
func pushArrayConstant(arr formulaArg, rest []efp.Token, opdStack, opfStack, opftStack, opfdStack, argsStack *Stack) {
	if opfStack.Len() == 0 {
		opdStack.Push(arr)
		return
	}
	var next efp.Token
	if len(rest) > 0 {
		next = rest[0]
	}
	pending := opftStack.Peek().(efp.Token) != opfStack.Peek().(efp.Token)
	if pending || (next.TType != efp.TokenTypeArgument && next.TType != efp.TokenTypeFunction) ||
		(next.TType == efp.TokenTypeArgument && !opfdStack.Empty()) {
		opfdStack.Push(arr)
		return
	}
	argsStack.Peek().(*list.List).PushBack(arr)
}
