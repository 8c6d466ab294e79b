package tools

import (
	"context"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/refgraph"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// trace_references and get_impact_analysis: what a cell's formula reads
// (precedents) and which formulas read the cell (dependents), within a
// sheet, across sheets, through defined names and tables, over the
// reference graph (internal/refgraph, built in refgraph.go). Results are
// paged: offset and max_items window the listed entries; next_offset never
// skips one.

const (
	// maxTraceDepth is the deepest trace_references walks.
	maxTraceDepth = 20
)

// traceReferencesTool declares trace_references.
var traceReferencesTool = typedTool(toolSpec{
	name: "trace_references", title: "Trace references",
	desc:    "Trace a cell's reference chain: the cells, ranges, defined names, tables and external workbooks its formula reads (precedents) and the formula cells that read it (dependents), across sheets, to a given depth.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStructure}}},
}, (*Service).traceReferences)

// traceArgs are trace_references' arguments.
type traceArgs struct {
	fileArg
	Target    string `json:"target" minLength:"1" jsonschema:"Cell or range, e.g. \"Orders!C2\" or \"'My Sheet'!A1:B9\"; without a sheet, the first sheet"`
	Direction string `json:"direction,omitempty" enum:"precedents,dependents,both" jsonschema:"What to trace (default both)"`
	Depth     int    `json:"depth,omitempty" minimum:"1" maximum:"20" jsonschema:"Levels to follow (default 2; 1: direct references only)"`
	refPageArgs
}

// traceReferences implements trace_references.
func (s *Service) traceReferences(ctx context.Context, a traceArgs) (*engine.Call, error) {
	dir := a.Direction
	if dir == "" {
		dir = "both"
	}
	if !vocab.OneOf(dir, "precedents", "dependents", "both") {
		return nil, failure.Invalid("direction must be \"precedents\", \"dependents\" or \"both\", got %q", a.Direction)
	}
	depth := a.Depth
	if depth == 0 {
		depth = 2
	}
	if depth < 1 || depth > maxTraceDepth {
		return nil, failure.Invalid("depth must be between 1 and %d, got %d", maxTraceDepth, a.Depth)
	}
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		g, err := refGraph(b, ctx)
		if err != nil {
			return nil, err
		}
		target, err := traceTarget(b, g, a.Target)
		if err != nil {
			return nil, err
		}
		var entries []any
		complete := true
		nPrec := 0
		if dir != "dependents" {
			steps, ok := g.Precedents([]cellarea.Area{target}, depth)
			complete = complete && ok
			for _, st := range steps {
				entries = append(entries, precedentEntry(g, st))
			}
			nPrec = len(entries)
		}
		if dir != "precedents" {
			steps, ok := g.Dependents([]cellarea.Area{target}, depth)
			complete = complete && ok
			for _, st := range steps {
				entries = append(entries, dependentEntry(g, st))
			}
		}
		return a.fit(ctx, len(entries), func(lo, hi int) pyjson.Object {
			prec, deps := []any{}, []any{}
			for i := lo; i < hi; i++ {
				if i < nPrec {
					prec = append(prec, entries[i])
				} else {
					deps = append(deps, entries[i])
				}
			}
			return success(b.Name(), target.Sheet,
				field("target", a.Target),
				field("formula", targetFormula(g, target)),
				field("direction", dir),
				field("depth", depth),
				field("total_precedents", nPrec),
				field("total_dependents", len(entries)-nPrec),
				field("precedents", prec),
				field("dependents", deps),
				field("complete", complete))
		})
	}), nil
}

// impactAnalysisTool declares get_impact_analysis.
var impactAnalysisTool = typedTool(toolSpec{
	name: "get_impact_analysis", title: "Impact analysis",
	desc:    "List the formula cells whose value depends on a cell or range, directly or through other formulas, defined names and tables, on every sheet: what changes when the target changes. Formulas computing their references (INDIRECT, OFFSET) are listed apart as dynamic_formulas.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStructure}}},
}, (*Service).impactAnalysis)

// impactArgs are get_impact_analysis' arguments.
type impactArgs struct {
	fileArg
	Target string `json:"target" minLength:"1" jsonschema:"Cell or range, e.g. \"Products!B2\"; without a sheet, the first sheet"`
	Scope  string `json:"scope,omitempty" enum:"all,direct" jsonschema:"all (default): every formula affected, through chains of formulas; direct: only formulas reading the target itself"`
	refPageArgs
}

