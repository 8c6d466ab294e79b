package refgraph

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// Reference types as the tools report them.
const (
	TypeCell     = "cell"     // one cell, A1
	TypeRange    = "range"    // an area, whole columns or rows
	TypeName     = "name"     // a defined name
	TypeTable    = "table"    // a structured reference, Sales[Amount]
	TypeExternal = "external" // a cell or name of another workbook
	Type3D       = "3d"       // the same area on a span of sheets
)

// maxNameNesting bounds how deep a defined name referring to other names
// is followed.
const maxNameNesting = 4

// Use is one reference operand of a formula, resolved.
type Use struct {
	Text  string          // as formula text
	Type  string          // one of the Type constants
	Sheet string          // the sheet an A1 operand points into, "" otherwise
	Area  string          // the A1 part of an A1 operand
	Areas []cellarea.Area // the cells of this workbook it reads
	Book  string          // external: the linked workbook, as the link names it
}

// Node is one formula cell.
type Node struct {
	Sheet, Cell string        // where it is: "Data", "B7"
	Formula     string        // its formula, with its "="
	At          cellarea.Area // its cell as an area
	Refs        []Use         // its reference operands, in formula order
	Dynamic     bool          // it computes references (INDIRECT, OFFSET): what it reads is not known
}

// NameDef is one defined name.
type NameDef struct {
	Name     string // as the workbook spells it
	Scope    string // the sheet it is local to, "" for the workbook
	RefersTo string // its formula text, without "="
}

// Table is one table (ListObject): its cells and its column names.
type Table struct {
	Name, Sheet string
	Range       cellarea.Range // every cell, the header row first
	Columns     []string       // the header row's texts, left to right
}

// Workbook is what the graph needs of a workbook besides its formulas.
type Workbook struct {
	Sheets []string          // the worksheets, in workbook order
	Names  []NameDef         // the defined names, in workbook order
	Tables []Table           // the tables, sheet by sheet
	Links  map[string]string // "[1]" -> the external workbook's path
}

// Graph is every formula of a workbook with what it reads.
type Graph struct {
	Sheets []string  // the worksheets, in workbook order
	Nodes  []Node    // the formula cells, in the order added
	Names  []NameDef // the defined names
	Tables []Table   // the tables
	links  map[string]string
}

// New returns the graph of w, without formulas yet (Add adds them).
func New(w Workbook) *Graph {
	return &Graph{Sheets: w.Sheets, Names: w.Names, Tables: w.Tables, links: w.Links}
}

// Add adds the formula cell at cell of sheet holding text (with or without
// its "="), its references resolved. An empty formula or a cell name that
// does not parse adds nothing.
func (g *Graph) Add(sheet, cell, text string) {
	if text == "" {
		return
	}
	at, ok := cellarea.ParseArea(cell, sheet)
	if !ok {
		return
	}
	n := Node{Sheet: sheet, Cell: cell, Formula: "=" + strings.TrimPrefix(text, "="), At: at, Dynamic: computesRefs(text)}
	ops, _ := formularef.Operands(text)
	for _, o := range ops {
		n.Refs = append(n.Refs, g.resolve(o, sheet, at, 0))
	}
	g.Nodes = append(g.Nodes, n)
}

// resolve turns one operand of a formula living on host (at the cell at)
// into a Use.
func (g *Graph) resolve(o formularef.Operand, host string, at cellarea.Area, nesting int) Use {
	u := Use{Text: o.Text}
	switch {
	case o.Book != "":
		u.Type, u.Sheet = TypeExternal, o.Sheet
		u.Book = g.links[o.Book]
		if u.Book == "" {
			u.Book = strings.TrimSuffix(strings.TrimPrefix(o.Book, "["), "]")
		}
		if o.IsArea {
			u.Area = areaText(o)
		}
	case o.IsArea && o.Sheet2 != "":
		u.Type, u.Area = Type3D, areaText(o)
		i, j := g.sheetIndex(o.Sheet), g.sheetIndex(o.Sheet2)
		if i >= 0 && j >= 0 {
			for _, s := range g.Sheets[min(i, j) : max(i, j)+1] {
				u.Areas = append(u.Areas, cellarea.Area{Sheet: s, C1: o.Col1, R1: o.Row1, C2: o.Col2, R2: o.Row2})
			}
		}
	case o.IsArea:
		u.Type, u.Sheet, u.Area = TypeRange, host, areaText(o)
		if o.Sheet != "" {
			u.Sheet = g.SheetName(o.Sheet)
		}
		if o.Col1 == o.Col2 && o.Row1 == o.Row2 {
			u.Type = TypeCell
		}
		u.Areas = []cellarea.Area{{Sheet: u.Sheet, C1: o.Col1, R1: o.Row1, C2: o.Col2, R2: o.Row2}}
	case o.IsStructured():
		u.Type = TypeTable
		if a, ok := g.structuredArea(o.Rest, at); ok {
			u.Sheet, u.Areas = a.Sheet, []cellarea.Area{a}
		}
	default:
		u.Type = TypeName
		if nesting < maxNameNesting {
			u.Areas = g.nameAreas(o.Rest, host, at, nesting)
		}
	}
	return u
}

// computesRefs reports whether formula calls a function that computes the
// cells it reads (INDIRECT, OFFSET), so its references are not all known.
func computesRefs(formula string) bool {
	return formulatok.CallsAny(formula, func(name string) bool { return name == "INDIRECT" || name == "OFFSET" })
}

// areaText is the A1 part of an operand (after its sheet).
func areaText(o formularef.Operand) string {
	if i := strings.LastIndex(o.Text, "!"); i >= 0 {
		return o.Text[i+1:]
	}
	return o.Text
}
