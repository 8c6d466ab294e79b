package excelops

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStructuredArea(t *testing.T) {
	// Sales covers B2:D10 on Data: header row 2, columns Qty, Price, Amount.
	g := &refGraph{sheets: []string{"Data"}, tables: []refTable{
		{name: "Sales", sheet: "Data", rng: cellRange{C1: 2, R1: 2, C2: 4, R2: 10}, columns: []string{"Qty", "Price", "Amount"}},
	}}
	at := sheetArea{Sheet: "Data", C1: 6, R1: 5, C2: 6, R2: 5} // F5, beside the table
	in := sheetArea{Sheet: "Data", C1: 4, R1: 7, C2: 4, R2: 7} // D7, inside it
	cases := []struct {
		name, ref string
		at        sheetArea
		want      sheetArea
		ok        bool
	}{
		{"a column's data rows", "Sales[Price]", at, sheetArea{Sheet: "Data", C1: 3, R1: 3, C2: 3, R2: 10}, true},
		{"names ignore case", "sales[qty]", at, sheetArea{Sheet: "Data", C1: 2, R1: 3, C2: 2, R2: 10}, true},
		{"every data row", "Sales", at, sheetArea{Sheet: "Data", C1: 2, R1: 3, C2: 4, R2: 10}, true},
		{"all rows", "Sales[#All]", at, sheetArea{Sheet: "Data", C1: 2, R1: 2, C2: 4, R2: 10}, true},
		{"the header row", "Sales[#Headers]", at, sheetArea{Sheet: "Data", C1: 2, R1: 2, C2: 4, R2: 2}, true},
		{"a span of columns", "Sales[[Qty]:[Price]]", at, sheetArea{Sheet: "Data", C1: 2, R1: 3, C2: 3, R2: 10}, true},
		{"this row", "Sales[[#This Row],[Amount]]", at, sheetArea{Sheet: "Data", C1: 4, R1: 5, C2: 4, R2: 5}, true},
		{"@ inside the table, no table name", "[@Qty]", in, sheetArea{Sheet: "Data", C1: 2, R1: 7, C2: 2, R2: 7}, true},
		{"no table named so", "Other[Qty]", at, sheetArea{}, false},
		{"no table around the cell", "[@Qty]", at, sheetArea{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := g.structuredArea(tc.ref, tc.at)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
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

func TestImpactNamesDynamicFormulasApart(t *testing.T) {
	e := newEnv(t)
	e.workbook("d.xlsx", [][]any{{1, 2}})
	f := e.open("d.xlsx")
	assert.NoError(t, f.SetCellFormula("Sheet1", "C1", `INDIRECT("A"&B1)`))
	assert.NoError(t, f.SetCellFormula("Sheet1", "D1", "A1*2"))
	assert.NoError(t, f.Save())
	got := e.ok("get_impact_analysis", map[string]any{"file_path": "d.xlsx", "target": "A1"})
	assert.Equal(t, []any{"Sheet1!C1"}, got["dynamic_formulas"])
	assert.Equal(t, []string{"Sheet1!D1@1"}, dependentCells(got["direct_impact"]))
}
