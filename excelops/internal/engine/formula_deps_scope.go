package engine

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// newDepScope reads f's tables and defined names into the scope the
// dependency scan resolves them through, and finds spill ranges in f's
// cells (see bookSpills).
func newDepScope(f *excelize.File) *formuladeps.Scope {
	d := &formuladeps.Scope{}
	d.SetSpills(bookSpills(f))
	for _, sheet := range f.GetSheetList() {
		tables, err := f.GetTables(sheet)
		if err != nil {
			continue
		}
		for _, t := range tables {
			if a, ok := cellarea.ParseArea(t.Range, sheet); ok {
				d.AddTable(t.Name, a)
			}
		}
	}
	for _, n := range f.GetDefinedName() {
		scope := n.Scope
		if strings.EqualFold(scope, "Workbook") {
			scope = ""
		}
		refers, plain := plainName(opc.Name{Refers: n.RefersTo})
		d.AddName(n.Name, scope, refers, plain)
	}
	return d
}

// bookSpills returns the spill finder of a formuladeps.Scope (SetSpills)
// for the parsed workbook f: the spill range the anchor's cell records
// when it anchors a dynamic array, else the cell alone; not ok when its
// sheet cannot be read.
func bookSpills(f *excelize.File) func(anchor SheetArea) (SheetArea, bool) {
	return func(anchor SheetArea) (SheetArea, bool) {
		ws, err := f.Worksheet(anchor.Sheet)
		if err != nil || ws == nil {
			return SheetArea{}, false
		}
		spill, ok := DynamicAnchor(SheetCell(ws, anchor.C1, anchor.R1))
		if !ok {
			return anchor, true
		}
		return SheetArea{Sheet: anchor.Sheet, C1: spill.C1, R1: spill.R1, C2: spill.C2, R2: spill.R2}, true
	}
}
