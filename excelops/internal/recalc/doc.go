// Package recalc keeps the formulas of a parsed workbook true to Excel, on
// excelize's calculator. The engine hands it the book's *excelize.File; a
// tool never holds one, and reaches these steps through the engine's book.
//
// Before a write, a formula is checked: its syntax and functions
// (ParseFormula, CheckFormulaText, ExcelFunctions from excel_functions.txt)
// and the sheets, defined names and tables it names (FormulaScope, read
// once per call from the parsed book or, on the splice path, from the
// package: PackageFormulaScope).
//
// After an edit, EditSet says what moved or changed (InsertedRows,
// DeletedSheet, ...) and RefreshFormulaValues recomputes what the edit may
// have changed (DirtyFormulas over formuladeps' dependency scan), stores each
// typed result as the cell's cached value or drops a value it cannot
// compute exactly (exact.go, legacy_taint.go), spills dynamic arrays and
// spills them again when their range changed (spill.go, respill.go), lays
// legacy array formulas over their range (legacy_array.go) and marks the
// workbook to be recalculated on open when a value changed:
//
//	st, err := recalc.RefreshFormulaValues(ctx, f, limits.Calc(), diskHasFormulas, edits)
//
// ARCHITECTURE.md at the repository root places it in the package map.
package recalc
