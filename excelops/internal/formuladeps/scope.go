package formuladeps

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

// Scope resolves the names a formula reads through, tables and defined
// names, and its spill references to the cells they cover, so that a
// formula reading a table, a name or a spill depends on those cells rather
// than on everything. The zero Scope resolves nothing; excelops fills one
// from the workbook it has open with AddTable, AddName and SetSpills.
type Scope struct {
	tables []table
	// names are the defined names by lower-case name: each scope's
	// areas ("" for the workbook's), ok false when a name refers to
	// something other than plain references (a formula, another name).
	names map[string][]nameTarget
	// spillOf returns the spill range the workbook records for an anchor
	// cell (the cell alone when it anchors no dynamic array), ok false
	// when it cannot tell; nil until the workbook's anchors are known.
	spillOf func(anchor cellarea.Area) (spill cellarea.Area, ok bool)
}

// table is a table and the cells it covers.
type table struct {
	name string
	area cellarea.Area
}

// nameTarget is one defined name: its scope (a sheet, or "" for the
// workbook) and what it refers to.
type nameTarget struct {
	scope string
	areas []cellarea.Area
	ok    bool
}

// AddTable records the table called name (its name or display name)
// covering area.
func (d *Scope) AddTable(name string, area cellarea.Area) {
	d.tables = append(d.tables, table{name, area})
}

// AddName records the defined name called name, local to sheet ("" for the
// workbook's), referring to refers (without its "="). plain says refers is
// plain references that stay where they are (absolute, each naming its
// sheet); a name that is not plain, or whose references do not resolve
// to cells, may read anything.
func (d *Scope) AddName(name, sheet, refers string, plain bool) {
	areas, wide := Scan(refers, cellarea.Area{Sheet: sheet}, nil)
	if d.names == nil {
		d.names = map[string][]nameTarget{}
	}
	key := strings.ToLower(name)
	d.names[key] = append(d.names[key], nameTarget{scope: sheet, areas: areas, ok: plain && !wide})
}

// SetSpills sets how d finds the spill range the workbook records for an
// anchor cell: spillOf returns it (the cell alone when the cell anchors no
// dynamic array), ok false when it cannot tell.
func (d *Scope) SetSpills(spillOf func(anchor cellarea.Area) (spill cellarea.Area, ok bool)) {
	d.spillOf = spillOf
}

// resolve returns the cells operand (a reference the A1 parser did not
// take, in the formula of cell at) covers: a table's, for a structured
// reference (the tokenizer splits some of them, so a bare [Column] part
// counts as the host's table and every table the formula names), or a
// defined name's. ok is false for anything else (external references,
// unknown names), which may read anything; the names a LET or LAMBDA binds
// never come here (LocalNames).
func (d *Scope) resolve(operand string, at cellarea.Area, formula string) (areas []cellarea.Area, ok bool) {
	if d == nil {
		return nil, false
	}
	if i := strings.IndexByte(operand, '['); i >= 0 {
		if strings.Contains(operand[i:], "!") {
			return nil, false // [1]Sheet!A1: another workbook
		}
		if prefix := strings.TrimSpace(operand[:i]); prefix != "" {
			t, ok := d.table(prefix)
			return []cellarea.Area{t}, ok
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
func (d *Scope) table(name string) (cellarea.Area, bool) {
	for _, t := range d.tables {
		if strings.EqualFold(t.name, name) {
			return t.area, true
		}
	}
	return cellarea.Area{}, false
}