// impactAnalysis implements get_impact_analysis.
func (s *Service) impactAnalysis(ctx context.Context, a impactArgs) (*engine.Call, error) {
	scope := a.Scope
	if scope == "" {
		scope = "all"
	}
	if !vocab.OneOf(scope, "all", "direct") {
		return nil, failure.Invalid("scope must be \"all\" or \"direct\", got %q", a.Scope)
	}
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		g, err := refGraph(b, ctx)
		if err != nil {
			return nil, err
		}
		target, err := traceTarget(b, g, a.Target)
		if err != nil {
			return nil, err
		}
		depth := 0
		if scope == "direct" {
			depth = 1
		}
		steps, complete := g.Dependents([]cellarea.Area{target}, depth)
		sheets := map[string]bool{}
		var affected []any
		nDirect := 0
		for _, st := range steps {
			sheets[g.Nodes[st.Node].Sheet] = true
			if st.Depth == 1 {
				nDirect++
			}
		}
		// Formulas computing their references (INDIRECT, OFFSET) may read
		// the target too; they are named, not claimed.
		dynamic, _ := dynamicCells(g)
		affected = []any{}
		for _, s := range g.Sheets {
			if sheets[s] {
				affected = append(affected, s)
			}
		}
		return a.fit(ctx, len(steps), func(lo, hi int) pyjson.Object {
			direct, indirect := []any{}, []any{}
			for _, st := range steps[lo:hi] {
				if st.Depth == 1 {
					direct = append(direct, dependentEntry(g, st))
				} else {
					indirect = append(indirect, dependentEntry(g, st))
				}
			}
			return success(b.Name(), target.Sheet,
				field("target", a.Target),
				field("scope", scope),
				field("total_affected_cells", len(steps)),
				field("direct_count", nDirect),
				field("affected_sheets", affected),
				field("direct_impact", direct),
				field("indirect_impact", indirect),
				field("complete", complete),
				field("dynamic_formulas", dynamic))
		})
	}), nil
}

// traceTarget reads a target argument: Sheet!A1, 'My Sheet'!A1:C9 or,
// without a sheet, a cell or range of the first sheet of g.
func traceTarget(b *engine.Book, g *refgraph.Graph, text string) (cellarea.Area, error) {
	text = strings.TrimSpace(text)
	sheet, addr := "", text
	if i := strings.LastIndex(text, "!"); i >= 0 {
		sheet, addr = text[:i], text[i+1:]
		if len(sheet) >= 2 && strings.HasPrefix(sheet, "'") && strings.HasSuffix(sheet, "'") {
			sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
		}
		resolved, err := b.Sheet(sheet)
		if err != nil {
			return cellarea.Area{}, err
		}
		sheet = resolved
	} else if len(g.Sheets) > 0 {
		sheet = g.Sheets[0]
	}
	a, ok := cellarea.ParseArea(addr, sheet)
	if !ok || addr == "" {
		return cellarea.Area{}, failure.Invalid("target %q is not a cell or range: write it as Sheet1!B2, 'My Sheet'!A1:C9 or B2", text)
	}
	return a, nil
}

// targetFormula is the formula of target when it is one formula cell, else nil.
func targetFormula(g *refgraph.Graph, target cellarea.Area) any {
	if target.C1 != target.C2 || target.R1 != target.R2 {
		return nil
	}
	for _, n := range g.Nodes {
		if n.At.Overlaps(target) {
			return n.Formula
		}
	}
	return nil
}

// precedentEntry renders one precedent.
func precedentEntry(g *refgraph.Graph, st refgraph.Precedent) pyjson.Object {
	n := g.Nodes[st.Node]
	r := n.Refs[st.Ref]
	o := pyjson.Object{
		field("display", r.Text),
		field("type", r.Type),
		field("cell_or_range", r.Area),
		field("sheet_name", r.Sheet),
	}
	if r.Type == refgraph.TypeName || r.Type == refgraph.TypeTable {
		o[2].Value = r.Text
	}
	if r.Book != "" {
		o = append(o, field("workbook", r.Book))
	}
	return append(o, field("depth", st.Depth), field("via", n.Sheet+"!"+n.Cell))
}

// dependentEntry renders one dependent formula cell.
func dependentEntry(g *refgraph.Graph, st refgraph.Dependent) pyjson.Object {
	n := g.Nodes[st.Node]
	return pyjson.Object{field("sheet", n.Sheet), field("cell", n.Cell), field("formula", n.Formula), field("depth", st.Depth)}
}

// dynamicCells lists, as Sheet!A1, at most maxMapEntries formulas of g that
// compute their references, and how many there are.
func dynamicCells(g *refgraph.Graph) ([]any, int) {
	out := []any{}
	n := 0
	for _, node := range g.Nodes {
		if node.Dynamic {
			if n++; len(out) < maxMapEntries {
				out = append(out, node.Sheet+"!"+node.Cell)
			}
		}
	}
	return out, n
}
