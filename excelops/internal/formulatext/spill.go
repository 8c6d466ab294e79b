package formulatext

import "github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"

// isSpillFunction reports whether the function name (upper case, without
// file prefixes) returns arrays that Excel 365 spills over the cells below
// and right of the formula: a formula calling one is written as a dynamic
// array formula when its result has more than one value.
func isSpillFunction(name string) bool {
	switch name {
	case "SEQUENCE", "TAKE", "DROP", "CHOOSEROWS", "CHOOSECOLS", "VSTACK", "HSTACK", "TOCOL", "TOROW",
		"EXPAND", "UNIQUE", "SORTBY", "TRANSPOSE", "FILTER", "SORT", "TEXTSPLIT", "RANDARRAY",
		"WRAPROWS", "WRAPCOLS", "MUNIT", "TRIMRANGE", "ANCHORARRAY", "MAP", "SCAN", "BYROW", "BYCOL",
		"MAKEARRAY", "REDUCE", "LAMBDA", "LINEST", "LOGEST", "GROUPBY", "PIVOTBY", "FILTERXML":
		return true
	}
	return false
}

// MaySpill reports whether formula (with or without its "=" and file
// prefixes) calls a function whose result can spill, or INDEX (a whole
// column or row: indexarea.go), or applies an operator to an
// array (arrayOperation).
func MaySpill(formula string) bool {
	return formulatok.CallsAny(withAnchorArrays(formula), isSpillFunction) || // C3# spills as ANCHORARRAY(C3)
		formulatok.CallsAny(formula, callsIndex) || arrayOperation(formula)
}
