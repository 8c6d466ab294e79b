package refgraph

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

// testWorkbook has three sheets, a name Rate local to Calc and another for
// the workbook, a name Twice referring to Rate, a table Sales on Data
// (B2:D10) and one external link.
func testWorkbook() Workbook {
	return Workbook{
		Sheets: []string{"Data", "Calc", "Summary"},
		Names: []NameDef{
			{Name: "Rate", RefersTo: "Data!$B$1"},
			{Name: "Rate", Scope: "Calc", RefersTo: "Calc!$A$1"},
			{Name: "Twice", RefersTo: "Rate*2"},
			{Name: "Loop", RefersTo: "Loop+1"},
		},
		Tables: []Table{{Name: "Sales", Sheet: "Data", Range: cellarea.Range{C1: 2, R1: 2, C2: 4, R2: 10}, Columns: []string{"Qty", "Price", "Amount"}}},
		Links:  map[string]string{"[1]": "prices.xlsx"},
	}
}

func area(sheet string, c1, r1, c2, r2 int) cellarea.Area {
	return cellarea.Area{Sheet: sheet, C1: c1, R1: r1, C2: c2, R2: r2}
}

func TestAddResolves(t *testing.T) {
	cases := []struct {
		name, sheet, formula string
		want                 Use
	}{
		{"a range on another sheet", "Calc", "=SUM(Data!A1:A3)",
			Use{Text: "Data!A1:A3", Type: TypeRange, Sheet: "Data", Area: "A1:A3", Areas: []cellarea.Area{area("Data", 1, 1, 1, 3)}}},
		{"a cell, the sheet spelt as the workbook does", "Calc", "=data!C5",
			Use{Text: "data!C5", Type: TypeCell, Sheet: "Data", Area: "C5", Areas: []cellarea.Area{area("Data", 3, 5, 3, 5)}}},
		{"a cell of the host sheet", "Summary", "=B2",
			Use{Text: "B2", Type: TypeCell, Sheet: "Summary", Area: "B2", Areas: []cellarea.Area{area("Summary", 2, 2, 2, 2)}}},
		{"the name local to the host", "Calc", "=Rate",
			Use{Text: "Rate", Type: TypeName, Areas: []cellarea.Area{area("Calc", 1, 1, 1, 1)}}},
		{"the workbook's name elsewhere", "Summary", "=rate",
			Use{Text: "rate", Type: TypeName, Areas: []cellarea.Area{area("Data", 2, 1, 2, 1)}}},
		{"a name through a name, seen from the host", "Calc", "=Twice",
			Use{Text: "Twice", Type: TypeName, Areas: []cellarea.Area{area("Calc", 1, 1, 1, 1)}}},
		{"a name referring to itself stops", "Calc", "=Loop",
			Use{Text: "Loop", Type: TypeName}},
		{"an unknown name reads nothing", "Calc", "=Nowhere",
			Use{Text: "Nowhere", Type: TypeName}},
		{"a table column", "Summary", "=SUM(Sales[Qty])",
			Use{Text: "Sales[Qty]", Type: TypeTable, Sheet: "Data", Areas: []cellarea.Area{area("Data", 2, 3, 2, 10)}}},
		{"a 3-D span", "Calc", "=SUM(Data:Summary!B2)",
			Use{Text: "Data:Summary!B2", Type: Type3D, Area: "B2", Areas: []cellarea.Area{area("Data", 2, 2, 2, 2), area("Calc", 2, 2, 2, 2), area("Summary", 2, 2, 2, 2)}}},
		{"an external link by its path", "Calc", "=[1]Prices!A1",
			Use{Text: "[1]Prices!A1", Type: TypeExternal, Sheet: "Prices", Area: "A1", Book: "prices.xlsx"}},
		{"an external link without parts", "Calc", "=[9]Prices!A1",
			Use{Text: "[9]Prices!A1", Type: TypeExternal, Sheet: "Prices", Area: "A1", Book: "9"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := New(testWorkbook())
			g.Add(tc.sheet, "F7", tc.formula)
			if assert.Len(t, g.Nodes, 1) {
				n := g.Nodes[0]
				assert.Equal(t, area(tc.sheet, 6, 7, 6, 7), n.At)
				assert.Equal(t, []Use{tc.want}, n.Refs)
			}
		})
	}
}

func TestAddNode(t *testing.T) {
	g := New(testWorkbook())
	g.Add("Calc", "A1", "")
	g.Add("Calc", "not a cell", "=1")
	g.Add("Calc", "B3", "INDIRECT(\"A\"&B1)+A2")
	if assert.Len(t, g.Nodes, 1, "an empty formula and a bad cell name add nothing") {
		n := g.Nodes[0]
		assert.Equal(t, "Calc", n.Sheet)
		assert.Equal(t, "B3", n.Cell)
		assert.Equal(t, "=INDIRECT(\"A\"&B1)+A2", n.Formula, "the formula gains its \"=\"")
		assert.True(t, n.Dynamic)
		assert.Equal(t, []string{"B1", "A2"}, []string{n.Refs[0].Text, n.Refs[1].Text})
	}
}

func TestSheetName(t *testing.T) {
	g := New(testWorkbook())
	assert.Equal(t, "Summary", g.SheetName("SUMMARY"))
	assert.Equal(t, "Gone", g.SheetName("Gone"))
}

func TestComputesRefs(t *testing.T) {
	cases := []struct {
		formula string
		want    bool
	}{
		{"=INDIRECT(\"A\"&B1)", true},
		{"=SUM(OFFSET(A1,1,0,3,1))", true},
		{"=SUM(A1:A3)", false},
		{`="INDIRECT("&A1`, false},
		{"=NOW()", false},
	}
	for _, tc := range cases {
		t.Run(tc.formula, func(t *testing.T) {
			assert.Equal(t, tc.want, computesRefs(tc.formula))
		})
	}
}
