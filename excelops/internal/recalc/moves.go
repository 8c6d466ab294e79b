package recalc

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
)

// What moving cells changes: the edit sets of inserted and deleted rows and
// columns, and the formulas whose value depends on where cells are rather
// than on what they hold. With these, a structural edit recomputes only
// the formulas it may have changed; every other formula keeps the value
// Excel cached, byte for byte.

// positionalFunctions answer with a cell's position, a range's size or a
// sheet's name, which moves change though no value did.
var positionalFunctions = map[string]bool{
	"ROW": true, "ROWS": true, "COLUMN": true, "COLUMNS": true, "ADDRESS": true, "CELL": true,
	"AREAS": true, "SHEET": true, "SHEETS": true, "FORMULATEXT": true, "ISFORMULA": true,
	"ISREF": true, "INFO": true, "INDIRECT": true, "OFFSET": true,
}

// readsPosition reports whether formula calls a positional function, or,
// when references were cut, holds #REF!.
func readsPosition(formula string, cut bool) bool {
	if cut && strings.Contains(formula, "#REF!") {
		return true
	}
	return formulatok.CallsAny(formula, func(name string) bool { return positionalFunctions[name] })
}

// InsertedRows is the edit set of n rows inserted at row on sheet: the new
// empty rows, which ranges spanning them now include.
func InsertedRows(sheet string, row, n int) *EditSet {
	return &EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: 1, R1: row, C2: excelize.MaxColumns, R2: row + n - 1}}, moved: true}
}

// InsertedColumns is insertedRows for n columns inserted at col.
func InsertedColumns(sheet string, col, n int) *EditSet {
	return &EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: col, R1: 1, C2: col + n - 1, R2: excelize.TotalRows}}, moved: true}
}

// DeletedRows is the edit set of rows deleted at row on sheet: the seam
// where they were (the rows above and below it now), which every range
// that lost cells touches.
func DeletedRows(sheet string, row int) *EditSet {
	return &EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: 1, R1: max(1, row-1), C2: excelize.MaxColumns, R2: row}}, moved: true, cut: true}
}

// DeletedColumns is deletedRows for columns deleted at col.
func DeletedColumns(sheet string, col int) *EditSet {
	return &EditSet{Areas: []cellarea.Area{{Sheet: sheet, C1: max(1, col-1), R1: 1, C2: col, R2: excelize.TotalRows}}, moved: true, cut: true}
}

// RenamedSheet is the edit set of a sheet renamed: no value changed, but a
// formula reading a sheet's name (CELL, SHEET, INDIRECT's text) may have.
func RenamedSheet() *EditSet {
	return &EditSet{moved: true}
}

// errorLookers are the functions that may look past an error argument
// (IFERROR, the IS functions) or leave one unevaluated (IF, CHOOSE): with
// one of them, a formula holding #REF! need not be #REF!.
var errorLookers = map[string]bool{
	"IF": true, "IFS": true, "IFERROR": true, "IFNA": true, "CHOOSE": true, "SWITCH": true,
	"ERROR.TYPE": true, "AGGREGATE": true, "COUNT": true, "COUNTA": true, "LET": true,
}

// cutReferenceValue is the value of a formula holding a cut reference
// (#REF!, as deleting rows, columns or sheets leaves): #REF!, as Excel
// computes it, unless the formula calls a function that may look past the
// error; then none (ok with empty t and v), since excelize reads #REF!
// operands wrongly (SUM(#REF!) is 0 to it). ok is false for a formula
// without #REF!.
func cutReferenceValue(formula string) (t, v string, ok bool) {
	if !strings.Contains(formula, "#REF!") {
		return "", "", false
	}
	cut := false
	for _, tk := range formulatok.Tokens(formula) {
		name, isFunction := formulatok.FunctionName(tk)
		switch {
		case isFunction:
			if errorLookers[name] || strings.HasPrefix(name, "IS") {
				return "", "", true
			}
		case tk.TType == efp.TokenTypeOperand && tk.TSubType != efp.TokenSubTypeText:
			cut = cut || strings.Contains(tk.TValue, "#REF!")
		}
	}
	if !cut {
		return "", "", false
	}
	return "e", "#REF!", true
}

// DeletedSheet is the edit set of a sheet deleted: references into it
// were cut (#REF!), a 3-D reference may span fewer sheets (wide anyway),
// and nothing else changed.
func DeletedSheet() *EditSet {
	return &EditSet{moved: true, cut: true}
}

// CopiedSheet is the edit set of a sheet copied: the copy holds the
// source's cells and cached values, its formulas read the copy's own cells,
// which hold the same values; only what reads a position or a sheet name
// (SHEET, CELL) differs.
func CopiedSheet() *EditSet {
	return &EditSet{moved: true}
}

// DeletedBand is the edit set of delete_range: the cells that moved in
// (below the range for a shift up, right of it for a shift left) and the
// row or column before them, which every reference that lost cells
// touches; references to the deleted cells were cut.
func DeletedBand(b formularef.Band) *EditSet {
	area := cellarea.Area{Sheet: b.Sheet, C1: b.C1, R1: max(1, b.R1-1), C2: b.C2, R2: excelize.TotalRows}
	if !b.Up {
		area = cellarea.Area{Sheet: b.Sheet, C1: max(1, b.C1-1), R1: b.R1, C2: excelize.MaxColumns, R2: b.R2}
	}
	return &EditSet{Areas: []cellarea.Area{area}, moved: true, cut: true}
}
