// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: Excel's GROUPBY (PATCHES.md, section N). It
// groups the rows of the data by the row fields, aggregates each column of
// the values per group with a LAMBDA (SUM written bare is an eta LAMBDA,
// calc_lambda_eta.go), sorts the groups and adds totals. The result is
// charged to the guard before it is allocated.

package excelize

import (
	"container/list"
	"slices"
)

// groupLine is one row of a GROUPBY result before it is laid out: its key
// (blank past the level of a subtotal) and its aggregates.
type groupLine struct {
	key, aggs []formulaArg
}

// groupSort reads GROUPBY's sort_order for results of levels key columns
// and aggs aggregate columns: the keys to sort the lines by. The row
// fields come after the given keys, ascending, to break ties.
func groupSort(argsList *list.List, i, levels, aggs int) ([]sortKey, formulaArg, bool) {
	nums, errArg, ok := numberList(argsList, i, 1)
	if !ok {
		return nil, errArg, false
	}
	var keys []sortKey
	for _, n := range nums {
		at := int(n)
		if at < 0 {
			at = -at
		}
		if at < 1 || at > levels+aggs {
			return nil, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
		}
		keys = append(keys, sortKey{at: at - 1, descending: n < 0})
	}
	for l := range levels {
		keys = append(keys, sortKey{at: l})
	}
	return keys, formulaArg{}, true
}

// hierarchyKeys turns sort keys into the order of a hierarchy: level by
// level, each in the direction the keys give it first. It reports false
// when a key sorts by an aggregate, which a hierarchy cannot do here.
func hierarchyKeys(keys []sortKey, levels int) ([]sortKey, bool) {
	out := make([]sortKey, levels)
	set := make([]bool, levels)
	for _, k := range keys {
		if k.at >= levels {
			return nil, false
		}
		if !set[k.at] {
			out[k.at], set[k.at] = k, true
		}
	}
	return out, true
}

// GROUPBY function groups the rows of data by the values of row fields and
// aggregates their values with a function, with totals, sorted. The
// syntax of the function is:
//
//	GROUPBY(row_fields,values,function,[field_headers],[total_depth],[sort_order],[filter_array],[field_relationship])
func (fn *formulaFuncs) GROUPBY(argsList *list.List) formulaArg {
	if argsList.Len() < 3 || argsList.Len() > 8 {
		return newErrorFormulaArg(formulaErrorVALUE, "GROUPBY requires 3 to 8 arguments")
	}
	src, _, errArg, ok := fn.readGroupSource("GROUPBY", argsList, []int{0}, 1, 2, 3, 6)
	if !ok {
		return errArg
	}
	levels, aggs := len(src.fields[0]), len(src.values[0])
	relation, errArg, ok := countArg(argsList, 7, 0)
	if !ok {
		return errArg
	}
	if relation != 0 && relation != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	hierarchy := relation == 0 && levels > 1
	def := 1.0
	if hierarchy {
		def = 2
	}
	depth, top, errArg, ok := totalDepth(argsList, 4, def)
	if !ok {
		return errArg
	}
	if !hierarchy && depth > 1 {
		if levels > 1 {
			return fn.unsupported("GROUPBY with subtotals of a table")
		}
		depth = 1
	}
	keys, errArg, ok := groupSort(argsList, 5, levels, aggs)
	if !ok {
		return errArg
	}
	if hierarchy {
		if keys, ok = hierarchyKeys(keys, levels); !ok {
			return fn.unsupported("GROUPBY sorting a hierarchy by its values")
		}
	}
	groups := groupRows(src.fields, 0, levels)
	lines := make([]groupLine, len(groups))
	all := allRows(len(src.values))
	if err := fn.guard().chargeCells(float64(len(groups)), float64(levels+aggs)); err != nil {
		return stopArg(err)
	}
	for g, grp := range groups {
		lines[g] = groupLine{key: grp.key, aggs: make([]formulaArg, aggs)}
		for c := range aggs {
			if lines[g].aggs[c] = fn.aggregate(&src, c, grp.rows, all); fn.stopped() {
				return stopArg(fn.guard().failed())
			}
		}
	}
	order := allRows(len(lines))
	slices.SortStableFunc(order, func(a, b int) int {
		return compareLines(append(lines[a].key, lines[a].aggs...), append(lines[b].key, lines[b].aggs...), keys)
	})
	return fn.groupResult(&src, groups, lines, order, depth, top)
}

// groupResult lays out GROUPBY's result: the header row when shown, the
// groups in order with the subtotals of levels below depth (each before
// or after its groups, as top says), and the grand total when depth is at
// least 1.
func (fn *formulaFuncs) groupResult(src *groupSource, groups []rowGroup, lines []groupLine, order []int, depth int, top bool) formulaArg {
	levels, aggs := len(src.fields[0]), len(src.values[0])
	subLevels := min(max(depth-1, 0), levels-1)
	bound := float64(len(order))*float64(1+subLevels) + 2
	if err := fn.guard().chargeCells(bound, float64(levels+aggs)); err != nil {
		return stopArg(err)
	}
	var out [][]formulaArg
	if src.showHeads {
		out = append(out, append(slices.Clone(src.fieldHeads), src.valueHeads...))
	}
	total := func(prefix []formulaArg, from, to int) ([]formulaArg, bool) {
		var rows []int
		for _, i := range order[from:to] {
			rows = append(rows, groups[i].rows...)
		}
		line := make([]formulaArg, 0, levels+aggs)
		line = append(line, prefix...)
		if len(prefix) == 0 {
			line = append(line, newStringFormulaArg("Total"))
		}
		for len(line) < levels {
			line = append(line, emptyText())
		}
		all := allRows(len(src.values))
		for c := range aggs {
			if line = append(line, fn.aggregate(src, c, rows, all)); fn.stopped() {
				return nil, false
			}
		}
		return line, true
	}
	var emit func(level, from, to int) bool
	emit = func(level, from, to int) bool {
		if level >= subLevels {
			for _, i := range order[from:to] {
				out = append(out, append(slices.Clone(lines[i].key), lines[i].aggs...))
			}
			return true
		}
		for start := from; start < to; {
			end := start + 1
			for end < to && groupKeyPart(lines[order[end]].key[level]) == groupKeyPart(lines[order[start]].key[level]) {
				end++
			}
			prefix := lines[order[start]].key[:level+1]
			sub, ok := total(prefix, start, end)
			if !ok {
				return false
			}
			if top {
				out = append(out, sub)
			}
			if !emit(level+1, start, end) {
				return false
			}
			if !top {
				out = append(out, sub)
			}
			start = end
		}
		return true
	}
	var grand []formulaArg
	if depth >= 1 {
		var ok bool
		if grand, ok = total(nil, 0, len(order)); !ok {
			return stopArg(fn.guard().failed())
		}
		if top {
			out = append(out, grand)
		}
	}
	if !emit(0, 0, len(order)) {
		return stopArg(fn.guard().failed())
	}
	if grand != nil && !top {
		out = append(out, grand)
	}
	return newMatrixFormulaArg(out)
}
