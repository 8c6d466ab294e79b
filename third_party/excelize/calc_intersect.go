// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It computes the implicit
// intersection of a plain formula (one that is not an array formula), as
// Excel computes a formula stored without dynamic array metadata: a range
// where one value is taken (=A1:A10*2, =LEN(A1:A10), =A1:A10 alone) is the
// cell of the range in the formula's row or column (A5*2 in row 5).

package excelize

import (
	"slices"
	"strings"

	"github.com/xuri/efp"
)

// intersectArg is one argument of a call (or the formula itself) while
// plainIntersection walks a formula.
type intersectArg struct {
	name     string      // the function, "" for the formula itself
	arg      int         // the argument's index, 0-based
	operator bool        // an operator stands in the argument, outside nested calls
	ranges   []tokenSpan // the multi-cell ranges in the argument, outside nested calls
	path     bool        // every enclosing argument takes a value (valueArg)
	area     *tokenSpan  // the call, when it is an INDEX returning an area (AreaIndexCalls)
}

// tokenSpan is the tokens from..to (inclusive) of a formula: a range, or a
// call of INDEX returning a reference of several cells.
type tokenSpan struct{ from, to int }

// valueArg reports whether the argument takes one value: the formula
// itself, or a value or carried parameter of a function that lifts.
func (a *intersectArg) valueArg() bool {
	if a.name == "" {
		return true
	}
	kinds := liftKinds(a.name)
	return kinds != "" && liftKindAt(kinds, a.arg) != liftWhole
}

// plainIntersection returns the ranges of a plain formula's tokens that
// Excel intersects with the formula's cell, as token spans in ascending
// order, and whether that is all the formula intersects (exact). A range,
// or a call of INDEX that returns a reference of several cells
// (AreaIndexCalls: INDEX(A1:A10,0)), is intersected where
// one value is taken: alone or under an operator at the formula's top
// level, or as (or under an operator in) a value parameter of a function
// that lifts (LiftsParameter, IF's results), every enclosing call being
// such a function too. A range under an operator inside another function
// (SUM(A1:A5*2), SUMPRODUCT's arrays, VLOOKUP's table) is not listed and
// makes the answer inexact; a reference operator (A1:B5 B2:C3, a union, a
// range ending a function's reference) leaves nothing intersected, inexact.
func plainIntersection(tokens []efp.Token) (ranges []tokenSpan, exact bool) {
	stack, exact := []intersectArg{{path: true}}, true
	areas := map[int]int{}
	for _, c := range AreaIndexCalls(tokens) {
		areas[c[0]] = c[1]
	}
	closeArg := func() {
		a := &stack[len(stack)-1]
		switch {
		case len(a.ranges) == 0:
		case a.path && a.valueArg():
			ranges = append(ranges, a.ranges...)
		case a.operator || a.valueArg():
			exact = false
		}
		a.arg, a.operator, a.ranges = a.arg+1, false, nil
	}
	for i, tk := range tokens {
		top := &stack[len(stack)-1]
		switch {
		case isFunctionStartToken(tk):
			name := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(tk.TValue), "_XLFN."), "_XLWS.")
			arg := intersectArg{name: name, path: top.path && top.valueArg()}
			if to, ok := areas[i]; ok {
				arg.area = &tokenSpan{i, to}
			}
			stack = append(stack, arg)
		case isFunctionStopToken(tk) && len(stack) > 1:
			closeArg()
			if area := stack[len(stack)-1].area; area != nil { // the call is a range of its caller's
				stack[len(stack)-2].ranges = append(stack[len(stack)-2].ranges, *area)
			}
			stack = stack[:len(stack)-1]
		case tk.TType == efp.TokenTypeArgument && len(stack) > 1:
			closeArg()
		case tk.TType == efp.TokenTypeOperatorInfix && (tk.TSubType == efp.TokenSubTypeIntersection || tk.TSubType == efp.TokenSubTypeUnion),
			tk.TType == efp.TokenTypeOperand && strings.HasPrefix(tk.TValue, ":"): // INDEX(...):A5
			return nil, false // a reference is built: nothing is intersected here
		case tk.TType == efp.TokenTypeOperatorInfix || tk.TType == efp.TokenTypeOperatorPrefix || tk.TType == efp.TokenTypeOperatorPostfix:
			top.operator = true
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange && strings.Contains(tk.TValue, ":"):
			top.ranges = append(top.ranges, tokenSpan{i, i})
		}
	}
	closeArg()
	slices.SortFunc(ranges, func(a, b tokenSpan) int { return a.from - b.from })
	return ranges, exact
}

// intersectPlain returns the tokens of the formula of sheet!cell with each
// range plainIntersection lists rewritten as a call of SINGLE on it (the @
// of the range), when the cell intersects (intersectsAt).
func (f *File) intersectPlain(ctx *calcContext, sheet, cell string, tokens []efp.Token) []efp.Token {
	ranges, _ := plainIntersection(tokens)
	if len(ranges) == 0 || !ctx.checks().intersectsAt(f, ctx, sheet, cell) {
		return tokens
	}
	return wrapSingle(tokens, ranges)
}

// wrapSingle rewrites the token spans ranges (ascending, disjoint) as
// calls of SINGLE on them.
func wrapSingle(tokens []efp.Token, ranges []tokenSpan) []efp.Token {
	out, next := make([]efp.Token, 0, len(tokens)+2*len(ranges)), 0
	for i, tk := range tokens {
		if next < len(ranges) && ranges[next].from == i {
			out = append(out, efp.Token{TValue: "SINGLE", TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStart})
		}
		out = append(out, tk)
		if next < len(ranges) && ranges[next].to == i {
			next++
			out = append(out, efp.Token{TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStop})
		}
	}
	return out
}

// PlainIntersectionExact reports whether the calculator computes formula,
// stored as a plain formula (not an array formula), as Excel does: every
// range Excel intersects with the formula's cell is one it intersects
// (plainIntersection), so the result is exact.
func PlainIntersectionExact(formula string) bool {
	ps := efp.ExcelParser()
	_, exact := plainIntersection(ps.Parse("=" + strings.TrimPrefix(formula, "=")))
	return exact
}

// isPlainFormulaCell reports whether sheet!cell holds a plain formula: not
// an array formula (a dynamic array anchor, or a cell of a legacy one).
func (f *File) isPlainFormulaCell(sheet, cell string) bool {
	plain, _ := f.getCellStringFunc(sheet, cell, func(_ *xlsxWorksheet, c *xlsxC) (string, bool, error) {
		if c.f != "" || c.F == nil || c.F.T == STCellFormulaTypeArray {
			return "", true, nil
		}
		return "plain", true, nil
	})
	return plain == "plain"
}

// intersectsAt reports whether the formula of sheet!cell is computed with
// implicit intersection: it is a plain formula, and not the entry cell of
// CalcCellArray, which computes its formula as an array formula.
func (g *calcGuard) intersectsAt(f *File, ctx *calcContext, sheet, cell string) bool {
	if g != nil && g.array && ctx.entry == sheet+"!"+cell {
		return false
	}
	return f.isPlainFormulaCell(sheet, cell)
}
