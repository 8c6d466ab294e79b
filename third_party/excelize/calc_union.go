// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// This file is not upstream excelize: registry-sidecar added it to its
// pinned copy of v2.11.1 (see PATCHES.md). The calculator has no union of
// references: (A1:B2,D1:E3) evaluated as the last area alone, so
// SUM((A1:B2,D1:E3)) summed D1:E3 and INDEX's area_num picked from it. A
// bounded calculation now stops at a union instead; INDEX takes its
// area_num on a reference of one area.

package excelize

import (
	"errors"

	"github.com/xuri/efp"
)

// ErrUnionReference reports a formula the calculator stopped computing
// because it holds a union of references ((A1:B2,D1:E3)), which the
// calculator cannot represent. The formula's result is unknown, which is
// not an Excel error value.
var ErrUnionReference = errors.New("formula holds a union of references, which the calculator does not support")

// refuseUnion stops the calculation ctx belongs to when tokens (a
// formula's, LAMBDA calls bound) hold the union operator. A calculation
// without a guard (plain CalcCellValue) goes on, as upstream does.
func refuseUnion(ctx *calcContext, tokens []efp.Token) error {
	g := ctx.checks()
	if g == nil {
		return nil
	}
	for _, tk := range tokens {
		if tk.TType == efp.TokenTypeOperatorInfix && tk.TSubType == efp.TokenSubTypeUnion {
			return g.fail(ErrUnionReference)
		}
	}
	return nil
}

// indexArea checks INDEX's fourth argument, area_num, on a reference of
// one area (a union never reaches INDEX: refuseUnion): area 1 is the
// reference itself (ok), another number #REF!, anything else its error
// or #VALUE!.
func indexArea(arg formulaArg) (formulaArg, bool) {
	num := arg.ToNumber()
	if num.Type != ArgNumber {
		return num, false
	}
	if int(num.Number) != 1 {
		return newErrorFormulaArg(formulaErrorREF, "INDEX area_num is not an area of the reference"), false
	}
	return formulaArg{}, true
}
