// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: what GROUPBY and PIVOTBY share (PATCHES.md,
// section N): reading their field, value, header and filter arguments,
// grouping rows by key and aggregating a group's values with a LAMBDA.

package excelize

import (
	"container/list"
	"strconv"
	"strings"
)

// Field header modes of GROUPBY and PIVOTBY's field_headers argument.
const (
	headersAuto     = -1 // absent: headers when the values look like it
	headersNone     = 0  // no headers
	headersHidden   = 1  // headers, not shown
	headersGenerate = 2  // no headers, generated ones shown
	headersShown    = 3  // headers, shown
)

// groupSource is the data GROUPBY or PIVOTBY aggregates: per kept data row
// its fields (row fields, then column fields for PIVOTBY) and values, the
// headers when the data has them, and the LAMBDA aggregating.
type groupSource struct {
	fields, values [][]formulaArg
	fieldHeads     []formulaArg
	valueHeads     []formulaArg
	showHeads      bool
	agg            lambdaDef
}

// emptyText is a blank cell of a GROUPBY or PIVOTBY result: empty text,
// shown blank (an empty value would be shown 0).
func emptyText() formulaArg {
	return newStringFormulaArg("")
}

// headerMode reads the field_headers argument i: headersAuto when absent.
func headerMode(argsList *list.List, i int) (int, formulaArg, bool) {
	n, errArg, ok := countArg(argsList, i, headersAuto)
	if !ok {
		return 0, errArg, false
	}
	if n < headersAuto || n > headersShown {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return int(n), formulaArg{}, true
}

// hasHeaders tells whether the data has a header row under mode: in the
// automatic mode, when the first value is text and the second a number.
func hasHeaders(mode int, values [][]formulaArg) bool {
	switch mode {
	case headersHidden, headersShown:
		return true
	case headersAuto:
		return len(values) > 1 && values[0][0].Type == ArgString && values[0][0].String != "" &&
			values[1][0].Type == ArgNumber && !values[1][0].Boolean
	}
	return false
}

// filterFlags reads the filter_array argument i for n rows, the first of
// them headers when first is 1: nil when absent, else one flag per row
// after the headers.
func filterFlags(argsList *list.List, i, n, first int) ([]bool, formulaArg, bool) {
	if argsList.Len() <= i || isOmitted(argAt(argsList, i)) {
		return nil, formulaArg{}, true
	}
	arg := argAt(argsList, i)
	if arg.Type == ArgError {
		return nil, arg, false
	}
	m := matrixOf(arg)
	if len(m) != n || len(m[0]) != 1 {
		return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	flags, _, errArg, ok := includeFlags(m[first:], n-first, 1)
	return flags, errArg, ok
}

// readGroupSource reads the fields (arguments at fieldArgs, side by side),
// the values (argument valueArg), the LAMBDA (argument fnArg), the
// field_headers (argument headArg) and the filter (argument filterArg) of
// GROUPBY or PIVOTBY, keeping the data rows the filter keeps. It returns
// too the number of columns each field argument has.
func (fn *formulaFuncs) readGroupSource(name string, argsList *list.List, fieldArgs []int, valueArg, fnArg, headArg, filterArg int) (groupSource, []int, formulaArg, bool) {
	var src groupSource
	values, errArg, ok := fn.tableArg(name, argsList, valueArg)
	if !ok {
		return src, nil, errArg, false
	}
	n := len(values)
	fields, widths := make([][]formulaArg, n), make([]int, len(fieldArgs))
	for k, i := range fieldArgs {
		m, errArg, ok := fn.tableArg(name, argsList, i)
		if !ok {
			return src, nil, errArg, false
		}
		if len(m) != n {
			return src, nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
		}
		widths[k] = len(m[0])
		for r := range fields {
			fields[r] = append(fields[r], m[r]...)
		}
	}
	fnVal := argAt(argsList, fnArg)
	if fnVal.Type == ArgError {
		return src, nil, fnVal, false
	}
	if fnVal.Type == ArgMatrix || fnVal.Type == ArgList {
		return src, nil, fn.unsupported(name + " with several functions"), false
	}
	def, isLambda := fn.ctx.lambdaOf(fnVal)
	if !isLambda || !(def.fits(1) || def.fits(2)) {
		return src, nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	src.agg = def
	mode, errArg, ok := headerMode(argsList, headArg)
	if !ok {
		return src, nil, errArg, false
	}
	if mode == headersGenerate {
		return src, nil, fn.unsupported(name + " with generated headers"), false
	}
	first := 0
	if hasHeaders(mode, values) {
		src.fieldHeads, src.valueHeads, first = fields[0], values[0], 1
		src.showHeads = mode == headersShown || (mode == headersAuto && len(fields[0]) > len(fieldArgs))
	}
	flags, errArg, ok := filterFlags(argsList, filterArg, n, first)
	if !ok {
		return src, nil, errArg, false
	}
	for r := first; r < n; r++ {
		if flags == nil || flags[r-first] {
			src.fields, src.values = append(src.fields, fields[r]), append(src.values, values[r])
		}
	}
	if len(src.fields) == 0 {
		return src, nil, newErrorFormulaArg(formulaErrorCALC, formulaErrorCALC), false
	}
	return src, widths, formulaArg{}, true
}

// groupKeyPart is one value of a group's key as text: its type and value,
// text ignoring case (rows group as Excel's UNIQUE matches them).
func groupKeyPart(v formulaArg) string {
	switch {
	case v.Type == ArgNumber && v.Boolean:
		return "b" + strconv.FormatBool(v.Number != 0)
	case v.Type == ArgNumber:
		return "n" + strconv.FormatFloat(v.Number, 'g', -1, 64)
	case v.Type == ArgError:
		return "e" + v.Error
	case v.Type == ArgEmpty || (v.Type == ArgString && v.String == ""):
		return "z"
	}
	return "s" + strings.ToLower(v.Value())
}

// keyValue is how a key value shows in a result: a blank cell as empty
// text.
func keyValue(v formulaArg) formulaArg {
	if v.Type == ArgEmpty {
		return emptyText()
	}
	return v
}

// rowGroup is the data rows sharing one key.
type rowGroup struct {
	key  []formulaArg
	rows []int
}

// groupRows groups the data rows by their fields from..to-1, in the order
// their keys first appear. Each level of a key shows as it is first spelt
// under its parents ("East" and "east" are one group, shown "East").
func groupRows(fields [][]formulaArg, from, to int) []rowGroup {
	var groups []rowGroup
	index, shown, ok := map[string]int{}, map[string]formulaArg{}, false
	var b strings.Builder
	for r, line := range fields {
		b.Reset()
		key := make([]formulaArg, to-from)
		for i, v := range line[from:to] {
			b.WriteString(groupKeyPart(v))
			b.WriteByte(0)
			if key[i], ok = shown[b.String()]; !ok {
				key[i] = keyValue(v)
				shown[b.String()] = key[i]
			}
		}
		k, ok := index[b.String()]
		if !ok {
			k = len(groups)
			index[b.String()] = k
			groups = append(groups, rowGroup{key: key})
		}
		groups[k].rows = append(groups[k].rows, r)
	}
	return groups
}

// aggregate calls the LAMBDA on column col of the data rows (and, when it
// takes two arguments, on the column's rows all too, as PERCENTOF does).
func (fn *formulaFuncs) aggregate(src *groupSource, col int, rows, all []int) formulaArg {
	if err := fn.guard().chargeCells(float64(len(rows)+len(all)), 1); err != nil {
		return stopArg(err)
	}
	column := func(rows []int) formulaArg {
		m := make([][]formulaArg, len(rows))
		for i, r := range rows {
			m[i] = []formulaArg{src.values[r][col]}
		}
		return newMatrixFormulaArg(m)
	}
	args := []formulaArg{column(rows)}
	if !src.agg.fits(1) {
		args = append(args, column(all))
	}
	return cellResult(fn.applyLambda(src.agg, args))
}

// allRows is the indexes 0..n-1.
func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// totalDepth reads a total_depth argument i for levels of fields: how many
// levels get totals (1 the grand total, 2 subtotals of the first level
// too...) and whether they come first. Absent, it is def.
func totalDepth(argsList *list.List, i int, def float64) (depth int, top bool, errArg formulaArg, ok bool) {
	n, errArg, ok := countArg(argsList, i, def)
	if !ok {
		return 0, false, errArg, false
	}
	if n < 0 {
		return int(-n), true, formulaArg{}, true
	}
	return int(n), false, formulaArg{}, true
}
