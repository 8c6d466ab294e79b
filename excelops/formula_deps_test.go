package excelops

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFormulaDeps(t *testing.T) {
	full := excelize.TotalRows
	for _, c := range []struct {
		formula string
		want    []sheetArea
		wide    bool
	}{
		{"A1*2+$B$3", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "S", C1: 2, R1: 3, C2: 2, R2: 3}}, false},
		{"SUM(B2:A1)", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 2, R2: 2}}, false},
		{"SUM(C:C)+SUM(2:3)", []sheetArea{{Sheet: "S", C1: 3, R1: 1, C2: 3, R2: full}, {Sheet: "S", C1: 1, R1: 2, C2: excelize.MaxColumns, R2: 3}}, false},
		{"'Q1 ''Plan'' v1'!A1+Sheet2!$A$1:B2", []sheetArea{{Sheet: "Q1 'Plan' v1", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "Sheet2", C1: 1, R1: 1, C2: 2, R2: 2}}, false},
		{`IF(A1>0,"A2",B1)`, []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "S", C1: 2, R1: 1, C2: 2, R2: 1}}, false},
		{"Total*2", nil, true},               // a defined name
		{"SUM(Sheet1:Sheet3!A1)", nil, true}, // 3-D
		{"SUM(Table1[Qty])", nil, true},      // structured
		{"[1]Sheet1!A1", nil, true},          // external
		{"OFFSET(A1,1,0)", nil, true},        // reads what it computes
		{"NOW()", nil, true},                 // volatile
		{"_xlfn.XLOOKUP(A1,B:B,C:C)", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "S", C1: 2, R1: 1, C2: 2, R2: full}, {Sheet: "S", C1: 3, R1: 1, C2: 3, R2: full}}, false},
		{"_xlfn.ANCHORARRAY(C3)", nil, true}, // a spill reference, no anchors known
		// The names a LET or LAMBDA binds read nothing, where it binds them.
		{"_xlfn.LET(_xlpm.x,A1*2,_xlpm.x+1)", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(x,A1*2,x+1)", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 3}}, false},
		{"_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*_xlpm.b)(A1, 5)", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(f, LAMBDA(n, n*B1), f(A1))", []sheetArea{{Sheet: "S", C1: 2, R1: 1, C2: 2, R2: 1}, {Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(x,1,MAP(A1:A2,LAMBDA(v,v+x)))", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 2}}, false},
		{"LET(x,1,y,x+A1,LET(x,x+y,x))", []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(x,2,x)+x", nil, true},             // outside its LET, x is a defined name
		{"LET(x,x+1,x)", nil, true},             // in its own value too
		{"LAMBDA(x,x)(x)", nil, true},           // and in the arguments of the call
		{"LAMBDA(x,x*2)+LET(y,1,x)", nil, true}, // another LET binds y, not x
	} {
		got, wide := formulaDeps(c.formula, "S")
		assert.Equal(t, c.wide, wide, c.formula)
		if !c.wide {
			assert.Equal(t, c.want, got, c.formula)
		}
	}
}

