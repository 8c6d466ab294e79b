package excelops

import (
	"context"
	"slices"
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
)

// The reference graph behind get_reference_map, trace_references and
// get_impact_analysis: every formula cell of a workbook with the
// references it holds, each resolved to the cells it reads in this
// workbook (defined names to what they refer to, structured references to
// the table's cells) or to the external workbook it reads from.

// Reference types as the tools report them.
const (
	refTypeCell     = "cell"     // one cell, A1
	refTypeRange    = "range"    // an area, whole columns or rows
	refTypeName     = "name"     // a defined name
	refTypeTable    = "table"    // a structured reference, Sales[Amount]
	refTypeExternal = "external" // a cell or name of another workbook
	refType3D       = "3d"       // the same area on a span of sheets
)

// maxNameNesting bounds how deep a defined name referring to other names
// is followed.
const maxNameNesting = 4

// refUse is one reference operand of a formula, resolved.
type refUse struct {
	text  string      // as formula text
	kind  string      // one of the refType constants
	sheet string      // the sheet an A1 operand points into, "" otherwise
	area  string      // the A1 part of an A1 operand
	areas []sheetArea // the cells of this workbook it reads
	book  string      // external: the linked workbook, as the link names it
}

// refNode is one formula cell.
type refNode struct {
	sheet, cell, formula string
	at                   sheetArea
	refs                 []refUse
	dynamic              bool // it computes references (INDIRECT, OFFSET): what it reads is not known
}

// refNameDef is one defined name.
type refNameDef struct {
	name, scope, data string // scope: the sheet it is local to, "" for the workbook
}

// refTable is one table (ListObject): its cells and its column names.
type refTable struct {
	name, sheet string
	rng         cellRange
	columns     []string
}

// refGraph is every formula of a workbook with what it reads.
type refGraph struct {
	sheets []string
	nodes  []refNode
	names  []refNameDef
	tables []refTable
	links  map[string]string // "[1]" -> the external workbook's path
}

// refGraph builds the graph of b: every worksheet is bounds-checked and
// parsed (as find_replace's scan of all sheets does).
func (b *book) refGraph(ctx context.Context) (*refGraph, error) {
	sheets, err := b.findSheets("", false)
	if err != nil {
		return nil, err
	}
	g := &refGraph{sheets: sheets, links: b.externalLinks()}
	list, _ := b.sheetList()
	if wb := b.f.WorkBook; wb != nil && wb.DefinedNames != nil {
		for _, dn := range wb.DefinedNames.DefinedName {
			scope := ""
			if dn.LocalSheetID != nil && *dn.LocalSheetID >= 0 && *dn.LocalSheetID < len(list) {
				scope = list[*dn.LocalSheetID]
			}
			g.names = append(g.names, refNameDef{name: dn.Name, scope: scope, data: dn.Data})
		}
	}
	for _, sheet := range sheets {
		tables, err := b.tablesOn(sheet)
		if err != nil {
			return nil, err
		}
		for _, t := range tables {
			rt := refTable{name: t.name, sheet: sheet, rng: t.rng}
			for c := t.rng.C1; c <= t.rng.C2; c++ {
				h, _ := b.f.GetCellValue(sheet, cellName(c, t.rng.R1))
				rt.columns = append(rt.columns, h)
			}
			g.tables = append(g.tables, rt)
		}
	}
	for _, sheet := range sheets {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cells, err := b.formulaCells(sheet)
		if err != nil {
			return nil, err
		}
		for _, fc := range cells {
			text, err := b.f.GetCellFormula(sheet, fc.ref)
			if err != nil {
				return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
			}
			if text == "" {
				continue
			}
			at, ok := cellarea.ParseArea(fc.ref, sheet)
			if !ok {
				continue
			}
			n := refNode{sheet: sheet, cell: fc.ref, formula: "=" + strings.TrimPrefix(text, "="), at: at, dynamic: computesRefs(text)}
			ops, _ := formularef.Operands(text)
			for _, o := range ops {
				n.refs = append(n.refs, g.resolve(o, sheet, at, 0))
			}
			g.nodes = append(g.nodes, n)
		}
	}
	return g, nil
}

