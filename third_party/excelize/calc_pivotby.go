// Copyright 2016 - 2026 The excelize Authors. All rights reserved. Use of
// this source code is governed by a BSD-style license that can be found in
// the LICENSE file.
//
// registry-sidecar addition: Excel's PIVOTBY (PATCHES.md, section N), for
// one row field, one column field and one column of values: the rows of
// the data grouped both ways, each intersection aggregated with a LAMBDA,
// with row and column totals. More levels, several value columns and shown
// headers are left uncomputed.

package excelize

import (
	"container/list"
	"slices"
)

// pivotAxis is one axis of a PIVOTBY result: its groups in order, and
// whether a total comes and where.
type pivotAxis struct {
	groups   []rowGroup
	of       []int // the group of each data row
	total    bool
	totalTop bool
}

// readPivotAxis groups the data rows by field col, sorted as the
// sort_order argument sortArg says, with the totals total_depth argument
// depthArg asks for.
func (fn *formulaFuncs) readPivotAxis(src *groupSource, argsList *list.List, col, depthArg, sortArg int) (pivotAxis, formulaArg, bool) {
	var ax pivotAxis
	depth, top, errArg, ok := totalDepth(argsList, depthArg, 1)
	if !ok {
		return ax, errArg, false
	}
	ax.total, ax.totalTop = depth >= 1, top
	order, errArg, ok := numberList(argsList, sortArg, 1)
	if !ok {
		return ax, errArg, false
	}
	if len(order) != 1 || (order[0] != 1 && order[0] != -1) {
		if len(order) == 1 && order[0] != 0 && order[0] >= -2 && order[0] <= 2 {
			return ax, fn.unsupported("PIVOTBY sorted by its values"), false
		}
		return ax, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	ax.groups = groupRows(src.fields, col, col+1)
	keys := []sortKey{{at: 0, descending: order[0] < 0}}
	slices.SortStableFunc(ax.groups, func(a, b rowGroup) int { return compareLines(a.key, b.key, keys) })
	ax.of = make([]int, len(src.fields))
	for g, grp := range ax.groups {
		for _, r := range grp.rows {
			ax.of[r] = g
		}
	}
	return ax, formulaArg{}, true
}

// slots are the places of an axis in the result: a group's index, or -1
// for the total.
func (ax pivotAxis) slots() []int {
	s := make([]int, 0, len(ax.groups)+1)
	if ax.total && ax.totalTop {
		s = append(s, -1)
	}
	for g := range ax.groups {
		s = append(s, g)
	}
	if ax.total && !ax.totalTop {
		s = append(s, -1)
	}
	return s
}

// label is how slot shows on the axis: the group's key, or "Total".
func (ax pivotAxis) label(slot int) formulaArg {
	if slot < 0 {
		return newStringFormulaArg("Total")
	}
	return ax.groups[slot].key[0]
}

// in reports whether data row r belongs to slot of the axis.
func (ax pivotAxis) in(slot, r int) bool {
	return slot < 0 || ax.of[r] == slot
}

// PIVOTBY function groups the rows of data by the values of row fields and
// of column fields and aggregates the values of each intersection with a
// function, with totals, sorted. The syntax of the function is:
//
//	PIVOTBY(row_fields,col_fields,values,function,[field_headers],[row_total_depth],[row_sort_order],[col_total_depth],[col_sort_order],[filter_array],[relative_to])
func (fn *formulaFuncs) PIVOTBY(argsList *list.List) formulaArg {
	if argsList.Len() < 4 || argsList.Len() > 11 {
		return newErrorFormulaArg(formulaErrorVALUE, "PIVOTBY requires 4 to 11 arguments")
	}
	src, widths, errArg, ok := fn.readGroupSource("PIVOTBY", argsList, []int{0, 1}, 2, 3, 4, 9)
	if !ok {
		return errArg
	}
	if widths[0] != 1 || widths[1] != 1 || len(src.values[0]) != 1 {
		return fn.unsupported("PIVOTBY with several fields or value columns")
	}
	if src.showHeads {
		return fn.unsupported("PIVOTBY with field headers shown")
	}
	relative, errArg, ok := countArg(argsList, 10, 0)
	if !ok {
		return errArg
	}
	switch {
	case relative == 3 || relative == 4:
		return fn.unsupported("PIVOTBY relative to parent totals")
	case relative < 0 || relative > 4:
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	rowAx, errArg, ok := fn.readPivotAxis(&src, argsList, 0, 5, 6)
	if !ok {
		return errArg
	}
	colAx, errArg, ok := fn.readPivotAxis(&src, argsList, 1, 7, 8)
	if !ok {
		return errArg
	}
	rowSlots, colSlots := rowAx.slots(), colAx.slots()
	out, errArg, ok := fn.newArray(float64(len(rowSlots)+1), float64(len(colSlots)+1))
	if !ok {
		return errArg
	}
	if err := fn.guard().spend(float64(len(rowSlots)) * float64(len(colSlots)) * float64(len(src.values))); err != nil {
		return stopArg(err) // each intersection scans the data rows
	}
	out[0][0] = emptyText()
	for c, cs := range colSlots {
		out[0][c+1] = colAx.label(cs)
	}
	for r, rs := range rowSlots {
		out[r+1][0] = rowAx.label(rs)
		for c, cs := range colSlots {
			var rows, all []int
			for i := range src.values {
				if rowAx.in(rs, i) && colAx.in(cs, i) {
					rows = append(rows, i)
				}
				if (relative == 0 && colAx.in(cs, i)) || (relative == 1 && rowAx.in(rs, i)) || relative == 2 {
					all = append(all, i)
				}
			}
			if len(rows) == 0 {
				out[r+1][c+1] = emptyText()
				continue
			}
			if out[r+1][c+1] = fn.aggregate(&src, 0, rows, all); fn.stopped() {
				return stopArg(fn.guard().failed())
			}
		}
	}
	return newMatrixFormulaArg(out)
}