// TestFormulaDepsSpillReferences: a spill reference reads its anchor and
// the spill range recorded for it (the anchor alone when it anchors none);
// it is wide when its argument is not one cell, or when the anchors are
// not known.
func TestFormulaDepsSpillReferences(t *testing.T) {
	spills := &depScope{spillOf: func(a sheetArea) (sheetArea, bool) {
		if a == (sheetArea{Sheet: "S", C1: 3, R1: 3, C2: 3, R2: 3}) {
			return sheetArea{Sheet: "S", C1: 3, R1: 3, C2: 4, R2: 5}, true
		}
		return a, true
	}}
	at := sheetArea{Sheet: "S", C1: 9, R1: 9, C2: 9, R2: 9}
	for _, c := range []struct {
		formula string
		scope   *depScope
		want    []sheetArea
		wide    bool
	}{
		{"SUM(_xlfn.ANCHORARRAY(C3))", spills, []sheetArea{{Sheet: "S", C1: 3, R1: 3, C2: 4, R2: 5}, {Sheet: "S", C1: 3, R1: 3, C2: 3, R2: 3}}, false},
		{"ROWS(_xlfn.ANCHORARRAY($C$3 ))*A1", spills, []sheetArea{{Sheet: "S", C1: 3, R1: 3, C2: 4, R2: 5}, {Sheet: "S", C1: 3, R1: 3, C2: 3, R2: 3}, {Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"_xlfn.ANCHORARRAY(Data!B2)", spills, []sheetArea{{Sheet: "Data", C1: 2, R1: 2, C2: 2, R2: 2}, {Sheet: "Data", C1: 2, R1: 2, C2: 2, R2: 2}}, false},
		{"_xlfn.ANCHORARRAY(C3:C4)", spills, nil, true},
		{"_xlfn.ANCHORARRAY(Total)", spills, nil, true},
		{"_xlfn.ANCHORARRAY(INDEX(A:A,2))", spills, nil, true},
		{"_xlfn.ANCHORARRAY(C3)", &depScope{}, nil, true},
		{"_xlfn.ANCHORARRAY(C3)", nil, nil, true},
	} {
		got, wide := formulaDepsIn(c.formula, at, c.scope)
		assert.Equal(t, c.wide, wide, c.formula)
		assert.Equal(t, c.want, got, c.formula)
	}
}

func TestDirtyFormulas(t *testing.T) {
	cell := func(sheet string, col, row int) sheetArea {
		return sheetArea{Sheet: sheet, C1: col, R1: row, C2: col, R2: row}
	}
	cells := []depCell{
		{at: cell("Report", 1, 1), deps: []sheetArea{cell("inputs", 1, 1)}},                          // reads the edit (names compare case-insensitively)
		{at: cell("Deep", 1, 1), deps: []sheetArea{cell("Report", 1, 1)}},                            // reads a dirty formula
		{at: cell("Report", 2, 1), deps: []sheetArea{cell("Inputs", 2, 1)}},                          // unrelated
		{at: cell("Inputs", 1, 1), deps: []sheetArea{cell("Inputs", 9, 9)}},                          // overwritten by the edit
		{at: cell("Other", 1, 1), wide: true},                                                        // may read anything
		{at: cell("Inputs", 3, 1), deps: []sheetArea{{Sheet: "Inputs", C1: 1, R1: 1, C2: 1, R2: 5}}}, // a range holding the edit
	}
	got := dirtyFormulas(cells, []sheetArea{cell("Inputs", 1, 1)}, true)
	assert.Equal(t, []bool{true, true, false, true, true, true}, got)
	assert.Equal(t, []bool{false, false, false, false, false, false}, dirtyFormulas(cells, nil, true))
}

func TestDirtyFormulasLongChainFallsBackToAll(t *testing.T) {
	// B_r reads B_(r-1): each round adds one cell; the check budget ends it.
	n := 3000
	cells := make([]depCell, n)
	for r := 1; r <= n; r++ {
		cells[r-1] = depCell{at: sheetArea{Sheet: "S", C1: 2, R1: r, C2: 2, R2: r}, deps: []sheetArea{{Sheet: "S", C1: 2, R1: r - 1, C2: 2, R2: r - 1}}}
	}
	cells[0].deps = []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}
	unrelated := depCell{at: sheetArea{Sheet: "S", C1: 9, R1: 9, C2: 9, R2: 9}, deps: []sheetArea{{Sheet: "S", C1: 8, R1: 8, C2: 8, R2: 8}}}
	got := dirtyFormulas(append(cells, unrelated), []sheetArea{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, true)
	for i, d := range got[:n] {
		require.True(t, d, i)
	}
	assert.True(t, got[n], "past the budget everything counts as dirty")
}

func TestUnrelatedEditKeepsCachedValues(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "12"))
	require.NoError(t, f.SetCellValue("Sheet1", "B1", 12)) // WEBSERVICE: Excel's, not the engine's
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", `WEBSERVICE(A1)`))
	require.NoError(t, f.SetCellValue("Sheet1", "C1", 3))
	require.NoError(t, f.SetCellFormula("Sheet1", "C1", "D1*3"))
	require.NoError(t, f.SaveAs(e.path("u.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "u.xlsx", "cell": "D1", "value": 2})
	got := e.ok("read_excel", map[string]any{"file_path": "u.xlsx", "range": "B1:C1"})
	assert.Equal(t, []any{[]any{"12", 6.0}}, got["values"], "B1 does not read D1: its value stays")
	e.ok("write_cells", map[string]any{"file_path": "u.xlsx", "cell": "A1", "value": "13"})
	got = e.ok("read_excel", map[string]any{"file_path": "u.xlsx", "range": "B1:C1"})
	assert.Equal(t, []any{[]any{`=WEBSERVICE(A1)`, 6.0}}, got["values"], "B1 reads A1: its stale value goes")
}
