// Package sheetread reads worksheet XML as a stream, never parsed into a
// DOM: RowReader turns the cells of a column window into values, boxed for
// summary pages or encoded straight into Python's JSON for exact ranges,
// with dates read as openpyxl reads them, formulas shown as read_excel's
// formulas argument asks (FormulaMode), each cell's text bounded and the
// rows' order checked; ScanSheet measures a sheet (how far it reaches, how
// big excelize would make it) in one pass, stopping at the call's limits.
// The engine's book opens the part and hands the reader its shared strings
// and date styles:
//
//	rr := sheetread.NewRowReader(part, sst, 1, 3, dateStyles, sheetread.RowOpts{Sheet: "Data", MaxText: 1 << 20})
//	err := rr.WalkWindow(ctx, 1, 50, func(row int, rr *sheetread.RowReader) bool { use(row, rr.Vals); return true })
//
// ARCHITECTURE.md at the repository root places it in the package map.
package sheetread
