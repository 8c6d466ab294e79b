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
	"container/list"
	"errors"
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
	whole    bool        // an enclosing call takes arrays whole (SUMPRODUCT)
	area     *tokenSpan  // the call, when it is an INDEX returning an area (AreaIndexCalls)
	computed *tokenSpan  // the call, when it is an INDEX whose shape run time tells (computedIndexCalls)
	runtime  []tokenSpan // the calls of INDEX whose shape run time tells in the argument, outside nested calls
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

// intersectPlan is what plainIntersection finds in a plain formula.
type intersectPlan struct {
	single  []tokenSpan // intersected with the formula's cell: wrapped in SINGLE
	checked []tokenSpan // calls of INDEX that must return one cell: wrapped in a check (checkOneCell)
	exact   bool        // the single spans are all Excel intersects, bar what checked stops
}

// plainIntersection returns the ranges of a plain formula's tokens that
// Excel intersects with the formula's cell, as token spans in ascending
// order (single), and whether that is all the formula intersects (exact).
// A range, or a call of INDEX that returns a reference of several cells
// (AreaIndexCalls: INDEX(A1:A10,0)), is intersected where
// one value is taken: alone or under an operator at the formula's top
// level, or as (or under an operator in) a value parameter of a function
// that lifts (LiftsParameter, IF's results), every enclosing call being
// such a function too. A range under an operator inside another function
// (SUM(A1:A5*2), SUMPRODUCT's arrays, VLOOKUP's table) is not listed and
// makes the answer inexact; a reference operator (A1:B5 B2:C3, a union, a
// range ending a function's reference) leaves nothing intersected, inexact.
//
// A call of INDEX whose shape only run time tells (computedIndexCalls:
// INDEX(A1:C3,B1,2), several cells when B1 is 0) is intersected where a
// range would be, which leaves one cell as it is; where a range would make
// the answer inexact, outside SUMPRODUCT (whose arrays Excel takes whole),
// it is listed as checked instead, and the answer stays exact: the
// calculation stops there when it returns several cells.
func plainIntersection(tokens []efp.Token) intersectPlan {
	stack, plan := []intersectArg{{path: true}}, intersectPlan{exact: true}
	areas, computed := map[int]int{}, map[int]int{}
	for _, c := range AreaIndexCalls(tokens) {
		areas[c[0]] = c[1]
	}
	for _, c := range computedIndexCalls(tokens) {
		computed[c[0]] = c[1]
	}
	closeArg := func() {
		a := &stack[len(stack)-1]
		switch {
		case len(a.ranges) == 0 && len(a.runtime) == 0:
		case a.path && a.valueArg():
			plan.single = append(append(plan.single, a.ranges...), a.runtime...)
		case a.operator || a.valueArg():
			plan.exact = plan.exact && len(a.ranges) == 0
			if !a.whole {
				plan.checked = append(plan.checked, a.runtime...)
			}
		}
		a.arg, a.operator, a.ranges, a.runtime = a.arg+1, false, nil, nil
	}
	for i, tk := range tokens {
		top := &stack[len(stack)-1]
		switch {
		case isFunctionStartToken(tk):
			name := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(tk.TValue), "_XLFN."), "_XLWS.")
			arg := intersectArg{name: name, path: top.path && top.valueArg(), whole: top.whole || name == "SUMPRODUCT"}
			if to, ok := areas[i]; ok {
				arg.area = &tokenSpan{i, to}
			}
			if to, ok := computed[i]; ok {
				arg.computed = &tokenSpan{i, to}
			}
			stack = append(stack, arg)
		case isFunctionStopToken(tk) && len(stack) > 1:
			closeArg()
			call, caller := stack[len(stack)-1], &stack[len(stack)-2]
			if call.area != nil { // the call is a range of its caller's
				caller.ranges = append(caller.ranges, *call.area)
			}
			if call.computed != nil {
				caller.runtime = append(caller.runtime, *call.computed)
			}
			stack = stack[:len(stack)-1]
		case tk.TType == efp.TokenTypeArgument && len(stack) > 1:
			closeArg()
		case tk.TType == efp.TokenTypeOperatorInfix && (tk.TSubType == efp.TokenSubTypeIntersection || tk.TSubType == efp.TokenSubTypeUnion),
			tk.TType == efp.TokenTypeOperand && strings.HasPrefix(tk.TValue, ":"): // INDEX(...):A5
			return intersectPlan{} // a reference is built: nothing is intersected here
		case tk.TType == efp.TokenTypeOperatorInfix || tk.TType == efp.TokenTypeOperatorPrefix || tk.TType == efp.TokenTypeOperatorPostfix:
			top.operator = true
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange && strings.Contains(tk.TValue, ":"):
			top.ranges = append(top.ranges, tokenSpan{i, i})
		}
	}
	closeArg()
	slices.SortFunc(plan.single, func(a, b tokenSpan) int { return a.from - b.from })
	return plan
}

