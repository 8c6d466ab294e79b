package excelize

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/xuri/efp"
)

// indexAreaBook is the sheet of the oracle case intersection_index_area
// (tests/oracle/cases_intersection.py) after its write of 7 to A5: A1:A10
// the squares with A5 7, B1:B10 10, 20 ... 100, C1:C10 t1..t10.
func indexAreaBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	for i := 1; i <= 10; i++ {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i), i*i))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i), i*10))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("C%d", i), fmt.Sprintf("t%d", i)))
	}
	require.NoError(t, f.SetCellValue("Sheet1", "A5", 7))
	return f
}

// TestIndexAreaPlain: INDEX with a row or column of 0 in a plain formula
// (no array formula, no dynamic array metadata) returns the whole column,
// row or area as a reference, which the formula intersects with its own
// row or column (#VALUE! outside it), and which a function taking a range
// reads whole. The cells and values are LibreOffice 25.2's in the oracle
// case intersection_index_area.
func TestIndexAreaPlain(t *testing.T) {
	f := indexAreaBook(t)
	cases := []struct{ cell, formula, want string }{
		{"E5", "INDEX(A1:A10,0)", "7"},                  // a row inside the column: A5
		{"E12", "INDEX(A1:A10,0)", "#VALUE!"},           // a row outside it
		{"E8", "INDEX(A1:A10,0,1)", "64"},               // column 1 of a column
		{"G3", "INDEX(A:A,0)", "9"},                     // a whole sheet column
		{"E2", "INDEX(A1:C3,0,2)", "20"},                // column 2 of a block: B2
		{"E4", "INDEX(A1:C3,0,2)", "#VALUE!"},           // row 4, outside B1:B3
		{"F10", "INDEX(A1:C10,0,2)", "100"},             // B10
		{"G2", "INDEX(A1:C3,,2)", "20"},                 // an empty row number is 0
		{"B12", "INDEX(A1:C1,1,0)", "10"},               // a row: the cell in the formula's column, B1
		{"D12", "INDEX(A1:C1,1,0)", "#VALUE!"},          // column D, outside A1:C1
		{"C12", "INDEX(A1:C3,2,0)", "t2"},               // row 2 of a block: C2
		{"B13", "INDEX(A1:C1,0)", "10"},                 // a one-row range: the one number is the column
		{"A14", "INDEX(A1:C3,2)", "4"},                  // a block with a row alone: the whole row A2:C2
		{"B14", "INDEX(A1:C3,2)", "20"},                 // ... in column B: B2
		{"E3", "INDEX(A1:C3,0,0)", "#VALUE!"},           // the whole block, column E outside it
		{"E9", "INDEX({1;2;3},0)", "1"},                 // an array, not a reference: its first value
		{"F6", "INDEX({1,2;3,4},0,2)", "2"},             // column 2 of an array: its first value
		{"E10", "INDEX(A1:A10,0)*2", "200"},             // under an operator: intersected, A10*2
		{"F2", "INDEX(A1:C3,0,2)*2", "40"},              // B2*2
		{"G8", "LEN(INDEX(C1:C10,0))", "2"},             // in a lifted function: LEN(C8)
		{"F9", "IF(TRUE,INDEX(A1:A10,0))", "81"},        // as IF's result: A9
		{"E6", "SUM(INDEX(A1:C3,0,2))", "60"},           // a range argument: the whole column B1:B3
		{"E7", "SUM(INDEX(A1:C3,0,0))", "74"},           // the whole block, text left out
		{"H7", "SUM(INDEX(A1:C3,0))", "74"},             // two arguments on a block, row 0: the block
		{"F7", "SUMPRODUCT(INDEX(A1:C3,0,2)*2)", "120"}, // SUMPRODUCT takes the array whole
		{"F14", `COUNTIF(INDEX(A1:C3,0,2),">15")`, "2"}, // a range argument of COUNTIF
		{"E1", "ROWS(INDEX(A1:C3,0,2))", "3"},
		{"H1", "ROWS(INDEX(A1:C3,0))", "3"},
		{"H2", "COLUMNS(INDEX(A1:C3,0))", "3"},
		{"H3", "COLUMNS(INDEX(A1:C3,2))", "3"},
		{"H6", "COLUMNS(INDEX(A1:C1,0))", "3"},
		{"H10", "COLUMNS(INDEX(A1:C3,,2))", "1"},
		{"H18", "INDEX(A1:C3,0,4)", "#REF!"}, // no column 4
		{"H20", "INDEX(A1:A10,0,2)", "#REF!"},
	}
	for _, c := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", c.cell, c.formula))
	}
	for _, c := range cases {
		got, _ := f.CalcCellValue("Sheet1", c.cell)
		assert.Equal(t, c.want, got, "%s =%s", c.cell, c.formula)
	}
}

