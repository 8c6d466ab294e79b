// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It makes INDEX with a row or
// column of 0 (or omitted) return what Excel's returns: a whole column, row
// or area of its reference, as a reference (INDEX(A1:C3,0,2) is B1:B3), so
// that a plain formula intersects it with its own row or column and a
// function taking a reference reads it as one.

package excelize

import (
	"container/list"
	"slices"
	"strconv"
	"strings"

	"github.com/xuri/efp"
)

// indexReference returns result, the values INDEX picked from array (a
// row when colIdx is -1, a column when rowIdx is -1), as the reference
// they come from when array is a reference of one area.
func indexReference(array formulaArg, rowIdx, colIdx int, result formulaArg) formulaArg {
	if result.Type != ArgMatrix || array.cellRanges == nil || array.cellRanges.Len() != 1 {
		return result
	}
	cr := array.cellRanges.Front().Value.(cellRange)
	if rowIdx >= 0 {
		cr.From.Row += rowIdx
		cr.To.Row = cr.From.Row
	}
	if colIdx >= 0 {
		cr.From.Col += colIdx
		cr.To.Col = cr.From.Col
	}
	ranges := list.New()
	ranges.PushBack(cr)
	result.cellRanges, result.cellRefs = ranges, list.New()
	return result
}

// indexWhole is INDEX with a row and a column of 0 (or omitted): the whole
// array (the reference itself), a single value as that value.
func indexWhole(array formulaArg) formulaArg {
	if cells := array.ToList(); len(cells) == 1 {
		return cells[0]
	}
	if array.Type == ArgMatrix {
		return array
	}
	return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
}

// AreaIndexCalls returns the calls of INDEX in tokens (a formula's tokens,
// as efp parses them) whose arguments, as written, make the result more
// than one cell: a row or column number that is 0 or left empty
// (INDEX(A1:A10,0), INDEX(A1:C3,,2)), or a row number alone on a range of
// several rows and columns (INDEX(A1:C3,2), a whole row). Each call is
// the indices of the tokens starting and ending it, in the order the calls
// start. A number computed to 0 (INDEX(A1:C3,B1,2) with B1 blank) is not
// seen: computedIndexCalls lists such calls.
func AreaIndexCalls(tokens []efp.Token) [][2]int {
	return indexCalls(tokens, (*indexCall).area)
}

// computedIndexCalls returns the calls of INDEX in tokens, as
// AreaIndexCalls does, whose result only run time tells to be one cell or
// several: a row, column or area number that is not a number written out
// (INDEX(A1:C3,B1,2), INDEX(A1:C3,MATCH(5,B1:B3,0)-1,2)), or a reference
// that is not one range written out (INDEX(Data,2)). A call AreaIndexCalls
// lists is not listed.
func computedIndexCalls(tokens []efp.Token) [][2]int {
	return indexCalls(tokens, func(c *indexCall) bool { return !c.area() && !c.fixed() })
}

// indexCalls returns the calls of INDEX in tokens that pick reports, as
// AreaIndexCalls describes them.
func indexCalls(tokens []efp.Token, pick func(*indexCall) bool) [][2]int {
	var (
		stack []indexCall
		out   [][2]int
	)
	for i, tk := range tokens {
		if tk.TType == efp.TokenTypeWhitespace {
			continue
		}
		if len(stack) > 0 && !isFunctionStopToken(tk) && tk.TType != efp.TokenTypeArgument {
			stack[len(stack)-1].note(tk)
		}
		switch {
		case isFunctionStartToken(tk):
			name := strings.TrimPrefix(strings.TrimPrefix(strings.ToUpper(tk.TValue), "_XLFN."), "_XLWS.")
			stack = append(stack, indexCall{start: i, index: name == "INDEX", args: []indexArg{{}}})
		case tk.TType == efp.TokenTypeArgument && len(stack) > 0:
			top := &stack[len(stack)-1]
			top.args = append(top.args, indexArg{})
		case isFunctionStopToken(tk) && len(stack) > 0:
			c := stack[len(stack)-1]
			if stack = stack[:len(stack)-1]; c.index && pick(&c) {
				out = append(out, [2]int{c.start, i})
			}
		}
	}
	slices.SortFunc(out, func(a, b [2]int) int { return a[0] - b[0] })
	return out
}

