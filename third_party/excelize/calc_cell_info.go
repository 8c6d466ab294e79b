// registry-sidecar addition (PATCHES.md): CELL for the info types a
// workbook alone answers. The ones that need the host (the file name, the
// last changed cell a missing reference means) or cell formats are left
// uncomputed: unsupportedArg, not an Excel error.

package excelize

import (
	"container/list"
	"strings"
)

// CELL function returns information about the formatting, location, or
// contents of the upper-left cell of a reference. This calculator answers
// the info types "address", "col", "row", "contents" and "type"; the others
// ("filename", "format", "width"...), a missing reference and one a
// function computes (INDEX) are not computed. The syntax of the function is:
//
//	CELL(info_type,[reference])
func (fn *formulaFuncs) CELL(argsList *list.List) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "CELL requires 1 or 2 arguments")
	}
	info, ok := scalarArg(argAt(argsList, 0))
	if !ok {
		return unsupportedArg("CELL with an array info_type")
	}
	if info.Type == ArgError {
		return info
	}
	if info.Type != ArgString {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	kind := strings.ToLower(info.Value())
	switch kind {
	case "address", "col", "row", "contents", "type":
	case "color", "filename", "format", "parentheses", "prefix", "protect", "width":
		return unsupportedArg("CELL(\"" + kind + "\")")
	default:
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if argsList.Len() < 2 {
		return unsupportedArg("CELL without a reference")
	}
	ref := argAt(argsList, 1)
	sheet, cell, ok := fn.firstRefCell(ref)
	if !ok {
		if ref.Type == ArgError {
			return ref
		}
		// Excel refuses a value here; INDEX(...) is a reference there and
		// a value in this calculator
		return unsupportedArg("CELL with a reference computed by a function")
	}
	col, row, _ := CellNameToCoordinates(cell)
	first := ref
	if ref.Type == ArgMatrix {
		if len(ref.Matrix) == 0 || len(ref.Matrix[0]) == 0 {
			first = newEmptyFormulaArg()
		} else {
			first = ref.Matrix[0][0]
		}
	}
	switch kind {
	case "address":
		if sheet != fn.sheet {
			return unsupportedArg("CELL(\"address\") of another sheet") // Excel names the file
		}
		name, _ := CoordinatesToCellName(col, row, true)
		return newStringFormulaArg(name)
	case "col":
		return newNumberFormulaArg(float64(col))
	case "row":
		return newNumberFormulaArg(float64(row))
	case "contents":
		if first.Type == ArgEmpty {
			return newNumberFormulaArg(0)
		}
		return first
	}
	switch first.Type {
	case ArgEmpty:
		return newStringFormulaArg("b")
	case ArgString:
		return newStringFormulaArg("l")
	}
	return newStringFormulaArg("v")
}
