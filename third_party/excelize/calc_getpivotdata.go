// registry-sidecar addition (PATCHES.md): GETPIVOTDATA, computed from the
// pivot table's definition and the records of its cache's source range, as
// the table would show them (calc_getpivotdata_pivot.go reads the table).

package excelize

import (
	"container/list"
	"math"
	"strconv"
	"strings"
)

// GETPIVOTDATA function returns a value of a pivot table: the summary of
// data_field over the records whose fields hold the items named, the grand
// total when none is named. A reference that holds no pivot table, a data
// field, field or item the table does not have, or a value the table does
// not show (a total it hides) is #REF!, as in Excel. The syntax of the
// function is:
//
//	GETPIVOTDATA(data_field,pivot_table,[field1,item1],...)
func (fn *formulaFuncs) GETPIVOTDATA(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len()%2 != 0 {
		return newErrorFormulaArg(formulaErrorVALUE, "GETPIVOTDATA requires data_field, pivot_table and field/item pairs")
	}
	args := make([]formulaArg, 0, argsList.Len())
	for e := argsList.Front(); e != nil; e = e.Next() {
		args = append(args, e.Value.(formulaArg))
	}
	dataName, ok := scalarArg(args[0])
	if !ok {
		return unsupportedArg("GETPIVOTDATA with an array data_field")
	}
	if dataName.Type == ArgError {
		return dataName
	}
	if args[1].Type == ArgError {
		return args[1]
	}
	sheet, cell, ok := fn.firstRefCell(args[1])
	if !ok {
		return newErrorFormulaArg(formulaErrorREF, "GETPIVOTDATA's pivot_table is not a reference")
	}
	pv, unsupported := fn.pivotAt(sheet, cell)
	if unsupported != "" {
		return unsupportedArg(unsupported)
	}
	if pv == nil {
		return newErrorFormulaArg(formulaErrorREF, "no pivot table at "+cell)
	}
	df := pv.dataField(dataName.Value())
	if df == nil {
		return newErrorFormulaArg(formulaErrorREF, "the pivot table has no data field "+dataName.Value())
	}
	items := map[int]formulaArg{}
	for i := 2; i < len(args); i += 2 {
		field, fok := scalarArg(args[i])
		item, iok := scalarArg(args[i+1])
		if !fok || !iok {
			return unsupportedArg("GETPIVOTDATA with an array field or item")
		}
		if field.Type == ArgError {
			return field
		}
		if item.Type == ArgError {
			return item
		}
		idx := pv.fieldIndex(field.Value())
		if idx < 0 || !pv.onAxis(idx) || !pv.hasItem(idx, item) {
			return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
		}
		items[idx] = item
	}
	if !pv.shown(items) {
		return newErrorFormulaArg(formulaErrorREF, "the pivot table does not show that value")
	}
	return pv.summary(df, items)
}

// onAxis reports whether the cache field idx is a row or column field.
func (pv *calcPivot) onAxis(idx int) bool {
	for _, f := range append(append([]int{}, pv.rows...), pv.cols...) {
		if f == idx {
			return true
		}
	}
	return false
}

// hasItem reports whether some record holds item in the cache field idx.
func (pv *calcPivot) hasItem(idx int, item formulaArg) bool {
	for _, rec := range pv.records {
		if idx < len(rec) && pivotItemMatch(rec[idx], item) {
			return true
		}
	}
	return false
}

// shown reports whether the table shows the value the items name: on each
// axis the named fields are its first ones (an inner field alone has no
// row), a partial path is an outer field's subtotal, none the grand total,
// and every named path exists among the records.
func (pv *calcPivot) shown(items map[int]formulaArg) bool {
	if !pv.axisShown(pv.rows, items, pv.colGrandTotals) || !pv.axisShown(pv.cols, items, pv.rowGrandTotals) {
		return false
	}
	for _, axis := range [][]int{pv.rows, pv.cols} {
		path := map[int]formulaArg{}
		for _, f := range axis {
			if item, ok := items[f]; ok {
				path[f] = item
			}
		}
		if len(path) > 0 && len(pv.matching(path)) == 0 {
			return false
		}
	}
	return true
}

