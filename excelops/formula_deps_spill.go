package excelops

import (
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// A spill reference (C3#, stored as ANCHORARRAY(C3)) reads the range its
// anchor spills over now. The dependency scan counts it as reading the
// anchor cell and the spill range the workbook records for it (the anchor
// alone when it anchors no dynamic array): what it reads only changes when
// the anchor is computed again, and then the anchor cell is dirty (the
// scan reaches the readers through it) and the ranges its spill left and
// took are edited areas in turn (respill, respillAnchors). A wider choice,
// every cell from the anchor to the sheet's last row and column, would be
// as right but would make a reader beside the spill read its own cell.

// spillRead returns the spill range recorded for the anchor that the
// ANCHORARRAY call opening at toks[i] names, on sheet host unless its
// reference names one (the anchor cell itself is the call's argument,
// which the scan takes next); ok is false when the argument is not one
// cell, or when d cannot tell the spills of the workbook.
func (d *depScope) spillRead(toks []efp.Token, i int, host string) (spill sheetArea, ok bool) {
	arg := significant(toks, i, 1)
	if arg < 0 || toks[arg].TType != efp.TokenTypeOperand || toks[arg].TSubType != efp.TokenSubTypeRange {
		return sheetArea{}, false
	}
	if end := significant(toks, arg, 1); end < 0 || toks[end].TType != efp.TokenTypeFunction || toks[end].TSubType != efp.TokenSubTypeStop {
		return sheetArea{}, false
	}
	anchor, ok := cellarea.ParseArea(toks[arg].TValue, host)
	if !ok || anchor.C1 != anchor.C2 || anchor.R1 != anchor.R2 || d == nil || d.spillOf == nil {
		return sheetArea{}, false
	}
	return d.spillOf(anchor)
}

// readsSpill reports whether formula calls ANCHORARRAY (a spill
// reference), tokenizing it only when its text names the function.
func readsSpill(formula string) bool {
	return strings.Contains(strings.ToUpper(formula), "ANCHORARRAY") &&
		callsAny(formula, func(name string) bool { return name == "ANCHORARRAY" })
}

// bookSpills returns depScope's spillOf for the parsed workbook f: the
// spill range the anchor's cell records when it anchors a dynamic array,
// else the cell alone; not ok when its sheet cannot be read.
func bookSpills(f *excelize.File) func(anchor sheetArea) (sheetArea, bool) {
	return func(anchor sheetArea) (sheetArea, bool) {
		ws, err := f.Worksheet(anchor.Sheet)
		if err != nil || ws == nil {
			return sheetArea{}, false
		}
		spill, ok := dynamicAnchor(sheetCell(ws, anchor.C1, anchor.R1))
		if !ok {
			return anchor, true
		}
		return sheetArea{Sheet: anchor.Sheet, C1: spill.C1, R1: spill.R1, C2: spill.C2, R2: spill.R2}, true
	}
}
