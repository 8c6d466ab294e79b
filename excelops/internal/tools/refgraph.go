package tools

import (
	"context"
	"encoding/xml"
	"path"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/refgraph"
)

// The reference graph behind get_reference_map, trace_references and
// get_impact_analysis lives in internal/refgraph; this file gathers what it
// needs from the book: the sheets, defined names, tables, external links
// and every formula cell.

// refGraph builds the graph of b: every worksheet is bounds-checked and
// parsed (as find_replace's scan of all sheets does).
func refGraph(b *engine.Book, ctx context.Context) (*refgraph.Graph, error) {
	sheets, err := findSheets(b, "", false)
	if err != nil {
		return nil, err
	}
	w := refgraph.Workbook{Sheets: sheets, Links: externalLinks(b)}
	list, _ := b.SheetList()
	for _, dn := range b.NameDefinitions() {
		scope := ""
		if dn.SheetID >= 0 && dn.SheetID < len(list) {
			scope = list[dn.SheetID]
		}
		w.Names = append(w.Names, refgraph.NameDef{Name: dn.Name, Scope: scope, RefersTo: dn.RefersTo})
	}
	for _, sheet := range sheets {
		tables, err := tablesOn(b, sheet)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			rt := refgraph.Table{Name: t.name, Sheet: sheet, Range: t.rng}
			for c := t.rng.C1; c <= t.rng.C2; c++ {
				h, _ := b.CellValue(sheet, engine.CellName(c, t.rng.R1))
				rt.Columns = append(rt.Columns, h)
			}
			w.Tables = append(w.Tables, rt)
		}
	}
	g := refgraph.New(w)
	for _, sheet := range sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cells, err := b.FormulaCells(sheet)
		if err != nil {
			return nil, err
		}
		for _, fc := range cells {
			text, err := b.CellFormula(sheet, fc.Ref)
			if err != nil {
				return nil, newError(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			g.Add(sheet, fc.Ref, text)
		}
	}
	return g, nil
}

// xmlRels is a relationships part.
type xmlRels struct {
	Rels []struct {
		ID     string `xml:"Id,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

// externalLinks maps the prefixes external references carry in formulas
// ("[1]") to the workbook each link names (its path as stored, e.g.
// "prices.xlsx"). A link whose parts are missing is left out.
func externalLinks(b *engine.Book) map[string]string {
	out := map[string]string{}
	ids := b.ExternalReferenceIDs()
	if len(ids) == 0 {
		return out
	}
	wbRels := rels(b, "xl/_rels/workbook.xml.rels")
	for i, id := range ids {
		target, ok := wbRels[id]
		if !ok {
			continue
		}
		part := path.Join("xl", target)
		if strings.HasPrefix(target, "/") {
			part = strings.TrimPrefix(target, "/")
		}
		linkRels := rels(b, path.Join(path.Dir(part), "_rels", path.Base(part)+".rels"))
		for _, t := range linkRels {
			out["["+strconv.Itoa(i+1)+"]"] = strings.TrimPrefix(t, "file:///")
			break
		}
	}
	return out
}

// rels reads a relationships part of the package: id -> target.
func rels(b *engine.Book, name string) map[string]string {
	out := map[string]string{}
	data, ok := b.HeldPart(name)
	if !ok {
		return out
	}
	var r xmlRels
	if xml.Unmarshal(data, &r) != nil {
		return out
	}
	for _, rel := range r.Rels {
		out[rel.ID] = rel.Target
	}
	return out
}