// axisShown reports whether one axis shows the total the items name on it:
// all its fields named, a named prefix whose last field is subtotalled, or
// none named with grand (the grand totals across that axis) on.
func (pv *calcPivot) axisShown(axis []int, items map[int]formulaArg, grand bool) bool {
	k := 0
	for k < len(axis) {
		if _, ok := items[axis[k]]; !ok {
			break
		}
		k++
	}
	for _, f := range axis[k:] {
		if _, ok := items[f]; ok {
			return false
		}
	}
	switch {
	case k == len(axis):
		return true
	case k == 0:
		return grand
	}
	return pv.subtotals[axis[k-1]]
}

// matching returns the records holding every item.
func (pv *calcPivot) matching(items map[int]formulaArg) [][]formulaArg {
	var out [][]formulaArg
	for _, rec := range pv.records {
		ok := true
		for idx, item := range items {
			if idx >= len(rec) || !pivotItemMatch(rec[idx], item) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, rec)
		}
	}
	return out
}

// pivotItemMatch reports whether a record's value is the item named: the
// same number, the same text (case-insensitive; a number's text matches
// it), the same boolean, or "(blank)" for an empty cell.
func pivotItemMatch(value, item formulaArg) bool {
	if value.Type == ArgEmpty || value.Type == ArgString && value.String == "" {
		return item.Type == ArgString && strings.EqualFold(item.String, "(blank)")
	}
	if value.Type == ArgNumber && !value.Boolean {
		switch item.Type {
		case ArgNumber:
			return !item.Boolean && item.Number == value.Number
		case ArgString:
			n, err := strconv.ParseFloat(strings.TrimSpace(item.String), 64)
			return err == nil && n == value.Number
		}
		return false
	}
	if value.Boolean {
		return item.Type == ArgNumber && item.Boolean && item.Number == value.Number ||
			item.Type == ArgString && strings.EqualFold(item.String, value.Value())
	}
	return item.Type != ArgEmpty && strings.EqualFold(value.Value(), item.Value())
}

// summary is the data field df summarised over the records holding items
// by its subtotal function (sum when none is written).
func (pv *calcPivot) summary(df *xlsxDataField, items map[int]formulaArg) formulaArg {
	var nums []float64
	count := 0
	for _, rec := range pv.matching(items) {
		if df.Fld >= len(rec) {
			continue
		}
		v := rec[df.Fld]
		switch {
		case v.Type == ArgError:
			return v
		case v.Type == ArgNumber && !v.Boolean:
			nums = append(nums, v.Number)
			count++
		case v.Type != ArgEmpty && !(v.Type == ArgString && v.String == ""):
			count++
		}
	}
	return pivotSubtotal(df.Subtotal, nums, count)
}

// pivotSubtotal applies a data field's subtotal function to the numbers of
// its records (count: of its non-empty values).
func pivotSubtotal(name string, nums []float64, count int) formulaArg {
	var sum float64
	for _, n := range nums {
		sum += n
	}
	n, lower := float64(len(nums)), strings.ToLower(name)
	switch lower {
	case "", "sum":
		return newNumberFormulaArg(sum)
	case "count":
		return newNumberFormulaArg(float64(count))
	case "countnums":
		return newNumberFormulaArg(n)
	case "average":
		if n == 0 {
			return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
		}
		return newNumberFormulaArg(sum / n)
	case "max", "min":
		if n == 0 {
			return newNumberFormulaArg(0)
		}
		best := nums[0]
		for _, v := range nums[1:] {
			if lower == "max" && v > best || lower == "min" && v < best {
				best = v
			}
		}
		return newNumberFormulaArg(best)
	case "product":
		if n == 0 {
			return newNumberFormulaArg(0)
		}
		p := 1.0
		for _, v := range nums {
			p *= v
		}
		return newNumberFormulaArg(p)
	case "stddev", "stddevp", "var", "varp":
		return pivotSpread(lower, nums, sum)
	}
	return unsupportedArg("GETPIVOTDATA of a " + name + " summary")
}

// pivotSpread is the variance or standard deviation of nums (sample, or
// population for the names ending in p); #DIV/0! without enough numbers.
func pivotSpread(name string, nums []float64, sum float64) formulaArg {
	n := float64(len(nums))
	div := n - 1
	if strings.HasSuffix(name, "p") {
		div = n
	}
	if div <= 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	mean, ss := sum/n, 0.0
	for _, v := range nums {
		ss += (v - mean) * (v - mean)
	}
	if strings.HasPrefix(name, "var") {
		return newNumberFormulaArg(ss / div)
	}
	return newNumberFormulaArg(math.Sqrt(ss / div))
}
