package recalc

import (
	"regexp"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
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
		refers, plain := PlainName(opc.Name{Refers: n.RefersTo})
		d.AddName(n.Name, scope, refers, plain)
	}
	return d
}

// bookSpills returns the spill finder of a formuladeps.Scope (SetSpills)
// for the parsed workbook f: the spill range the anchor's cell records
// when it anchors a dynamic array, else the cell alone; not ok when its
// sheet cannot be read.
func bookSpills(f *excelize.File) func(anchor cellarea.Area) (cellarea.Area, bool) {
	return func(anchor cellarea.Area) (cellarea.Area, bool) {
		ws, err := f.Worksheet(anchor.Sheet)
		if err != nil || ws == nil {
			return cellarea.Area{}, false
		}
		spill, ok := DynamicAnchor(SheetCell(ws, anchor.C1, anchor.R1))
		if !ok {
			return anchor, true
		}
		return cellarea.Area{Sheet: anchor.Sheet, C1: spill.C1, R1: spill.R1, C2: spill.C2, R2: spill.R2}, true
	}
}

// PlainName returns what the defined name n refers to, without its "=";
// ok is false unless it is not empty and every reference in it names its
// sheet and is absolute (a relative one moves with the cell the formula
// is in).
func PlainName(n opc.Name) (refers string, ok bool) {
	refers = strings.TrimPrefix(strings.TrimSpace(n.Refers), "=")
	if refers == "" {
		return "", false
	}
	ps := efp.ExcelParser()
	for _, tk := range ps.Parse("=" + refers) {
		if tk.TType != efp.TokenTypeOperand || tk.TSubType != efp.TokenSubTypeRange {
			continue
		}
		bang := strings.LastIndex(tk.TValue, "!")
		if bang < 0 {
			return refers, false
		}
		ref := tk.TValue[bang+1:]
		for _, end := range strings.Split(ref, ":") {
			if !absoluteEnd.MatchString(end) {
				return refers, false
			}
		}
	}
	return refers, true
}

// absoluteEnd matches one end of an absolute reference: $A$1, $A or $1.
var absoluteEnd = regexp.MustCompile(`^(\$[A-Za-z]{1,3}\$[0-9]+|\$[A-Za-z]{1,3}|\$[0-9]+)$`)
