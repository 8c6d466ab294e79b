// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import "math"

// registry-sidecar: Excel has no infinite number. A result that overflows
// (COSH(1E+12), LN(0), PMT with no period) is #NUM!, never the text "+INF"
// or "-INF". newNumberFormulaArg turns an infinity into #NUM! where a
// function builds its result; finiteResult does it once more where a
// formula's result leaves the engine, for the few functions that build a
// number directly.

// finiteNumber returns arg, or #NUM! when arg is an infinite or NaN number.
func finiteNumber(arg formulaArg) formulaArg {
	if arg.Type == ArgNumber && (math.IsInf(arg.Number, 0) || math.IsNaN(arg.Number)) {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	return arg
}

// finiteResult returns a formula's result with every infinite or NaN
// number, alone or in an array, replaced by #NUM!. An array is copied
// only when it holds one.
func finiteResult(arg formulaArg) formulaArg {
	switch arg.Type {
	case ArgNumber:
		return finiteNumber(arg)
	case ArgMatrix:
		var out [][]formulaArg
		for r, row := range arg.Matrix {
			for c, v := range row {
				if w := finiteNumber(v); w.Type != v.Type {
					if out == nil {
						out = copyMatrix(arg.Matrix)
					}
					out[r][c] = w
				}
			}
		}
		if out != nil {
			arg.Matrix = out
		}
	case ArgList:
		var out []formulaArg
		for i, v := range arg.List {
			if w := finiteNumber(v); w.Type != v.Type {
				if out == nil {
					out = append([]formulaArg(nil), arg.List...)
				}
				out[i] = w
			}
		}
		if out != nil {
			arg.List = out
		}
	}
	return arg
}

// copyMatrix returns a copy of m whose rows can be changed.
func copyMatrix(m [][]formulaArg) [][]formulaArg {
	out := make([][]formulaArg, len(m))
	for i, row := range m {
		out[i] = append([]formulaArg(nil), row...)
	}
	return out
}
