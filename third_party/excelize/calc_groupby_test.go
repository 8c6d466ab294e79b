// registry-sidecar: tests of GROUPBY and PIVOTBY (calc_groupby.go,
// calc_pivotby.go, calc_group_data.go) and of eta LAMBDAs
// (calc_lambda_eta.go). Run them with go test ./third_party/excelize -run
// GroupBy.

package excelize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// groupBook is a small sales table with headers in row 1: A region, B
// product, C units, D price, E a filter column; G1:H1 sort orders.
func groupBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	rows := [][]any{
		{"Region", "Product", "Units", "Price", "Keep", "", 1, -2},
		{"West", "Pens", 4, 2.5, true},
		{"East", "Ink", 1, 10, true},
		{"West", "Ink", 3, 12, false},
		{"east", "Pens", 6, 2, true},
		{"North", "Pens", 2, 3, true},
		{"West", "Pens", 5, 2.5, true},
	}
	for r, row := range rows {
		cell, err := CoordinatesToCellName(1, r+1)
		require.NoError(t, err)
		require.NoError(t, f.SetSheetRow("Sheet1", cell, &row))
	}
	return f
}

// TestGroupByGroupBy checks GROUPBY on groupBook, each want worked out by
// hand from the table: Units by region are East 1+6=7 ("East" and "east"
// are one group, spelt as first seen), North 2, West 4+3+5=12, in all 21;
// Price maxima East 10, North 3, West 12; Units averages East 3.5, North 2,
// West 4, in all 3.5. The forms follow Microsoft's GROUPBY page: headers
// detected when the values start with text over a number and shown with
// several row fields, totals at the bottom (negative depth: top),
// subtotals for a hierarchy, sort_order by result column (negative:
// descending), filter_array, and a function written bare (eta LAMBDA),
// with its file prefix _xleta., or as a LAMBDA.
func TestGroupByGroupBy(t *testing.T) {
	checkArrays(t, groupBook(t), []struct{ formula, want string }{
		{"GROUPBY(A2:A7,C2:C7,SUM)", "East,7;North,2;West,12;Total,21"},
		{"_xlfn.GROUPBY(A2:A7,C2:C7,_xleta.SUM)", "East,7;North,2;West,12;Total,21"},
		{"GROUPBY(A1:A7,C1:C7,SUM)", "East,7;North,2;West,12;Total,21"},
		{"GROUPBY(A1:A7,C1:C7,SUM,3)", "Region,Units;East,7;North,2;West,12;Total,21"},
		{"GROUPBY(A1:A7,C1:C7,SUM,1,0)", "East,7;North,2;West,12"},
		{"GROUPBY(A2:A7,C2:C7,SUM,0,-1)", "Total,21;East,7;North,2;West,12"},
		{"GROUPBY(A2:A7,C2:C7,SUM,0,1,-1)", "West,12;North,2;East,7;Total,21"},
		{"GROUPBY(A2:A7,C2:C7,SUM,0,1,2)", "North,2;East,7;West,12;Total,21"},
		{"GROUPBY(A2:A7,C2:C7,SUM,0,0,-2)", "West,12;East,7;North,2"},
		{"GROUPBY(A2:A7,C2:C7,_xleta.AVERAGE,,,-2)", "West,4;East,3.5;North,2;Total,3.5"},
		{"GROUPBY(A2:A7,C2:D7,LAMBDA(x,MAX(x)))", "East,6,10;North,2,3;West,5,12;Total,6,12"},
		{"GROUPBY(A2:A7,C2:C7,COUNT)", "East,2;North,1;West,3;Total,6"},
		{"GROUPBY(A2:A7,B2:B7,COUNTA)", "East,2;North,1;West,3;Total,6"},
		{"GROUPBY(A2:A7,C2:C7,SUM,0,1,1,E2:E7)", "East,7;North,2;West,9;Total,18"},
		{"GROUPBY(A1:A7,C1:C7,SUM,,,,E1:E7)", "East,7;North,2;West,9;Total,18"},
		{"GROUPBY(A2:A7,C2:C7,PERCENTOF)", "East,0.333333333333333;North,0.0952380952380952;West,0.571428571428571;Total,1"},
		// Several row fields: a hierarchy with subtotals (Excel's default),
		// at the top with -2, none with 1, or a table of the pairs.
		{"GROUPBY(A1:B7,C1:C7,SUM)", "Region,Product,Units;East,Ink,1;East,Pens,6;East,,7;North,Pens,2;North,,2;West,Ink,3;West,Pens,9;West,,12;Total,,21"},
		{"GROUPBY(A2:B7,C2:C7,SUM,0,-2)", "Total,,21;East,,7;East,Ink,1;East,Pens,6;North,,2;North,Pens,2;West,,12;West,Ink,3;West,Pens,9"},
		{"GROUPBY(A2:B7,C2:C7,SUM,0,1,G1:H1)", "East,Pens,6;East,Ink,1;North,Pens,2;West,Pens,9;West,Ink,3;Total,,21"},
		{"GROUPBY(A2:B7,C2:C7,SUM,0,1,3,,1)", "East,Ink,1;North,Pens,2;West,Ink,3;East,Pens,6;West,Pens,9;Total,,21"},
		// Errors Excel gives for bad arguments.
		{"GROUPBY(A2:A7,C2:C6,SUM)", "#VALUE!"},
		{"GROUPBY(A2:A7,C2:C7,\"SUM\")", "#VALUE!"},
		{"GROUPBY(A2:A7,C2:C7,SUM,0,1,3)", "#VALUE!"},
		{"GROUPBY(A2:A7,C2:C7,SUM,5)", "#VALUE!"},
		{"GROUPBY(A2:A3,C2:C3,SUM,0,1,1,{FALSE;FALSE})", "#CALC!"},
		// Forms not computed: several functions, generated headers,
		// sorting a hierarchy by its values, a wrong argument count.
		{"GROUPBY(A2:A7,C2:C7,HSTACK(SUM,AVERAGE))", uncomputed},
		{"GROUPBY(A2:A7,C2:C7,SUM,2)", uncomputed},
		{"GROUPBY(A2:B7,C2:C7,SUM,0,1,3)", uncomputed},
		{"GROUPBY(A2:A7,C2:C7)", uncomputed},
	})
}

