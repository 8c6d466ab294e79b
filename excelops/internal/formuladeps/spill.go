package formuladeps

import (
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// A spill reference (C3#, stored as ANCHORARRAY(C3)) reads the range its
// anchor spills over now. The dependency scan counts it as reading the
// anchor cell and the spill range the workbook records for it (the anchor
// alone when it anchors no dynamic array): what it reads only changes when
// the anchor is computed again, and then the anchor cell is dirty (the
// scan reaches the readers through it) and the ranges its spill left and
// took are edited areas in turn (excelops' respill). A wider choice,
// every cell from the anchor to the sheet's last row and column, would be
// as right but would make a reader beside the spill read its own cell.

// spillRead returns the spill range recorded for the anchor that the
// ANCHORARRAY call opening at toks[i] names, on sheet host unless its
// reference names one (the anchor cell itself is the call's argument,
// which the scan takes next); ok is false when the argument is not one
// cell, or when d cannot tell the spills of the workbook.
func (d *Scope) spillRead(toks []efp.Token, i int, host string) (spill cellarea.Area, ok bool) {
	arg := significant(toks, i, 1)
	if arg < 0 || toks[arg].TType != efp.TokenTypeOperand || toks[arg].TSubType != efp.TokenSubTypeRange {
		return cellarea.Area{}, false
	}
	if end := significant(toks, arg, 1); end < 0 || toks[end].TType != efp.TokenTypeFunction || toks[end].TSubType != efp.TokenSubTypeStop {
		return cellarea.Area{}, false
	}
	anchor, ok := cellarea.ParseArea(toks[arg].TValue, host)
	if !ok || anchor.C1 != anchor.C2 || anchor.R1 != anchor.R2 || d == nil || d.spillOf == nil {
		return cellarea.Area{}, false
	}
	return d.spillOf(anchor)
}

// ReadsSpill reports whether formula calls ANCHORARRAY (a spill
// reference), tokenizing it only when its text names the function.
func ReadsSpill(formula string) bool {
	return strings.Contains(strings.ToUpper(formula), "ANCHORARRAY") &&
		formulatok.CallsAny(formula, func(name string) bool { return name == "ANCHORARRAY" })
}
