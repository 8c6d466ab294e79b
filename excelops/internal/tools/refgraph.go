package tools

import (
	"context"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
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
	links, err := externalLinks(b)
	if err != nil {
		return nil, err
	}
	w := refgraph.Workbook{Sheets: sheets, Links: links}
	for _, dn := range b.NameDefinitions() {
		w.Names = append(w.Names, refgraph.NameDef{Name: dn.Name, Scope: dn.Sheet, RefersTo: dn.RefersTo})
	}
	for _, sheet := range sheets {
		tables, err := tablesOn(b, sheet)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			rt := refgraph.Table{Name: t.name, Sheet: sheet, Range: t.rng}
			for c := t.rng.C1; c <= t.rng.C2; c++ {
				h, _ := b.CellValue(sheet, grid.CellName(c, t.rng.R1))
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
				return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			g.Add(sheet, fc.Ref, text)
		}
	}
	return g, nil
}

// externalLinks maps the prefixes external references carry in formulas
// ("[1]") to the workbook each link names (its path as stored, e.g.
// "prices.xlsx"), as the package index read them. A link whose parts are
// missing is left out.
func externalLinks(b *engine.Book) (map[string]string, error) {
	list, err := b.LinkedWorkbooks()
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for i, target := range list {
		if target != "" {
			out["["+strconv.Itoa(i+1)+"]"] = target
		}
	}
	return out, nil
}