// TestIndexAreaArray: computed as an array formula (CalcCellArray, a
// dynamic array formula write_cells spills), INDEX with a row or column of
// 0 is the whole column, row or area, not intersected; inside SUM the
// operator applies to the whole column. The values are LibreOffice 25.2's
// in the oracle case spill_index_area (tests/oracle/cases_spill.py).
func TestIndexAreaArray(t *testing.T) {
	f := indexAreaBook(t)
	cases := []struct{ cell, formula, want string }{
		{"E12", "INDEX(A1:A10,0)", "1;4;9;16;7;36;49;64;81;100"},
		{"E12", "INDEX(A1:C3,0,2)", "10;20;30"},
		{"E12", "INDEX(A1:C3,2,0)", "4,20,t2"},
		{"E12", "INDEX(A1:C1,0)", "1,10,t1"},
		{"E12", "INDEX(A1:B2,0,0)", "1,10;4,20"},
		{"E12", "INDEX(A1:C3,2)", "4,20,t2"},
		{"E12", "INDEX(A1:C3,0,2)*2", "20;40;60"},
		{"E12", "SUM(INDEX(A1:C3,0,2)*2)", "120"},
		{"E12", "SUM(INDEX(A1:C3,0,2))", "60"},
		{"E12", "INDEX(A1:C3,3,2)", "30"},
		{"E12", "INDEX({1,2;3,4},0,2)", "2;4"}, // Microsoft's INDEX page: {2;4}
	}
	for _, c := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", c.cell, c.formula))
		arr, err := f.CalcCellArray(t.Context(), "Sheet1", c.cell, CalcLimits{})
		require.NoError(t, err, c.formula)
		assert.Equal(t, c.want, arrayText(arr), c.formula)
	}
}

// TestAreaIndexCalls: which calls of INDEX return several cells as written.
func TestAreaIndexCalls(t *testing.T) {
	cases := []struct {
		formula string
		want    []string // the calls, as their first arguments
	}{
		{"INDEX(A1:A10,0)", []string{"A1:A10"}},
		{"INDEX(A1:C3,0,2)", []string{"A1:C3"}},
		{"INDEX(A1:C3,2,0)", []string{"A1:C3"}},
		{"INDEX(A1:C3,,2)", []string{"A1:C3"}},
		{"INDEX(A1:C3,2,)", []string{"A1:C3"}},
		{"INDEX(A1:C3, 0 ,2)", []string{"A1:C3"}},
		{"INDEX(A1:C3,0.0,2)", []string{"A1:C3"}},
		{"INDEX(A1:C3,2)", []string{"A1:C3"}}, // a block with a row alone: the row
		{"INDEX(Sheet2!$A$1:$C$3,2)", []string{"Sheet2!$A$1:$C$3"}},
		{"INDEX(A:C,2)", []string{"A:C"}},
		{"INDEX(1:3,2)", []string{"1:3"}},
		{"SUM(INDEX(A1:C3,0,2))*INDEX(B1:B3,0)", []string{"A1:C3", "B1:B3"}},
		{"INDEX(INDEX(A1:C3,0,0),0,2)", []string{"", "A1:C3"}}, // the outer call first
		{"_xlfn.SINGLE(INDEX(A1:A10,0))", []string{"A1:A10"}},
		{"INDEX(A1:A10,2)", nil}, // one column: a cell
		{"INDEX(A:A,2)", nil},
		{"INDEX(A1:C3,2,3)", nil},
		{"INDEX(A1:C3,B1,2)", nil}, // a number computed: not seen
		{"INDEX(A1:C3,B1-B1,2)", nil},
		{"INDEX(Data,2)", nil}, // a name: its shape is not seen
		{"MATCH(0,A1:A3,0)", nil},
		{"SUM(A1:A3,0)", nil},
	}
	for _, c := range cases {
		ps := efp.ExcelParser()
		tokens := ps.Parse("=" + c.formula)
		var got []string
		for _, call := range AreaIndexCalls(tokens) {
			assert.True(t, isFunctionStartToken(tokens[call[0]]) && strings.EqualFold(tokens[call[0]].TValue, "INDEX"), c.formula)
			assert.True(t, isFunctionStopToken(tokens[call[1]]), c.formula)
			first := tokens[call[0]+1]
			if first.TType == efp.TokenTypeFunction {
				first.TValue = ""
			}
			got = append(got, first.TValue)
		}
		assert.Equal(t, c.want, got, c.formula)
	}
}

