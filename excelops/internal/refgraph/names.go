package refgraph

import (
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
)

// nameAreas is what the defined name reads, seen from a formula on host:
// the name local to host first, else the workbook's.
func (g *Graph) nameAreas(name, host string, at cellarea.Area, nesting int) []cellarea.Area {
	def, ok := g.name(name, host)
	if !ok {
		return nil
	}
	ops, _ := formularef.Operands(def.RefersTo)
	var out []cellarea.Area
	for _, o := range ops {
		out = append(out, g.resolve(o, host, at, nesting+1).Areas...)
	}
	return out
}

// name finds a defined name as a formula on host sees it.
func (g *Graph) name(name, host string) (NameDef, bool) {
	var global *NameDef
	for i, d := range g.Names {
		if !strings.EqualFold(d.Name, name) {
			continue
		}
		if d.Scope != "" && strings.EqualFold(d.Scope, host) {
			return d, true
		}
		if d.Scope == "" {
			global = &g.Names[i]
		}
	}
	if global == nil {
		return NameDef{}, false
	}
	return *global, true
}

// sheetIndex is the position of sheet among the worksheets, -1 if absent.
func (g *Graph) sheetIndex(sheet string) int {
	return slices.IndexFunc(g.Sheets, func(s string) bool { return strings.EqualFold(s, sheet) })
}

// SheetName is sheet as the workbook spells it (references ignore case);
// a sheet the workbook lacks is returned as given.
func (g *Graph) SheetName(sheet string) string {
	if i := g.sheetIndex(sheet); i >= 0 {
		return g.Sheets[i]
	}
	return sheet
}
