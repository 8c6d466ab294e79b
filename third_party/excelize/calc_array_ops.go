// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It applies the operators of a
// formula (+ - * / ^ & = <> < <= > >=, unary minus and %) as Excel 365
// does: to two values, or element by element to arrays, a single row or
// column (or a single value) stretched over the other operand and the cells
// where one operand has no element #N/A; an error inside an array stays in
// its own element.

package excelize

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/xuri/efp"
)

// isArrayOperand reports whether an operand is an array (a range of cells,
// an array constant or a function's array result).
func isArrayOperand(a formulaArg) bool {
	return a.Type == ArgMatrix || a.Type == ArgList
}

// binaryOperator returns the element function of an infix operator.
func binaryOperator(name string) (func(l, r formulaArg) formulaArg, bool) {
	switch name {
	case "+", "-", "*", "/", "^":
		return func(l, r formulaArg) formulaArg { return arithmetic(name, l, r) }, true
	case "&":
		return concatOperands, true
	case "=", "<>", "<", "<=", ">", ">=":
		return func(l, r formulaArg) formulaArg { return compareOperands(name, l, r) }, true
	}
	return nil, false
}

// applyBinary applies op to l and r: to the two values, or element by
// element when either is an array (broadcast).
func applyBinary(l, r formulaArg, op func(l, r formulaArg) formulaArg) formulaArg {
	if !isArrayOperand(l) && !isArrayOperand(r) {
		return op(l, r)
	}
	lm, rm := matrixOf(l), matrixOf(r)
	if lm == nil || rm == nil {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	rows, cols := max(len(lm), len(rm)), max(len(lm[0]), len(rm[0]))
	out := make([][]formulaArg, rows)
	for i := range out {
		out[i] = make([]formulaArg, cols)
		for j := range out[i] {
			a, okA := broadcastAt(lm, i, j)
			b, okB := broadcastAt(rm, i, j)
			if !okA || !okB {
				out[i][j] = newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
				continue
			}
			out[i][j] = op(a, b)
		}
	}
	return newMatrixFormulaArg(out)
}

// applyUnary applies op to a value, or to each element of an array.
func applyUnary(a formulaArg, op func(a formulaArg) formulaArg) formulaArg {
	if !isArrayOperand(a) {
		return op(a)
	}
	m := matrixOf(a)
	if m == nil {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	out := make([][]formulaArg, len(m))
	for i, row := range m {
		out[i] = make([]formulaArg, len(row))
		for j, v := range row {
			out[i][j] = op(v)
		}
	}
	return newMatrixFormulaArg(out)
}

// broadcastAt returns the element of m that row i, column j of a broadcast
// result reads: a single row serves every row, a single column every
// column; false when m has no such element.
func broadcastAt(m [][]formulaArg, i, j int) (formulaArg, bool) {
	if len(m) == 1 {
		i = 0
	}
	if i >= len(m) {
		return formulaArg{}, false
	}
	if len(m[i]) == 1 {
		j = 0
	}
	if j >= len(m[i]) {
		return formulaArg{}, false
	}
	return m[i][j], true
}

// operandNumber converts one value to the number arithmetic takes: a blank
// is 0, a logical 1 or 0, text must read as a number (#VALUE! otherwise),
// an error stays itself.
func operandNumber(a formulaArg) formulaArg {
	switch a.Type {
	case ArgEmpty:
		return newNumberFormulaArg(0)
	case ArgNumber, ArgError:
		return a
	case ArgString:
		if n := a.ToNumber(); n.Type == ArgNumber {
			return n
		}
	}
	return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
}

// arithmetic applies + - * / ^ to two values; an error operand (the left
// one first) is the result.
func arithmetic(op string, l, r formulaArg) formulaArg {
	x, y := operandNumber(l), operandNumber(r)
	if x.Type == ArgError {
		return x
	}
	if y.Type == ArgError {
		return y
	}
	var n float64
	switch op {
	case "+":
		n = x.Number + y.Number
	case "-":
		n = x.Number - y.Number
	case "*":
		n = x.Number * y.Number
	case "/":
		if y.Number == 0 {
			return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
		}
		n = x.Number / y.Number
	case "^":
		if x.Number == 0 && y.Number < 0 {
			return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
		}
		n = math.Pow(x.Number, y.Number)
	}
	if math.IsNaN(n) || math.IsInf(n, 0) {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	return newNumberFormulaArg(n)
}

// negate is unary minus on one value.
func negate(a formulaArg) formulaArg {
	return arithmetic("-", newNumberFormulaArg(0), a)
}

// percent is the % postfix on one value.
func percent(a formulaArg) formulaArg {
	return arithmetic("/", a, newNumberFormulaArg(100))
}

// operandText converts one value to the text & joins: a number as Excel's
// General format shows it (up to 15 significant digits), a logical TRUE or
// FALSE, a blank "".
func operandText(a formulaArg) string {
	if a.Type == ArgNumber && !a.Boolean {
		return generalNumberText(a.Number)
	}
	return a.Value()
}

// generalNumberText formats n with at most 15 significant digits, in
// scientific notation only when it is very large or very small.
func generalNumberText(n float64) string {
	rounded, err := strconv.ParseFloat(strconv.FormatFloat(n, 'g', 15, 64), 64)
	if err != nil {
		return strconv.FormatFloat(n, 'G', 15, 64)
	}
	if abs := math.Abs(rounded); rounded == 0 || (abs >= 1e-9 && abs < 1e15) {
		return strconv.FormatFloat(rounded, 'f', -1, 64)
	}
	return strings.ToUpper(strconv.FormatFloat(rounded, 'G', 15, 64))
}

// concatOperands is & on two values; an error operand is the result, and
// text longer than a cell holds is #VALUE!.
func concatOperands(l, r formulaArg) formulaArg {
	if l.Type == ArgError {
		return l
	}
	if r.Type == ArgError {
		return r
	}
	a, b := operandText(l), operandText(r)
	if textTooLong(a, b) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	return newStringFormulaArg(a + b)
}

// compareOperands applies a comparison to two values as Excel orders them:
// numbers before text before logicals, text without regard to case, a blank
// as 0, "" or FALSE after the other operand's type; an error operand is the
// result.
func compareOperands(op string, l, r formulaArg) formulaArg {
	if l.Type == ArgError {
		return l
	}
	if r.Type == ArgError {
		return r
	}
	c := compareValues(blankAs(l, r), blankAs(r, l))
	var b bool
	switch op {
	case "=":
		b = c == 0
	case "<>":
		b = c != 0
	case "<":
		b = c < 0
	case "<=":
		b = c <= 0
	case ">":
		b = c > 0
	case ">=":
		b = c >= 0
	}
	return newBoolFormulaArg(b)
}

// blankAs returns a, or for a blank the value of other's type it equals.
func blankAs(a, other formulaArg) formulaArg {
	if a.Type != ArgEmpty {
		return a
	}
	switch {
	case other.Type == ArgString:
		return newStringFormulaArg("")
	case other.Type == ArgNumber && other.Boolean:
		return newBoolFormulaArg(false)
	}
	return newNumberFormulaArg(0)
}

// compareRank is a value's place in Excel's order of types.
func compareRank(a formulaArg) int {
	switch {
	case a.Type == ArgString:
		return 1
	case a.Type == ArgNumber && a.Boolean:
		return 2
	}
	return 0
}

// compareValues returns -1, 0 or 1 as l sorts before, with or after r;
// numbers equal to 15 significant digits are equal.
func compareValues(l, r formulaArg) int {
	if rl, rr := compareRank(l), compareRank(r); rl != rr {
		if rl < rr {
			return -1
		}
		return 1
	}
	if l.Type == ArgString {
		return strings.Compare(strings.ToLower(l.String), strings.ToLower(r.String))
	}
	x, y := l.Number, r.Number
	if x == y || strconv.FormatFloat(x, 'g', 15, 64) == strconv.FormatFloat(y, 'g', 15, 64) {
		return 0
	}
	if x < y {
		return -1
	}
	return 1
}

// pushResult pushes the result of an operator: an array as it is, errors
// per element; a single error value is returned as the error of the
// operation, as the calculator reports one.
func pushResult(res formulaArg, opdStack *Stack) error {
	if res.Type == ArgError {
		return errors.New(res.String)
	}
	opdStack.Push(res)
	return nil
}

// isFormulaEnd reports whether next, the token after another, is the end
// of the formula.
func isFormulaEnd(next efp.Token) bool {
	return next.TValue == "" && next.TType == ""
}

// cellValueOf is the value a formula's cell shows when its result is an
// array: the first element, as the anchor of a spill shows it (an error
// element is the formula's error). Other results are returned as they are.
func cellValueOf(result formulaArg, err error) (formulaArg, error) {
	if err != nil || result.Type != ArgMatrix || len(result.Matrix) == 0 || len(result.Matrix[0]) == 0 {
		return result, err
	}
	v := result.Matrix[0][0]
	if v.Type == ArgError {
		return v, errors.New(v.Error)
	}
	return v, nil
}

// arrayExtent is the number of columns (cols) or rows of an array that is
// not a reference (an array constant, a function's or an operator's
// result), or the error passed instead; false for a reference, whose
// extent its cell range gives.
func arrayExtent(arg formulaArg, cols bool) (formulaArg, bool) {
	if arg.Type == ArgError {
		return arg, true
	}
	if arg.cellRanges != nil && arg.cellRanges.Len() > 0 || arg.cellRefs != nil && arg.cellRefs.Len() > 0 {
		return formulaArg{}, false
	}
	m := matrixOf(arg)
	if arg.Type != ArgMatrix && arg.Type != ArgList || m == nil {
		return formulaArg{}, false
	}
	if cols {
		return newNumberFormulaArg(float64(len(m[0]))), true
	}
	return newNumberFormulaArg(float64(len(m))), true
}