// TestIndexComputedPlain: INDEX whose row or column is computed (a cell,
// MATCH(...)-2) in a plain formula: computed to 0 (J1 blank, J2 0) it is
// the whole column or row, intersected with the formula's row or column as
// a literal 0 is; computed to 2 it is one cell. Under an operator inside
// SUM, where Excel and LibreOffice intersect it and the engine would take
// the column whole, the calculation stops with ErrInexactIntersection
// (no value), as does one reading that cell; with one cell there it is
// computed. The cells and values are LibreOffice 25.2's in the oracle case
// intersection_index_computed (tests/oracle/cases_intersection.py).
func TestIndexComputedPlain(t *testing.T) {
	f := indexAreaBook(t)
	require.NoError(t, f.SetCellValue("Sheet1", "J2", 0))
	require.NoError(t, f.SetCellValue("Sheet1", "J3", 2))
	cases := []struct{ cell, formula, want string }{
		{"E2", "INDEX(A1:C3,J1,2)", "20"},                                   // J1 blank: column B, row 2
		{"E3", "INDEX(A1:C3,J2,2)", "30"},                                   // J2 0: B3
		{"E4", "INDEX(A1:C3,J2,2)", "#VALUE!"},                              // row 4, outside B1:B3
		{"E13", "INDEX(A1:C3,J2,2)", "#VALUE!"},                             // row 13
		{"E1", "INDEX(A1:C3,J3,2)", "20"},                                   // J3 2: the one cell B2
		{"E12", "INDEX(A1:C3,J3,2)", "20"},                                  // ... in any row
		{"F2", "INDEX(A1:C3,MATCH(4,A1:A3,0)-2,2)", "20"},                   // MATCH(...)-2 is 0
		{"F3", "INDEX(A1:C3,MATCH(4,A1:A3,0)-1,2)*2", "20"},                 // -1 is 1: B1*2
		{"F1", "SUM(INDEX(A1:C3,J2,2))", "60"},                              // a range argument: the whole column
		{"F4", "SUM(INDEX(A1:C3,J3,2)*2)", "40"},                            // one cell under the operator
		{"G3", "SUMPRODUCT(INDEX(A1:C3,J2,2)*2)", "120"},                    // SUMPRODUCT takes it whole
		{"G4", "LEN(INDEX(C1:C10,J1))", "2"},                                // LEN(C4)
		{"B13", "INDEX(A1:C3,2,J1)", "20"},                                  // row 2, column B: B2
		{"D13", "INDEX(A1:C3,2,J2)", "#VALUE!"},                             // column D, outside A2:C2
		{"H5", "IF(TRUE,INDEX(A1:A10,J2))", "7"},                            // A5
		{"E7", `IFERROR(INDEX(A1:A10,MATCH(999,A1:A10,0)),"none")`, "none"}, // an error passes through
		{"H7", `COUNTIF(INDEX(A1:C3,J2,2),">15")`, "2"},
		{"H8", "ROWS(INDEX(A1:C3,J1,2))", "3"},
		{"H9", "E3+E1", "50"},
		{"G2", "SUM(INDEX(A1:C3,J2,2)*2)", ""}, // LibreOffice 40 (B2*2): no value
		{"H2", "G2+1", ""},                     // LibreOffice 41: no value either
	}
	for _, c := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", c.cell, c.formula))
	}
	for _, c := range cases {
		got, err := f.CalcCellValueContext(t.Context(), "Sheet1", c.cell, CalcLimits{})
		if c.want == "" {
			assert.ErrorIs(t, err, ErrInexactIntersection, "%s =%s", c.cell, c.formula)
		}
		assert.Equal(t, c.want, got, "%s =%s", c.cell, c.formula)
	}
}