// TestGroupByPivotBy checks PIVOTBY on groupBook, each want worked out by
// hand: Units by region and product are East/Ink 1, East/Pens 6,
// North/Pens 2, West/Ink 3, West/Pens 4+5=9; intersections without data
// are blank; totals by row, by column and in all (21); PERCENTOF relative
// to column totals (Ink 1/4, Pens 6/17...) or, with the filter leaving out
// West/Ink, to the grand total of 18.
func TestGroupByPivotBy(t *testing.T) {
	checkArrays(t, groupBook(t), []struct{ formula, want string }{
		{"PIVOTBY(A2:A7,B2:B7,C2:C7,SUM)", ",Ink,Pens,Total;East,1,6,7;North,,2,2;West,3,9,12;Total,4,17,21"},
		{"_xlfn.PIVOTBY(A1:A7,B1:B7,C1:C7,_xleta.SUM)", ",Ink,Pens,Total;East,1,6,7;North,,2,2;West,3,9,12;Total,4,17,21"},
		{"PIVOTBY(A1:A7,B1:B7,C1:C7,COUNT,,-1,-1,0)", ",Ink,Pens;Total,2,4;West,1,2;North,,1;East,1,1"},
		{"PIVOTBY(A2:A7,B2:B7,C2:C7,SUM,0,0,1,-1,-1)", ",Total,Pens,Ink;East,7,6,1;North,2,2,;West,12,9,3"},
		{"PIVOTBY(A2:A7,B2:B7,C2:C7,PERCENTOF)", ",Ink,Pens,Total;East,0.25,0.352941176470588,0.333333333333333;North,,0.117647058823529,0.0952380952380952;West,0.75,0.529411764705882,0.571428571428571;Total,1,1,1"},
		{"PIVOTBY(A2:A7,B2:B7,C2:C7,PERCENTOF,,,,,,E2:E7,2)", ",Ink,Pens,Total;East,0.0555555555555556,0.333333333333333,0.388888888888889;North,,0.111111111111111,0.111111111111111;West,,0.5,0.5;Total,0.0555555555555556,0.944444444444444,1"},
		{"PIVOTBY(A2:A7,B2:B7,C2:C6,SUM)", "#VALUE!"},
		{"PIVOTBY(A2:A7,B2:B7,C2:C7,SUM,0,1,1,1,1,E2:E7,7)", "#VALUE!"},
		{"PIVOTBY(A2:A7,B2:B7,C2:D7,SUM)", uncomputed},
		{"PIVOTBY(A2:B7,B2:B7,C2:C7,SUM)", uncomputed},
		{"PIVOTBY(A1:A7,B1:B7,C1:C7,SUM,3)", uncomputed},
	})
}

// TestGroupByEtaLambda checks a function written bare where Excel takes a
// LAMBDA (BYROW(C2:D3,SUM) is BYROW(C2:D3,LAMBDA(x,SUM(x)))): the rows of
// C2:D3 sum to 4+2.5=6.5 and 1+10=11. A bare name that is a cell (LOG10)
// or a defined name stays what it is.
func TestGroupByEtaLambda(t *testing.T) {
	f := groupBook(t)
	require.NoError(t, f.SetDefinedName(&DefinedName{Name: "MAX", RefersTo: "Sheet1!$C$2:$C$3"}))
	checkArrays(t, f, []struct{ formula, want string }{
		{"BYROW(C2:D3,SUM)", "6.5;11"},
		{"BYCOL(C2:D3,_xleta.MAX)", "4,10"},
		{"MAP(C2:C3,ABS)", "4;1"},
		{"SUM(MAX)", "5"},
		{"BYROW(C2:D3,LOG10)", "#VALUE!"},
	})
}
