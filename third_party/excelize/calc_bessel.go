// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import "math"

// registry-sidecar: BESSELJ and BESSELY are Go's math.Jn and math.Yn
// (upstream's polynomial approximations were off in the 8th digit:
// BESSELY(7,1) gave -0.3026672417 for -0.3026672370). BESSELI, BESSELJ,
// BESSELK and BESSELY truncate the order n; a negative order is #NUM!.

// besselMaxOrder is the largest order computed: the recurrences take one
// step per order, and beyond it J and I underflow to 0 and K and Y
// overflow for any x Excel accepts (LibreOffice answers Err:502 to
// BESSELJ(1.5,1E+12)).
const besselMaxOrder = 1 << 20

// besselOrder returns the order n truncated, or #NUM! for one below 0 or
// above besselMaxOrder.
func besselOrder(n formulaArg) (int, formulaArg) {
	order := math.Trunc(n.Number)
	if order < 0 || order > besselMaxOrder {
		return 0, newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	return int(order), formulaArg{}
}