// TestIndexComputedArray: computed as an array formula (CalcCellArray, a
// dynamic array formula write_cells spills), INDEX with a row computed to
// 0 is the whole column, nothing being intersected or stopped; computed to
// 2 one cell.
func TestIndexComputedArray(t *testing.T) {
	f := indexAreaBook(t)
	require.NoError(t, f.SetCellValue("Sheet1", "J2", 0))
	require.NoError(t, f.SetCellValue("Sheet1", "J3", 2))
	cases := []struct{ formula, want string }{
		{"INDEX(A1:C3,J1,2)", "10;20;30"},
		{"INDEX(A1:C3,J2,2)", "10;20;30"},
		{"INDEX(A1:C3,J3,2)", "20"},
		{"INDEX(A1:C3,2,J2)", "4,20,t2"},
		{"SUM(INDEX(A1:C3,J2,2)*2)", "120"},
	}
	for _, c := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", "E12", c.formula))
		arr, err := f.CalcCellArray(t.Context(), "Sheet1", "E12", CalcLimits{})
		require.NoError(t, err, c.formula)
		assert.Equal(t, c.want, arrayText(arr), c.formula)
	}
}

// TestComputedIndexCalls: which calls of INDEX return one cell or several
// as only run time tells: a row, column or area number not written out, or
// a reference that is not a range written out.
func TestComputedIndexCalls(t *testing.T) {
	cases := []struct {
		formula string
		want    int // calls listed
	}{
		{"INDEX(A1:C3,B1,2)", 1},
		{"INDEX(A1:C3,2,B1)", 1},
		{"INDEX(A1:C3,MATCH(5,B1:B3,0)-1,2)", 1},
		{"INDEX(A1:A10,B1)", 1},
		{"INDEX(Data,2)", 1}, // a name: its shape is not seen
		{"INDEX(A1:C3,B1,C1)+INDEX(A:A,D1)", 2},
		{"INDEX(INDEX(A1:C3,B1,0),C1)", 1}, // the inner call is an area as written
		{"INDEX(A1:C3,2,3)", 0},            // numbers written out: one cell
		{"INDEX(Sheet2!$A$1:$C$3,2,3)", 0},
		{"INDEX(A1:A10,2)", 0},
		{"INDEX(A1:C3,0,2)", 0}, // an area as written (AreaIndexCalls)
		{"INDEX(A1:C3,2)", 0},
		{"SUM(B1:B3)", 0},
	}
	for _, c := range cases {
		ps := efp.ExcelParser()
		assert.Len(t, computedIndexCalls(ps.Parse("="+c.formula)), c.want, c.formula)
	}
}

// TestIndexAreaNum: INDEX's reference form with area_num on a reference
// of one range: area 1 (a fraction truncated) is the range, another
// number #REF!, a text #VALUE!. A union of ranges stops a bounded
// calculation (ErrUnionReference), as does a formula reading it. The
// values are LibreOffice 25.2's in the oracle case index_area_num
// (tests/oracle/cases_intersection.py).
func TestIndexAreaNum(t *testing.T) {
	f := indexAreaBook(t)
	for r := 1; r <= 3; r++ {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("D%d", r), r*10+4))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("E%d", r), r*10+5))
	}
	cases := []struct{ cell, formula, want string }{
		{"G1", "INDEX(A1:C3,2,2,1)", "20"},
		{"G2", "INDEX(A1:C3,2,2,2)", "#REF!"},
		{"G3", "INDEX(A1:C3,2,3,1.7)", "t2"},
		{"G4", `INDEX(A1:C3,2,2,"x")`, "#VALUE!"},
		{"G5", "INDEX(A1:C3,1,1,0)", "#REF!"},
		{"G6", "INDEX((A1:B2,D1:E3),2,2,2)", ""}, // LibreOffice 25: E2
		{"G7", "SUM((A1:B2,D1:E3))", ""},         // LibreOffice 182
		{"G8", "INDEX((A1:B2,D1:E3),1,1,1)+1", ""},
		{"G9", "G6*2", ""},
	}
	for _, c := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", c.cell, c.formula))
	}
	for _, c := range cases {
		got, err := f.CalcCellValueContext(t.Context(), "Sheet1", c.cell, CalcLimits{})
		if c.want == "" {
			assert.ErrorIs(t, err, ErrUnionReference, "%s =%s", c.cell, c.formula)
		}
		assert.Equal(t, c.want, got, "%s =%s", c.cell, c.formula)
	}
	arr, err := f.CalcCellArray(t.Context(), "Sheet1", "G7", CalcLimits{})
	assert.ErrorIs(t, err, ErrUnionReference, "as an array formula too")
	assert.Nil(t, arr)
}
