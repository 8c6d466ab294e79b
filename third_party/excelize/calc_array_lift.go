// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). It lifts a function over arrays
// as Excel 365 does: a function given an array (a range, an array constant,
// an operator's or a function's array result) where it takes one value is
// applied to each element, and its result is the array of the results
// (ABS(A1:A3-1), IF(A1:A5>3,"big","small"), LEN(A1:A3)). Which parameters
// take one value is data: liftKinds, one letter a parameter.

package excelize

import (
	"container/list"
	"reflect"
	"strings"
)

// Kinds of parameter, the letters of liftKinds.
const (
	// liftValue is a parameter taking one value: an array there lifts the
	// call over its elements.
	liftValue = 'v'
	// liftCarried is a parameter whose array is taken element by element
	// when the call lifts over a value parameter, and whole otherwise (IF's
	// results: IF(TRUE,A1:A3) is the range, IF(A1:A3>1,B1:B3) pairs them).
	liftCarried = 'c'
	// liftWhole is a parameter the function takes whole (a range or an
	// array: VLOOKUP's table).
	liftWhole = 'a'
)

// liftKinds returns the kinds of the parameters of the function name
// (upper case, without file prefixes: CEILING.MATH), one letter a parameter, the
// last letter repeating for the parameters after it; "" for a function that
// is never lifted (it takes arrays, or is not listed). Excel lifts a
// parameter its function declares as a value; only functions whose
// parameters are all understood are listed.
func liftKinds(name string) string {
	switch name {
	case // math and trigonometry: every parameter a number
		"ABS", "SIGN", "SQRT", "SQRTPI", "EXP", "LN", "LOG", "LOG10", "INT", "TRUNC", "ROUND", "ROUNDUP",
		"ROUNDDOWN", "MROUND", "MOD", "QUOTIENT", "POWER", "CEILING", "FLOOR", "EVEN", "ODD", "FACT",
		"FACTDOUBLE", "COMBIN", "PERMUT", "DEGREES", "RADIANS", "SIN", "COS", "TAN", "ASIN", "ACOS",
		"ATAN", "ATAN2", "SINH", "COSH", "TANH", "ASINH", "ACOSH", "ATANH", "COT", "CSC", "SEC",
		"CEILING.MATH", "FLOOR.MATH", "BASE", "DECIMAL", "ROMAN", "ARABIC",
		// text: every parameter a text or a number
		"LEN", "LEFT", "RIGHT", "MID", "UPPER", "LOWER", "PROPER", "TRIM", "CLEAN", "TEXT", "VALUE",
		"SUBSTITUTE", "REPLACE", "REPT", "FIND", "SEARCH", "EXACT", "CHAR", "CODE", "UNICHAR",
		"UNICODE", "FIXED", "DOLLAR", "CONCATENATE", "T",
		// information and logic: one value each
		"ISNUMBER", "ISTEXT", "ISNONTEXT", "ISLOGICAL", "ISBLANK", "ISERROR", "ISERR", "ISNA",
		"ISEVEN", "ISODD", "NOT", "ERROR.TYPE", "N",
		// dates and times
		"DATE", "TIME", "YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND", "WEEKDAY", "DATEVALUE",
		"TIMEVALUE", "DAYS":
		return "v"
	case "IF", "IFERROR", "IFNA", "CHOOSE":
		return "vc"
	case "VLOOKUP", "HLOOKUP":
		return "vav"
	case "FORECAST.ETS", "FORECAST.ETS.CONFINT": // the target date, the series whole, the options
		return "vaav"
	}
	return ""
}

// LiftsOverArrays reports whether Excel 365 applies the function name
// (upper case, without file prefixes such as _xlfn.) to each element of an
// array given for a parameter that takes one value, as the calculator does.
func LiftsOverArrays(name string) bool {
	return liftKinds(name) != ""
}

// LiftsParameter reports whether an array given for parameter i (0-based)
// of the function name (as LiftsOverArrays takes it) lifts the call over
// its elements: the parameter takes one value. A parameter taking an array
// whole, or one whose array is paired only when another lifts the call
// (IF's results), reports false, as does a function not known to lift.
func LiftsParameter(name string, i int) bool {
	kinds := liftKinds(name)
	return kinds != "" && liftKindAt(kinds, i) == liftValue
}

// liftKindAt returns the kind of parameter i (0-based) in kinds.
func liftKindAt(kinds string, i int) byte {
	if i >= len(kinds) {
		return kinds[len(kinds)-1]
	}
	return kinds[i]
}

// liftCall applies the function name to each element of the arrays its
// value parameters were given, as Excel 365 does, and returns the array of
// the results; false when no value parameter holds an array (the function
// is called as it is). The arrays are stretched as an operator stretches
// its operands: a single row or column over the others, #N/A where one has
// no element.
func (fn *formulaFuncs) liftCall(name string, args *list.List) (formulaArg, bool) {
	kinds := liftKinds(strings.ToUpper(strings.ReplaceAll(name, "dot", ".")))
	if kinds == "" {
		return formulaArg{}, false
	}
	vals, lifts := make([]formulaArg, 0, args.Len()), false
	for e := args.Front(); e != nil; e = e.Next() {
		arg, _ := e.Value.(formulaArg)
		lifts = lifts || (liftKindAt(kinds, len(vals)) == liftValue && isArrayOperand(arg))
		vals = append(vals, arg)
	}
	if !lifts {
		return formulaArg{}, false
	}
	arrays, rows, cols := make([][][]formulaArg, len(vals)), 0, 0
	for i, arg := range vals {
		if liftKindAt(kinds, i) == liftWhole || !isArrayOperand(arg) {
			continue
		}
		if arrays[i] = matrixOf(arg); arrays[i] == nil {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), true
		}
		rows, cols = max(rows, len(arrays[i])), max(cols, len(arrays[i][0]))
	}
	if err := fn.ctx.checks().spend(float64(rows) * float64(cols)); err != nil {
		return stopArg(err), true
	}
	out := make([][]formulaArg, rows)
	for r := range out {
		out[r] = make([]formulaArg, cols)
		for c := range out[r] {
			out[r][c] = fn.liftedElement(name, vals, arrays, r, c)
		}
	}
	return newMatrixFormulaArg(out), true
}

// liftedElement is element (r, c) of a lifted call: the function applied
// to that element of each array argument (arrays[i], nil for an argument
// passed as it is), #N/A when an array has no such element. An array
// result is reduced to its first value, as Excel does inside a lifted call.
func (fn *formulaFuncs) liftedElement(name string, vals []formulaArg, arrays [][][]formulaArg, r, c int) formulaArg {
	args := list.New()
	for i, arg := range vals {
		if arrays[i] != nil {
			var ok bool
			if arg, ok = broadcastAt(arrays[i], r, c); !ok {
				return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
			}
		}
		args.PushBack(arg)
	}
	res := fn.ctx.checks().boundResult(callFuncByName(fn, name, []reflect.Value{reflect.ValueOf(args)}))
	if isArrayOperand(res) {
		if m := matrixOf(res); m != nil {
			return m[0][0]
		}
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	return res
}
