package formuladeps

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

func TestScopeResolve(t *testing.T) {
	t.Parallel()
	sales := cellarea.Area{Sheet: "Data", C1: 2, R1: 3, C2: 11, R2: 6}
	d := &Scope{
		tables: []table{{"Sales", sales}},
		names: map[string][]nameTarget{
			"rate":  {{scope: "", areas: []cellarea.Area{{Sheet: "Inputs", C1: 1, R1: 2, C2: 1, R2: 2}}, ok: true}},
			"local": {{scope: "Data", areas: []cellarea.Area{{Sheet: "Data", C1: 1, R1: 1, C2: 1, R2: 1}}, ok: true}, {scope: "", areas: []cellarea.Area{{Sheet: "Inputs", C1: 5, R1: 5, C2: 5, R2: 5}}, ok: true}},
			"calc":  {{scope: "", ok: false}},
		},
	}
	in := cellarea.Area{Sheet: "Data", C1: 3, R1: 4, C2: 3, R2: 4}    // a cell inside the table
	out := cellarea.Area{Sheet: "Data", C1: 20, R1: 1, C2: 20, R2: 1} // one outside it
	cases := []struct {
		operand, formula string
		at               cellarea.Area
		want             []cellarea.Area
		ok               bool
	}{
		{"Sales[Amount]", "SUM(Sales[Amount])", out, []cellarea.Area{sales}, true},
		{"sales[#All]", "SUM(sales[#All])", out, []cellarea.Area{sales}, true},
		{"[Amount]", "SUBTOTAL(109,[Amount])", in, []cellarea.Area{sales}, true},
		{"[Amount]", "SUBTOTAL(109,[Amount])", out, nil, false},
		{"[Col1]:[Col3]]", "SUM(Sales[[#This Row],[Col1]:[Col3]])", out, []cellarea.Area{sales}, true},
		{"Nope[Amount]", "SUM(Nope[Amount])", out, []cellarea.Area{{}}, false},
		{"[1]Sheet1!A1", "[1]Sheet1!A1", out, nil, false},
		{"Rate", "Rate*2", out, []cellarea.Area{{Sheet: "Inputs", C1: 1, R1: 2, C2: 1, R2: 2}}, true},
		{"Local", "Local", in, []cellarea.Area{{Sheet: "Data", C1: 1, R1: 1, C2: 1, R2: 1}}, true},
		{"Local", "Local", cellarea.Area{Sheet: "Other", C1: 1, R1: 1, C2: 1, R2: 1}, []cellarea.Area{{Sheet: "Inputs", C1: 5, R1: 5, C2: 5, R2: 5}}, true},
		{"Calc", "Calc", out, nil, false},
		{"x", "LET(x,1,x)", out, nil, false},
	}
	for _, c := range cases {
		got, ok := d.resolve(c.operand, c.at, c.formula)
		assert.Equal(t, c.ok, ok, c.operand)
		if c.ok {
			assert.Equal(t, c.want, got, c.operand)
		}
	}
	var none *Scope
	_, ok := none.resolve("Rate", out, "Rate")
	assert.False(t, ok, "no scope resolves nothing")
}

// TestScopeAdd: a scope filled through its methods resolves what Scan
// meets: a table by name, a defined name local to the formula's sheet
// before the workbook's, and a name whose references are not plain, or
// not cells, is wide.
func TestScopeAdd(t *testing.T) {
	t.Parallel()
	sales := cellarea.Area{Sheet: "Data", C1: 2, R1: 3, C2: 11, R2: 6}
	d := &Scope{}
	d.AddTable("Sales", sales)
	d.AddName("Rate", "", "Inputs!$A$2", true)
	d.AddName("Rate", "Data", "Data!$A$1:$A$2", true)
	d.AddName("Rel", "", "Inputs!A2", false)
	d.AddName("Calc", "", "Rate*2", true)
	cell := func(sheet string) cellarea.Area { return cellarea.Area{Sheet: sheet, C1: 20, R1: 1, C2: 20, R2: 1} }
	for _, c := range []struct {
		formula, sheet string
		want           []cellarea.Area
		wide           bool
	}{
		{"SUM(Sales[Qty])*Rate", "Other", []cellarea.Area{sales, {Sheet: "Inputs", C1: 1, R1: 2, C2: 1, R2: 2}}, false},
		{"rate+1", "Data", []cellarea.Area{{Sheet: "Data", C1: 1, R1: 1, C2: 1, R2: 2}}, false},
		{"Rel*2", "Other", nil, true},
		{"Calc", "Other", nil, true},
		{"Unknown", "Other", nil, true},
	} {
		got, wide := Scan(c.formula, cell(c.sheet), d)
		assert.Equal(t, c.wide, wide, c.formula)
		assert.Equal(t, c.want, got, c.formula)
	}
}