// resolve turns one operand of a formula living on host (at the cell at)
// into a refUse.
func (g *refGraph) resolve(o formularef.Operand, host string, at sheetArea, nesting int) refUse {
	u := refUse{text: o.Text}
	switch {
	case o.Book != "":
		u.kind, u.sheet = refTypeExternal, o.Sheet
		u.book = g.links[o.Book]
		if u.book == "" {
			u.book = strings.TrimSuffix(strings.TrimPrefix(o.Book, "["), "]")
		}
		if o.IsArea {
			u.area = areaText(o)
		}
	case o.IsArea && o.Sheet2 != "":
		u.kind, u.area = refType3D, areaText(o)
		i, j := g.sheetIndex(o.Sheet), g.sheetIndex(o.Sheet2)
		if i >= 0 && j >= 0 {
			for _, s := range g.sheets[min(i, j) : max(i, j)+1] {
				u.areas = append(u.areas, sheetArea{Sheet: s, C1: o.Col1, R1: o.Row1, C2: o.Col2, R2: o.Row2})
			}
		}
	case o.IsArea:
		u.kind, u.sheet, u.area = refTypeRange, host, areaText(o)
		if o.Sheet != "" {
			u.sheet = g.sheetName(o.Sheet)
		}
		if o.Col1 == o.Col2 && o.Row1 == o.Row2 {
			u.kind = refTypeCell
		}
		u.areas = []sheetArea{{Sheet: u.sheet, C1: o.Col1, R1: o.Row1, C2: o.Col2, R2: o.Row2}}
	case o.IsStructured():
		u.kind = refTypeTable
		if a, ok := g.structuredArea(o.Rest, at); ok {
			u.sheet, u.areas = a.Sheet, []sheetArea{a}
		}
	default:
		u.kind = refTypeName
		if nesting < maxNameNesting {
			u.areas = g.nameAreas(o.Rest, host, at, nesting)
		}
	}
	return u
}

// computesRefs reports whether formula calls a function that computes the
// cells it reads (INDIRECT, OFFSET), so its references are not all known.
func computesRefs(formula string) bool {
	ps := efp.ExcelParser()
	for _, tk := range ps.Parse("=" + strings.TrimPrefix(formula, "=")) {
		if tk.TType == efp.TokenTypeFunction && tk.TSubType == efp.TokenSubTypeStart {
			name := strings.ToUpper(strings.TrimPrefix(tk.TValue, "_xlfn."))
			if name == "INDIRECT" || name == "OFFSET" {
				return true
			}
		}
	}
	return false
}

// dynamicCells lists, as Sheet!A1, at most maxMapEntries formulas that
// compute their references, and how many there are.
func (g *refGraph) dynamicCells() ([]any, int) {
	out := []any{}
	n := 0
	for _, node := range g.nodes {
		if node.dynamic {
			if n++; len(out) < maxMapEntries {
				out = append(out, node.sheet+"!"+node.cell)
			}
		}
	}
	return out, n
}

// areaText is the A1 part of an operand (after its sheet).
func areaText(o formularef.Operand) string {
	if i := strings.LastIndex(o.Text, "!"); i >= 0 {
		return o.Text[i+1:]
	}
	return o.Text
}

// nameAreas is what the defined name reads, seen from a formula on host:
// the name local to host first, else the workbook's.
func (g *refGraph) nameAreas(name, host string, at sheetArea, nesting int) []sheetArea {
	def, ok := g.name(name, host)
	if !ok {
		return nil
	}
	ops, _ := formularef.Operands(def.data)
	var out []sheetArea
	for _, o := range ops {
		out = append(out, g.resolve(o, host, at, nesting+1).areas...)
	}
	return out
}

// name finds a defined name as a formula on host sees it.
func (g *refGraph) name(name, host string) (refNameDef, bool) {
	var global *refNameDef
	for i, d := range g.names {
		if !strings.EqualFold(d.name, name) {
			continue
		}
		if d.scope != "" && strings.EqualFold(d.scope, host) {
			return d, true
		}
		if d.scope == "" {
			global = &g.names[i]
		}
	}
	if global == nil {
		return refNameDef{}, false
	}
	return *global, true
}

// sheetIndex is the position of sheet among the worksheets, -1 if absent.
func (g *refGraph) sheetIndex(sheet string) int {
	return slices.IndexFunc(g.sheets, func(s string) bool { return strings.EqualFold(s, sheet) })
}

// sheetName is sheet as the workbook spells it (references ignore case).
func (g *refGraph) sheetName(sheet string) string {
	if i := g.sheetIndex(sheet); i >= 0 {
		return g.sheets[i]
	}
	return sheet
}