// intersectPlain returns the tokens of the formula of sheet!cell with each
// range plainIntersection lists rewritten as a call of SINGLE on it (the @
// of the range), and each call of INDEX it lists as checked as a call of
// checkOneCell on it, when the cell intersects (intersectsAt).
func (f *File) intersectPlain(ctx *calcContext, sheet, cell string, tokens []efp.Token) []efp.Token {
	plan := plainIntersection(tokens)
	if len(plan.single)+len(plan.checked) == 0 || !ctx.checks().intersectsAt(f, ctx, sheet, cell) {
		return tokens
	}
	return wrapCalls(tokens, map[string][]tokenSpan{"SINGLE": plan.single, checkOneCell: plan.checked})
}

// wrapSingle rewrites the token spans ranges (disjoint) as calls of SINGLE
// on them.
func wrapSingle(tokens []efp.Token, ranges []tokenSpan) []efp.Token {
	return wrapCalls(tokens, map[string][]tokenSpan{"SINGLE": ranges})
}

// wrapCalls rewrites each token span of calls as a call of the function
// it is listed under, on the span. Spans may nest but not overlap
// otherwise; two spans never start (or end) at one token, as no two
// ranges or calls do.
func wrapCalls(tokens []efp.Token, calls map[string][]tokenSpan) []efp.Token {
	starts, stops, n := map[int]string{}, map[int]bool{}, 0
	for name, spans := range calls {
		for _, sp := range spans {
			starts[sp.from], stops[sp.to] = name, true
			n++
		}
	}
	out := make([]efp.Token, 0, len(tokens)+2*n)
	for i, tk := range tokens {
		if name, ok := starts[i]; ok {
			out = append(out, efp.Token{TValue: name, TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStart})
		}
		out = append(out, tk)
		if stops[i] {
			out = append(out, efp.Token{TType: efp.TokenTypeFunction, TSubType: efp.TokenSubTypeStop})
		}
	}
	return out
}

// checkOneCell is the name of the function the calculator applies to a
// call of INDEX plainIntersection lists as checked: one a formula cannot
// spell, its name holding a space.
const checkOneCell = "INDEX ONE CELL"

// ErrInexactIntersection reports a plain formula the calculator stopped
// computing: a call of INDEX returned several cells (its row or column
// computed to 0) where Excel would intersect them with the formula's cell
// and the calculator takes them whole (SUM(INDEX(A1:C3,B1,2)*2)). The
// formula's result is unknown, which is not an Excel error value.
var ErrInexactIntersection = errors.New("formula intersects a reference INDEX computed where the calculator takes it whole")

// oneCell computes a call of checkOneCell, which name says this is
// (called): its argument, when that is one value; when it is several (a
// reference or an array), the calculation stops with
// ErrInexactIntersection. A calculation without a guard (plain
// CalcCellValue) cannot stop, and takes the cells whole, as upstream does.
func (fn *formulaFuncs) oneCell(name string, args *list.List) (arg formulaArg, called bool) {
	if name != checkOneCell {
		return formulaArg{}, false
	}
	if args.Len() != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), true
	}
	arg = args.Front().Value.(formulaArg)
	if g := fn.guard(); g != nil && severalCells(arg) {
		return stopArg(g.fail(ErrInexactIntersection)), true
	}
	return arg, true
}

// severalCells reports whether arg is more than one cell: a reference of
// several (whatever the data it holds), or an array of several values.
func severalCells(arg formulaArg) bool {
	if arg.Type != ArgMatrix && arg.Type != ArgList {
		return false
	}
	if arg.cellRanges != nil && arg.cellRanges.Len() > 0 {
		cr := arg.cellRanges.Front().Value.(cellRange)
		return arg.cellRanges.Len() > 1 || cr.From.Row != cr.To.Row || cr.From.Col != cr.To.Col
	}
	m := matrixOf(arg)
	return len(m) > 1 || len(m) == 1 && len(m[0]) > 1
}

// PlainIntersectionExact reports whether the calculator computes formula,
// stored as a plain formula (not an array formula), as Excel does: every
// range Excel intersects with the formula's cell is one it intersects
// (plainIntersection), so the result is exact.
func PlainIntersectionExact(formula string) bool {
	ps := efp.ExcelParser()
	return plainIntersection(ps.Parse("=" + strings.TrimPrefix(formula, "="))).exact
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