// indexCall is one call open while AreaIndexCalls walks a formula.
type indexCall struct {
	start int        // the index of the token starting the call
	index bool       // the call is of INDEX
	args  []indexArg // the arguments read so far, the last one being read
}

// indexArg is one argument of an indexCall.
type indexArg struct {
	tokens int       // its tokens outside nested calls (a call counts as one)
	lone   efp.Token // its token, when it has one
}

// note counts tk in the argument being read.
func (c *indexCall) note(tk efp.Token) {
	a := &c.args[len(c.args)-1]
	a.tokens++
	a.lone = tk
}

// area reports whether the INDEX call returns more than one cell, as its
// arguments are written (see AreaIndexCalls).
func (c *indexCall) area() bool {
	for _, a := range c.args[1:] {
		if a.tokens == 0 || a.tokens == 1 && isZeroNumber(a.lone) {
			return true
		}
	}
	return len(c.args) == 2 && c.args[0].tokens == 1 && rangeIsBlock(c.args[0].lone)
}

// fixed reports whether the INDEX call returns one cell whatever the
// values of cells: its reference is one range written out and each of its
// other arguments a number written out, none of them 0, and not a row
// alone on a block (area lists those).
func (c *indexCall) fixed() bool {
	if c.args[0].tokens != 1 || !isWrittenReference(c.args[0].lone) {
		return false
	}
	for _, a := range c.args[1:] {
		if a.tokens != 1 || a.lone.TType != efp.TokenTypeOperand || a.lone.TSubType != efp.TokenSubTypeNumber || isZeroNumber(a.lone) {
			return false
		}
	}
	return !c.area()
}

// isZeroNumber reports whether tk is the number 0 written as an operand.
func isZeroNumber(tk efp.Token) bool {
	if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeNumber {
		return false
	}
	n, err := strconv.ParseFloat(tk.TValue, 64)
	return err == nil && n == 0
}

// isWrittenReference reports whether tk is a cell or a range written out
// (A1, A1:C3, A:C, 1:3), optionally on a named sheet; not a defined name.
func isWrittenReference(tk efp.Token) bool {
	if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeRange {
		return false
	}
	ref := strings.ReplaceAll(tk.TValue[strings.LastIndex(tk.TValue, "!")+1:], "$", "")
	for _, end := range strings.Split(ref, ":") {
		if _, _, err := CellNameToCoordinates(end); err == nil {
			continue
		}
		if _, err := strconv.Atoi(end); err == nil && strings.Contains(ref, ":") {
			continue
		}
		if _, err := ColumnNameToNumber(end); err != nil || !strings.Contains(ref, ":") {
			return false
		}
	}
	return true
}

// rangeIsBlock reports whether tk is a range of more than one row and more
// than one column (A1:C3, A:C, 1:3), optionally on a named sheet.
func rangeIsBlock(tk efp.Token) bool {
	if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeRange {
		return false
	}
	ref := strings.ReplaceAll(tk.TValue[strings.LastIndex(tk.TValue, "!")+1:], "$", "")
	ends := strings.Split(ref, ":")
	if len(ends) != 2 {
		return false
	}
	var cols, rows [2]int
	for i, end := range ends {
		col, row, err := CellNameToCoordinates(end)
		if err != nil {
			if n, err := strconv.Atoi(end); err == nil {
				col, row = 1+i*(MaxColumns-1), n // a whole row: every column
			} else if n, err := ColumnNameToNumber(end); err == nil {
				col, row = n, 1+i*(TotalRows-1) // a whole column: every row
			} else {
				return false
			}
		}
		cols[i], rows[i] = col, row
	}
	return cols[0] != cols[1] && rows[0] != rows[1]
}
