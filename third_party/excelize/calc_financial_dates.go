// Copyright 2016 - 2025 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.

package excelize

import "container/list"

// financialDates returns the first n arguments of argsList read as dates
// (prepareDataValueArgs), or the error to return. registry-sidecar: a
// serial after 9999-12-31 is no date: #VALUE!, as the financial functions'
// pages say of an invalid date (ACCRINTM(45292,1E+12,...) computed a
// century of interest).
func (fn *formulaFuncs) financialDates(n int, argsList *list.List) formulaArg {
	dates := fn.prepareDataValueArgs(n, argsList)
	if dates.Type != ArgList {
		return dates
	}
	for _, d := range dates.List {
		if d.Number > maxDateSerial {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
	}
	return dates
}
