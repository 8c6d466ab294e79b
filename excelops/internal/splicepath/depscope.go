package splicepath

import (
	"bytes"
	"encoding/xml"
	"path"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// formulaDepsOf returns the areas the formula of cell at reads, as
// formuladeps.ScanSheet does; a formula that reads a table or a defined name is
// resolved through the workbook's tables and names (read from the package
// when first needed) and, when every one of them resolves to cells, is
// not wide. table says it holds a structured reference: the cells it
// reads are known, yet the splice path's calculator, which holds the
// defined names (see scratchNames) but no tables, cannot compute it.
func (sb *Book) formulaDepsOf(formula string, at cellarea.Area) (deps []cellarea.Area, wide, table bool) {
	deps, wide = formuladeps.ScanSheet(formula, at.Sheet)
	if !wide {
		return deps, false, false
	}
	if deps, wide = formuladeps.Scan(formula, at, sb.depScope()); wide {
		return nil, true, false
	}
	return deps, false, strings.ContainsRune(formula, '[')
}

// depScope returns the workbook's tables and defined names as a
// formuladeps.Scope resolves them, read once per call: each table from the
// part a worksheet links, each name from workbook.xml.
func (sb *Book) depScope() *formuladeps.Scope {
	if sb.scope != nil {
		return sb.scope
	}
	d := &formuladeps.Scope{}
	sheets := make([]string, len(sb.index.Sheets))
	for i, ps := range sb.index.Sheets {
		sheets[i] = ps.Name
		if ps.Part == "" || ps.Kind != opc.Worksheet {
			continue
		}
		sb.addSheetTables(d, ps)
	}
	for _, n := range sb.index.Names {
		local := n.Local
		scope := recalc.LocalSheet(sheets, &local)
		refers, ok := recalc.PlainName(n)
		d.AddName(n.Name, scope, refers, ok)
	}
	sb.scope = d
	return d
}

// resolveSpillReads gives the formulas of all that read a spill reference
// (wide as the scan found them, the workbook's anchors unknown then) the
// cells they read, now that every anchor is known: its recorded spill
// range, as it stands before the write (see internal/formuladeps/spill.go),
// and lets the formulas of the write w resolve theirs. An anchor the write
// replaces or spills again is a written cell, so its readers are
// computed, and the calculator holds the write's cells.
func (sb *Book) resolveSpillReads(all []calcFormula, w *cellWrites) {
	var readers []int
	for i, f := range all {
		if f.wide && formuladeps.ReadsSpill(f.text) {
			readers = append(readers, i)
		}
	}
	written := false
	for _, cc := range w.cells {
		if written = cc.kind == 'f' && formuladeps.ReadsSpill(cc.formula); written {
			break
		}
	}
	if len(readers) == 0 && !written {
		return
	}
	type cell struct {
		sheet    string // lower case
		col, row int
	}
	spills := map[cell]cellarea.Area{}
	for _, f := range all {
		if !f.dynamic {
			continue
		}
		if a, ok := cellarea.ParseArea(f.ref, f.at.Sheet); ok {
			spills[cell{strings.ToLower(f.at.Sheet), f.at.C1, f.at.R1}] = a
		}
	}
	scope := sb.depScope()
	scope.SetSpills(func(anchor cellarea.Area) (cellarea.Area, bool) {
		if a, ok := spills[cell{strings.ToLower(anchor.Sheet), anchor.C1, anchor.R1}]; ok {
			return a, true
		}
		return anchor, true
	})
	for _, i := range readers {
		all[i].deps, all[i].wide, all[i].table = sb.formulaDepsOf(all[i].text, all[i].at)
	}
}

// scratchNames is the <definedNames> element of the calculator workbook:
// the defined names formulas resolved to cells (see depScope), each local
// one on its sheet among sheets; nil when no formula read a name.
func (sb *Book) scratchNames(sheets []calcSheet) []byte {
	if sb.scope == nil || len(sb.index.Names) == 0 {
		return nil
	}
	all := make([]string, len(sb.index.Sheets))
	for i, ps := range sb.index.Sheets {
		all[i] = ps.Name
	}
	var out []byte
	for _, n := range sb.index.Names {
		refers, ok := recalc.PlainName(n)
		if _, wide := formuladeps.Scan(refers, cellarea.Area{}, nil); !ok || wide {
			continue
		}
		local := -1
		if n.Local >= 0 {
			id := n.Local
			scope := recalc.LocalSheet(all, &id)
			if local = sheetNamed(sheets, scope); scope == "" || local < 0 {
				continue // local to a sheet the calculator lacks: no formula there reads it
			}
		}
		out = append(out, `<definedName name="`...)
		out = sheetxml.AppendEscaped(out, n.Name)
		out = append(out, '"')
		if local >= 0 {
			out = append(out, ` localSheetId="`+strconv.Itoa(local)+`"`...)
		}
		out = append(out, '>')
		out = sheetxml.AppendEscaped(out, refers)
		out = append(out, `</definedName>`...)
	}
	if out == nil {
		return nil
	}
	return append(append([]byte("<definedNames>"), out...), "</definedNames>"...)
}

// addSheetTables adds to d the tables the worksheet ps links, by name and
// display name, with the cells each covers; a table part that is missing
// or does not parse is left out (a formula naming it stays wide).
func (sb *Book) addSheetTables(d *formuladeps.Scope, ps opc.Sheet) {
	rels, err := opc.ReadPart(sb.zr, path.Join(path.Dir(ps.Part), "_rels", path.Base(ps.Part)+".rels"))
	if err != nil {
		return
	}
	for _, rel := range opc.ParseRels(rels) {
		if !strings.HasSuffix(rel.Type, "/table") {
			continue
		}
		target := strings.TrimPrefix(rel.Target, "/")
		if !strings.HasPrefix(rel.Target, "/") {
			target = path.Join(path.Dir(ps.Part), rel.Target)
		}
		raw, err := opc.ReadPart(sb.zr, target)
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
		a, ok := cellarea.ParseArea(t.Ref, ps.Name)
		if !ok {
			continue
		}
		for _, name := range []string{t.DisplayName, t.Name} {
			if name != "" {
				d.AddTable(name, a)
			}
		}
	}
}
