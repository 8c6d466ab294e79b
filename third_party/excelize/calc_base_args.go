// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

// registry-sidecar: the number a binary or octal conversion (BIN2DEC,
// BIN2HEX, BIN2OCT, OCT2BIN, OCT2DEC, OCT2HEX) reads. An error is the
// result; an empty text or a blank cell is 0, as for HEX2DEC (BIN2HEX("",4)
// is "0000" in LibreOffice); other text that is no number is #VALUE!.

// baseNumberArg returns the argument to convert, or the error to return.
func baseNumberArg(token formulaArg) (formulaArg, formulaArg, bool) {
	if token.Type == ArgError {
		return formulaArg{}, token, false
	}
	if token.Value() == "" {
		return newStringFormulaArg("0"), formulaArg{}, true
	}
	if number := token.ToNumber(); number.Type != ArgNumber {
		return formulaArg{}, newErrorFormulaArg(formulaErrorVALUE, number.Error), false
	}
	return token, formulaArg{}, true
}
