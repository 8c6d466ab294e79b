package excelops

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

func TestCutReferenceValue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		t, v    string
		ok      bool
	}{
		{"A1*2", "", "", false},
		{`"#REF!"&A1`, "", "", false}, // text, not a reference
		{"#REF!", "e", "#REF!", true},
		{"SUM(#REF!)", "e", "#REF!", true}, // excelize says 0
		{"Sheet1!#REF!*2", "e", "#REF!", true},
		{"IFERROR(#REF!,0)", "", "", true}, // may look past it: uncomputed
		{"IF(A1>0,1,#REF!)", "", "", true},
		{"ISERROR(#REF!)", "", "", true},
		{"_xlfn.IFNA(#REF!,1)", "", "", true},
	}
	for _, c := range cases {
		gt, gv, ok := cutReferenceValue(c.formula)
		assert.Equal(t, []any{c.t, c.v, c.ok}, []any{gt, gv, ok}, c.formula)
	}
}

func TestReadsPosition(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		cut     bool
		want    bool
	}{
		{"SUM(A1:A3)", true, false},
		{"ROW()", false, true},
		{"_xlfn.SHEET(A1)", false, true},
		{"COLUMNS(A1:C1)*2", false, true},
		{"#REF!+1", true, true},
		{"#REF!+1", false, false}, // an insert cuts nothing: the #REF! was there before
		{`"ROW("&A1`, false, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, readsPosition(c.formula, c.cut), c.formula)
	}
}

func TestDepScopeResolve(t *testing.T) {
	t.Parallel()
	table := sheetArea{Sheet: "Data", C1: 2, R1: 3, C2: 11, R2: 6}
	d := &depScope{
		tables: []namedArea{{"Sales", table}},
		names: map[string][]nameTarget{
			"rate":  {{scope: "", areas: []sheetArea{{Sheet: "Inputs", C1: 1, R1: 2, C2: 1, R2: 2}}, ok: true}},
			"local": {{scope: "Data", areas: []sheetArea{{Sheet: "Data", C1: 1, R1: 1, C2: 1, R2: 1}}, ok: true}, {scope: "", areas: []sheetArea{{Sheet: "Inputs", C1: 5, R1: 5, C2: 5, R2: 5}}, ok: true}},
			"calc":  {{scope: "", ok: false}},
		},
	}
	in := sheetArea{Sheet: "Data", C1: 3, R1: 4, C2: 3, R2: 4}    // a cell inside the table
	out := sheetArea{Sheet: "Data", C1: 20, R1: 1, C2: 20, R2: 1} // one outside it
	cases := []struct {
		operand, formula string
		at               sheetArea
		want             []sheetArea
		ok               bool
	}{
		{"Sales[Amount]", "SUM(Sales[Amount])", out, []sheetArea{table}, true},
		{"sales[#All]", "SUM(sales[#All])", out, []sheetArea{table}, true},
		{"[Amount]", "SUBTOTAL(109,[Amount])", in, []sheetArea{table}, true},
		{"[Amount]", "SUBTOTAL(109,[Amount])", out, nil, false},
		{"[Col1]:[Col3]]", "SUM(Sales[[#This Row],[Col1]:[Col3]])", out, []sheetArea{table}, true},
		{"Nope[Amount]", "SUM(Nope[Amount])", out, []sheetArea{{}}, false},
		{"[1]Sheet1!A1", "[1]Sheet1!A1", out, nil, false},
		{"Rate", "Rate*2", out, []sheetArea{{Sheet: "Inputs", C1: 1, R1: 2, C2: 1, R2: 2}}, true},
		{"Local", "Local", in, []sheetArea{{Sheet: "Data", C1: 1, R1: 1, C2: 1, R2: 1}}, true},
		{"Local", "Local", sheetArea{Sheet: "Other", C1: 1, R1: 1, C2: 1, R2: 1}, []sheetArea{{Sheet: "Inputs", C1: 5, R1: 5, C2: 5, R2: 5}}, true},
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
	var none *depScope
	_, ok := none.resolve("Rate", out, "Rate")
	assert.False(t, ok, "no scope resolves nothing")
}

// TestNewDepScopeNames: a defined name resolves to its cells only when its
// references are absolute and name their sheet; a relative one moves with
// the formula's cell and may read anything.
func TestNewDepScopeNames(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	defer f.Close()
	for name, refers := range map[string]string{"Abs": "Sheet1!$A$1:$A$3", "Rel": "Sheet1!A1", "Rate": "0.2"} {
		require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: refers}))
	}
	d := newDepScope(f)
	at := sheetArea{Sheet: "Sheet1", C1: 5, R1: 5, C2: 5, R2: 5}
	got, ok := d.resolve("Abs", at, "SUM(Abs)")
	assert.True(t, ok)
	assert.Equal(t, []sheetArea{{Sheet: "Sheet1", C1: 1, R1: 1, C2: 1, R2: 3}}, got)
	_, ok = d.resolve("Rel", at, "Rel*2")
	assert.False(t, ok, "a relative name is wide")
	got, ok = d.resolve("Rate", at, "Rate*2")
	assert.True(t, ok, "a constant reads no cell")
	assert.Empty(t, got)
}
