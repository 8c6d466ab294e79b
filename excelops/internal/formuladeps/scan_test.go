package formuladeps

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

func TestScan(t *testing.T) {
	full := excelize.TotalRows
	for _, c := range []struct {
		formula string
		want    []cellarea.Area
		wide    bool
	}{
		{"A1*2+$B$3", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "S", C1: 2, R1: 3, C2: 2, R2: 3}}, false},
		{"SUM(B2:A1)", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 2, R2: 2}}, false},
		{"SUM(C:C)+SUM(2:3)", []cellarea.Area{{Sheet: "S", C1: 3, R1: 1, C2: 3, R2: full}, {Sheet: "S", C1: 1, R1: 2, C2: excelize.MaxColumns, R2: 3}}, false},
		{"'Q1 ''Plan'' v1'!A1+Sheet2!$A$1:B2", []cellarea.Area{{Sheet: "Q1 'Plan' v1", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "Sheet2", C1: 1, R1: 1, C2: 2, R2: 2}}, false},
		{`IF(A1>0,"A2",B1)`, []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "S", C1: 2, R1: 1, C2: 2, R2: 1}}, false},
		{"Total*2", nil, true},               // a defined name
		{"SUM(Sheet1:Sheet3!A1)", nil, true}, // 3-D
		{"SUM(Table1[Qty])", nil, true},      // structured
		{"[1]Sheet1!A1", nil, true},          // external
		{"OFFSET(A1,1,0)", nil, true},        // reads what it computes
		{"NOW()", nil, true},                 // volatile
		{"_xlfn.XLOOKUP(A1,B:B,C:C)", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}, {Sheet: "S", C1: 2, R1: 1, C2: 2, R2: full}, {Sheet: "S", C1: 3, R1: 1, C2: 3, R2: full}}, false},
		{"_xlfn.ANCHORARRAY(C3)", nil, true}, // a spill reference, no anchors known
		// The names a LET or LAMBDA binds read nothing, where it binds them.
		{"_xlfn.LET(_xlpm.x,A1*2,_xlpm.x+1)", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(x,A1*2,x+1)", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 3}}, false},
		{"_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*_xlpm.b)(A1, 5)", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(f, LAMBDA(n, n*B1), f(A1))", []cellarea.Area{{Sheet: "S", C1: 2, R1: 1, C2: 2, R2: 1}, {Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(x,1,MAP(A1:A2,LAMBDA(v,v+x)))", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 2}}, false},
		{"LET(x,1,y,x+A1,LET(x,x+y,x))", []cellarea.Area{{Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"LET(x,2,x)+x", nil, true},             // outside its LET, x is a defined name
		{"LET(x,x+1,x)", nil, true},             // in its own value too
		{"LAMBDA(x,x)(x)", nil, true},           // and in the arguments of the call
		{"LAMBDA(x,x*2)+LET(y,1,x)", nil, true}, // another LET binds y, not x
	} {
		got, wide := ScanSheet(c.formula, "S")
		assert.Equal(t, c.wide, wide, c.formula)
		if !c.wide {
			assert.Equal(t, c.want, got, c.formula)
		}
	}
}

// TestScanSpillReferences: a spill reference reads its anchor and
// the spill range recorded for it (the anchor alone when it anchors none);
// it is wide when its argument is not one cell, or when the anchors are
// not known.
func TestScanSpillReferences(t *testing.T) {
	spills := &Scope{}
	spills.SetSpills(func(a cellarea.Area) (cellarea.Area, bool) {
		if a == (cellarea.Area{Sheet: "S", C1: 3, R1: 3, C2: 3, R2: 3}) {
			return cellarea.Area{Sheet: "S", C1: 3, R1: 3, C2: 4, R2: 5}, true
		}
		return a, true
	})
	at := cellarea.Area{Sheet: "S", C1: 9, R1: 9, C2: 9, R2: 9}
	for _, c := range []struct {
		formula string
		scope   *Scope
		want    []cellarea.Area
		wide    bool
	}{
		{"SUM(_xlfn.ANCHORARRAY(C3))", spills, []cellarea.Area{{Sheet: "S", C1: 3, R1: 3, C2: 4, R2: 5}, {Sheet: "S", C1: 3, R1: 3, C2: 3, R2: 3}}, false},
		{"ROWS(_xlfn.ANCHORARRAY($C$3 ))*A1", spills, []cellarea.Area{{Sheet: "S", C1: 3, R1: 3, C2: 4, R2: 5}, {Sheet: "S", C1: 3, R1: 3, C2: 3, R2: 3}, {Sheet: "S", C1: 1, R1: 1, C2: 1, R2: 1}}, false},
		{"_xlfn.ANCHORARRAY(Data!B2)", spills, []cellarea.Area{{Sheet: "Data", C1: 2, R1: 2, C2: 2, R2: 2}, {Sheet: "Data", C1: 2, R1: 2, C2: 2, R2: 2}}, false},
		{"_xlfn.ANCHORARRAY(C3:C4)", spills, nil, true},
		{"_xlfn.ANCHORARRAY(Total)", spills, nil, true},
		{"_xlfn.ANCHORARRAY(INDEX(A:A,2))", spills, nil, true},
		{"_xlfn.ANCHORARRAY(C3)", &Scope{}, nil, true},
		{"_xlfn.ANCHORARRAY(C3)", nil, nil, true},
	} {
		got, wide := Scan(c.formula, at, c.scope)
		assert.Equal(t, c.wide, wide, c.formula)
		assert.Equal(t, c.want, got, c.formula)
	}
}
