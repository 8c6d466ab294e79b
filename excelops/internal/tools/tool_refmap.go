package tools

import (
	"context"
	"slices"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/refgraph"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// get_reference_map: the workbook's reference overview. Per sheet its
// formula count, references within the sheet and the sheets it reads and
// is read by; the edges between sheets by reference type with sample
// formulas; the defined names, tables and external workbook links. With
// detail "full" it also lists, paged, every formula with its references.

const (
	// maxEdgeSamples is how many sample formulas an edge carries.
	maxEdgeSamples = 3
	// maxMapEntries caps the edges, names, tables and links listed.
	maxMapEntries = 500
)

// referenceMapTool declares get_reference_map.
var referenceMapTool = typedTool(toolSpec{
	name: "get_reference_map", title: "Reference map",
	desc:    "Map a workbook's references: per sheet the formulas and the sheets they read and are read by, the cross-sheet edges with sample formulas, defined names, tables and external workbook links; detail \"full\" also lists every formula with its references, paged.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStructure}}},
}, (*Service).referenceMap)

// referenceMapArgs are get_reference_map's arguments.
type referenceMapArgs struct {
	fileArg
	Detail string `json:"detail,omitempty" enum:"summary,full" jsonschema:"summary (default): per-sheet counts and edges; full: also every formula with its references, paged by offset and max_items"`
	refPageArgs
}

// edgeKey is one cross-sheet edge: source reads target through kind.
type edgeKey struct{ source, target, kind string }

// refEdge is an edge with its count and samples.
type refEdge struct {
	key     edgeKey
	count   int
	samples []string
}

// referenceMap implements get_reference_map.
func (s *Service) referenceMap(ctx context.Context, a referenceMapArgs) (*engine.Call, error) {
	detail := a.Detail
	if detail == "" {
		detail = "summary"
	}
	if !vocab.OneOf(detail, "summary", "full") {
		return nil, failure.Invalid("detail must be \"summary\" or \"full\", got %q", a.Detail)
	}
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		g, err := refGraph(b, ctx)
		if err != nil {
			return nil, err
		}
		summary := mapFields(g)
		head := func() pyjson.Object {
			res := success(b.Name(), "", field("detail", detail), field("formula_count", len(g.Nodes)))
			return append(res, summary...)
		}
		if detail != "full" {
			return head(), nil
		}
		return a.fit(ctx, len(g.Nodes), func(lo, hi int) pyjson.Object {
			list := make([]any, 0, hi-lo)
			for _, n := range g.Nodes[lo:hi] {
				refs := make([]any, 0, len(n.Refs))
				for _, r := range n.Refs {
					refs = append(refs, pyjson.Object{field("ref", r.Text), field("type", r.Type)})
				}
				list = append(list, pyjson.Object{field("sheet", n.Sheet), field("cell", n.Cell), field("formula", n.Formula), field("references", refs)})
			}
			return append(head(), field("formulas", list))
		})
	}), nil
}

// mapFields are the summary fields of the map.
func mapFields(g *refgraph.Graph) []pyjson.Field {
	type sheetSum struct {
		formulas, self     int
		outgoing, incoming []string
	}
	sums := map[string]*sheetSum{}
	for _, s := range g.Sheets {
		sums[s] = &sheetSum{}
	}
	var edges []*refEdge
	index := map[edgeKey]*refEdge{}
	links := map[string]int{}
	for _, n := range g.Nodes {
		sums[n.Sheet].formulas++
		for _, r := range n.Refs {
			if r.Type == refgraph.TypeExternal {
				links[r.Book]++
				continue
			}
			seen := map[string]bool{}
			for _, ar := range r.Areas {
				t := g.SheetName(ar.Sheet)
				if seen[t] {
					continue
				}
				seen[t] = true
				if t == n.Sheet {
					sums[n.Sheet].self++
					continue
				}
				k := edgeKey{n.Sheet, t, r.Type}
				e := index[k]
				if e == nil {
					e = &refEdge{key: k}
					index[k] = e
					edges = append(edges, e)
				}
				e.count++
				if len(e.samples) < maxEdgeSamples && !slices.Contains(e.samples, n.Sheet+"!"+n.Cell+": "+n.Formula) {
					e.samples = append(e.samples, n.Sheet+"!"+n.Cell+": "+n.Formula)
				}
				if src := sums[n.Sheet]; !slices.Contains(src.outgoing, t) {
					src.outgoing = append(src.outgoing, t)
				}
				if dst := sums[t]; dst != nil && !slices.Contains(dst.incoming, n.Sheet) {
					dst.incoming = append(dst.incoming, n.Sheet)
				}
			}
		}
	}
	sheets := make([]any, 0, len(g.Sheets))
	for _, s := range g.Sheets {
		sum := sums[s]
		sheets = append(sheets, pyjson.Object{field("name", s), field("formula_count", sum.formulas), field("self_refs", sum.self),
			field("outgoing", anyStrings(sum.outgoing)), field("incoming", anyStrings(sum.incoming))})
	}
	edgeList := []any{}
	for _, e := range edges[:min(len(edges), maxMapEntries)] {
		edgeList = append(edgeList, pyjson.Object{field("source_sheet", e.key.source), field("target_sheet", e.key.target),
			field("ref_type", e.key.kind), field("ref_count", e.count), field("sample_formulas", anyStrings(e.samples))})
	}
	names := []any{}
	for _, d := range g.Names[:min(len(g.Names), maxMapEntries)] {
		scope := d.Scope
		if scope == "" {
			scope = "workbook"
		}
		names = append(names, pyjson.Object{field("name", d.Name), field("scope", scope), field("refers_to", d.RefersTo)})
	}
	tables := []any{}
	for _, t := range g.Tables[:min(len(g.Tables), maxMapEntries)] {
		tables = append(tables, pyjson.Object{field("name", t.Name), field("sheet", t.Sheet), field("range", t.Range.String()), field("columns", anyStrings(t.Columns))})
	}
	ext := []any{}
	for _, k := range linkOrder(links) {
		ext = append(ext, pyjson.Object{field("workbook", k), field("ref_count", links[k])})
	}
	return []pyjson.Field{
		field("sheets", sheets),
		field("cross_sheet_edges", edgeList),
		field("edges_truncated", len(edges) > maxMapEntries),
		field("named_ranges", names),
		field("tables", tables),
		field("external_links", ext),
	}
}

// linkOrder lists the external workbooks referenced, sorted, at most
// maxMapEntries.
func linkOrder(links map[string]int) []string {
	keys := make([]string, 0, len(links))
	for k := range links {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys[:min(len(keys), maxMapEntries)]
}

// anyStrings converts a string list for a payload (never null).
func anyStrings(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
