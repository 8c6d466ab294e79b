package refgraph

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

func TestStructuredArea(t *testing.T) {
	// Sales covers B2:D10 on Data: header row 2, columns Qty, Price, Amount.
	g := New(Workbook{Sheets: []string{"Data"}, Tables: []Table{
		{Name: "Sales", Sheet: "Data", Range: cellarea.Range{C1: 2, R1: 2, C2: 4, R2: 10}, Columns: []string{"Qty", "Price", "Amount"}},
	}})
	at := cellarea.Area{Sheet: "Data", C1: 6, R1: 5, C2: 6, R2: 5} // F5, beside the table
	in := cellarea.Area{Sheet: "Data", C1: 4, R1: 7, C2: 4, R2: 7} // D7, inside it
	cases := []struct {
		name, ref string
		at        cellarea.Area
		want      cellarea.Area
		ok        bool
	}{
		{"a column's data rows", "Sales[Price]", at, cellarea.Area{Sheet: "Data", C1: 3, R1: 3, C2: 3, R2: 10}, true},
		{"names ignore case", "sales[qty]", at, cellarea.Area{Sheet: "Data", C1: 2, R1: 3, C2: 2, R2: 10}, true},
		{"every data row", "Sales", at, cellarea.Area{Sheet: "Data", C1: 2, R1: 3, C2: 4, R2: 10}, true},
		{"all rows", "Sales[#All]", at, cellarea.Area{Sheet: "Data", C1: 2, R1: 2, C2: 4, R2: 10}, true},
		{"the header row", "Sales[#Headers]", at, cellarea.Area{Sheet: "Data", C1: 2, R1: 2, C2: 4, R2: 2}, true},
		{"a span of columns", "Sales[[Qty]:[Price]]", at, cellarea.Area{Sheet: "Data", C1: 2, R1: 3, C2: 3, R2: 10}, true},
		{"this row", "Sales[[#This Row],[Amount]]", at, cellarea.Area{Sheet: "Data", C1: 4, R1: 5, C2: 4, R2: 5}, true},
		{"@ inside the table, no table name", "[@Qty]", in, cellarea.Area{Sheet: "Data", C1: 2, R1: 7, C2: 2, R2: 7}, true},
		{"no table named so", "Other[Qty]", at, cellarea.Area{}, false},
		{"no table around the cell", "[@Qty]", at, cellarea.Area{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := g.structuredArea(tc.ref, tc.at)
			assert.Equal(t, tc.ok, ok)
			assert.Equal(t, tc.want, got)
		})
	}
}
