package excelops

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// depScope resolves the names a formula reads through, tables and defined
// names, and its spill references to the cells they cover, so that a
// formula reading a table, a name or a spill depends on those cells rather
// than on everything.
type depScope struct {
	tables []namedArea
	// names are the defined names by lower-case name: each scope's
	// areas ("" for the workbook's), ok false when a name refers to
	// something other than plain references (a formula, another name).
	names map[string][]nameTarget
	// spillOf returns the spill range the workbook records for an anchor
	// cell (the cell alone when it anchors no dynamic array), ok false
	// when it cannot tell; nil until the workbook's anchors are known.
	spillOf func(anchor sheetArea) (spill sheetArea, ok bool)
}

// namedArea is a table and the cells it covers.
type namedArea struct {
	name string
	area sheetArea
}

// nameTarget is one defined name: its scope (a sheet, or "" for the
// workbook) and what it refers to.
type nameTarget struct {
	scope string
	areas []sheetArea
	ok    bool
}

// newDepScope reads f's tables and defined names.
func newDepScope(f *excelize.File) *depScope {
	d := &depScope{names: map[string][]nameTarget{}, spillOf: bookSpills(f)}
	for _, sheet := range f.GetSheetList() {
		tables, err := f.GetTables(sheet)
		if err != nil {
			continue
		}
		for _, t := range tables {
			if a, ok := cellarea.ParseArea(t.Range, sheet); ok {
				d.tables = append(d.tables, namedArea{t.Name, a})
			}
		}
	}
	for _, n := range f.GetDefinedName() {
		scope := n.Scope
		if strings.EqualFold(scope, "Workbook") {
			scope = ""
		}
		refers, plain := plainName(opc.Name{Refers: n.RefersTo})
		areas, wide := formulaDepsIn(refers, sheetArea{Sheet: scope}, nil)
		key := strings.ToLower(n.Name)
		d.names[key] = append(d.names[key], nameTarget{scope: scope, areas: areas, ok: plain && !wide})
	}
	return d
}

// resolve returns the cells operand (a reference the A1 parser did not
// take, in the formula of cell at) covers: a table's, for a structured
// reference (the tokenizer splits some of them, so a bare [Column] part
// counts as the host's table and every table the formula names), or a
// defined name's. ok is false for anything else (external references,
// unknown names), which may read anything; the names a LET or LAMBDA binds
// never come here (localNames).
func (d *depScope) resolve(operand string, at sheetArea, formula string) (areas []sheetArea, ok bool) {
	if d == nil {
		return nil, false
	}
	if i := strings.IndexByte(operand, '['); i >= 0 {
		if strings.Contains(operand[i:], "!") {
			return nil, false // [1]Sheet!A1: another workbook
		}
		if prefix := strings.TrimSpace(operand[:i]); prefix != "" {
			t, ok := d.table(prefix)
			return []sheetArea{t}, ok
		}
		lower := strings.ToLower(formula)
		for _, t := range d.tables {
			if t.area.Overlaps(at) || strings.Contains(lower, strings.ToLower(t.name)+"[") {
				areas = append(areas, t.area)
			}
		}
		return areas, len(areas) > 0
	}
	sheet, name := at.Sheet, operand
	if i := strings.LastIndex(operand, "!"); i >= 0 {
		sheet, name = strings.Trim(operand[:i], "'"), operand[i+1:]
	}
	var global *nameTarget
	for _, n := range d.names[strings.ToLower(name)] {
		switch {
		case strings.EqualFold(n.scope, sheet):
			return n.areas, n.ok
		case n.scope == "":
			global = &n
		}
	}
	if global == nil {
		return nil, false
	}
	return global.areas, global.ok
}

// table returns the area of the table named name (any case).
func (d *depScope) table(name string) (sheetArea, bool) {
	for _, t := range d.tables {
		if strings.EqualFold(t.name, name) {
			return t.area, true
		}
	}
	return sheetArea{}, false
}
