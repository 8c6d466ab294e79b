package excelops

import (
	"bytes"
	"encoding/xml"
	"path"
	"strings"
)

// formulaDepsOf returns the areas the formula of cell at reads, as
// formulaDeps does; a formula that reads a table or a defined name is
// resolved through the workbook's tables and names (read from the package
// when first needed) and, when every one of them resolves to cells, is
// not wide but named: the cells it reads are known, yet the splice path's
// calculator, which copies cells and no tables or names, cannot compute it.
func (sb *spliceBook) formulaDepsOf(formula string, at sheetArea) (deps []sheetArea, wide, named bool) {
	deps, wide = formulaDeps(formula, at.sheet)
	if !wide {
		return deps, false, false
	}
	if deps, wide = formulaDepsIn(formula, at, sb.depScope()); wide {
		return nil, true, false
	}
	return deps, false, true
}

// depScope returns the workbook's tables and defined names as depScope
// resolves them, read once per call: each table from the part a worksheet
// links, each name from workbook.xml.
func (sb *spliceBook) depScope() *depScope {
	if sb.scope != nil {
		return sb.scope
	}
	d := &depScope{names: map[string][]nameTarget{}}
	sheets := make([]string, len(sb.index.sheets))
	for i, ps := range sb.index.sheets {
		sheets[i] = ps.name
		if ps.part == "" || ps.kind != kindWorksheet {
			continue
		}
		d.tables = append(d.tables, sb.sheetTables(ps)...)
	}
	for _, n := range sb.index.names {
		local := n.local
		scope := localSheet(sheets, &local)
		refers := strings.TrimPrefix(strings.TrimSpace(n.refers), "=")
		areas, wide := formulaDepsIn(refers, sheetArea{sheet: scope}, nil)
		key := strings.ToLower(n.name)
		d.names[key] = append(d.names[key], nameTarget{scope: scope, areas: areas, ok: !wide && refers != ""})
	}
	sb.scope = d
	return d
}

// sheetTables returns the tables the worksheet ps links, by name and
// display name, with the cells each covers; a table part that is missing
// or does not parse is left out (a formula naming it stays wide).
func (sb *spliceBook) sheetTables(ps pkgSheet) []namedArea {
	rels, err := readPart(sb.zr, path.Join(path.Dir(ps.part), "_rels", path.Base(ps.part)+".rels"))
	if err != nil {
		return nil
	}
	var out []namedArea
	for _, rel := range parseRels(rels) {
		if !strings.HasSuffix(rel.Type, "/table") {
			continue
		}
		target := strings.TrimPrefix(rel.Target, "/")
		if !strings.HasPrefix(rel.Target, "/") {
			target = path.Join(path.Dir(ps.part), rel.Target)
		}
		raw, err := readPart(sb.zr, target)
		if err != nil {
			continue
		}
		var t struct {
			Name        string `xml:"name,attr"`
			DisplayName string `xml:"displayName,attr"`
			Ref         string `xml:"ref,attr"`
		}
		if xml.NewDecoder(bytes.NewReader(raw)).Decode(&t) != nil {
			continue
		}
		a, ok := parseArea(t.Ref, ps.name)
		if !ok {
			continue
		}
		for _, name := range []string{t.DisplayName, t.Name} {
			if name != "" {
				out = append(out, namedArea{name, a})
			}
		}
	}
	return out
}
