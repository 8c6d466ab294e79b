// registry-sidecar: tests of FILTER, SORT, TEXTSPLIT, WRAPROWS, WRAPCOLS
// and RANDARRAY (calc_array_filter.go, calc_array_text.go,
// calc_array_wrap.go). Run them with go test ./third_party/excelize -run
// ArraySelect.

package excelize

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// uncomputed is the want of a formula the calculator must leave without a
// value (an argument it cannot take as Excel would, or an argument count
// Excel refuses to enter).
const uncomputed = "(uncomputed)"

// selectBook is a sheet of mixed values: A1:A6 one of each type Excel
// sorts (A4 blank, A6 #DIV/0!), B1:C5 a table, D1:J5 include columns, L1:N1 sort orders,
// E7:G8 a table sorted by columns, K1:K3 texts to split, A10:G10 letters
// to wrap.
func selectBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	cells := map[string]any{
		"A1": 3, "A2": "pear", "A3": true, "A5": 1,
		"B1": "East", "B2": "west", "B3": "East", "B4": "North", "B5": "west",
		"C1": 5, "C2": 2, "C3": 1, "C4": 2, "C5": 7,
		"D1": true, "D2": false, "D3": 1, "D4": 0,
		"H1": false, "H2": false, "H3": false, "H4": false, "H5": false,
		"I1": true, "I2": false, "I3": "x", "I4": true, "I5": true,
		"J1": true, "J3": true, "J4": true, "J5": true,
		"L1": 1, "M1": -1, "N1": 1,
		"E7": 3, "F7": 1, "G7": 2, "E8": "c", "F8": "a", "G8": "b",
		"K1": "Do. Or do not. There is no try. -Anonymous", "K2": "1,2,3;4,5,6", "K3": "Dakota Lennon Sanchez",
	}
	for cell, v := range cells {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "A6", "1/0"))
	require.NoError(t, f.SetCellFormula("Sheet1", "J2", "NA()"))
	for i, s := range []string{"A", "B", "C", "D", "E", "F", "G"} {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("%c10", 'A'+i), s))
	}
	return f
}

// checkArrays computes each formula in Z1 with CalcCellArray and compares
// its whole result (arrayText), or checks it is left uncomputed.
func checkArrays(t *testing.T, f *File, cases []struct{ formula, want string }) {
	t.Helper()
	for _, tc := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.formula))
		got, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{})
		if tc.want == uncomputed {
			assert.Error(t, err, tc.formula)
			continue
		}
		require.NoError(t, err, tc.formula)
		assert.Equal(t, tc.want, arrayText(got), tc.formula)
	}
}

// TestArraySelectFilterSort checks FILTER and SORT: Excel's sort order
// across types (numbers, text ignoring case, logical values, errors, blanks
// last in both directions), stable sorts, several keys, by_col, and the
// errors Excel gives for bad arguments.
func TestArraySelectFilterSort(t *testing.T) {
	checkArrays(t, selectBook(t), []struct{ formula, want string }{
		{"FILTER(B1:C5,D1:D5)", "East,5;East,1"},
		{"_xlfn._xlws.FILTER(B1:C5,D1:D5)", "East,5;East,1"},
		{"FILTER(B1:B5,D1:D5)", "East;East"},
		{"FILTER(B1:C5,{1;0;0;0;1})", "East,5;west,7"},
		{"FILTER(B1:C2,{FALSE,TRUE})", "5;2"},
		{"FILTER(A1:A6,{1;1;1;1;1;1})", "3;pear;1;0;1;#DIV/0!"},
		{"FILTER(B1:C5,H1:H5)", "#CALC!"},
		{"FILTER(B1:C5,H1:H5,\"none\")", "none"},
		{"FILTER(B1:C5,H1:H5,0)", "0"},
		{"FILTER(B1:C5,D1:D4)", "#VALUE!"},
		{"FILTER(B1:C5,D1:E5)", "#VALUE!"},
		{"FILTER(B1:C5,I1:I5)", "#VALUE!"},
		{"FILTER(B1:C5,J1:J5)", "#N/A"},
		{"FILTER(A6,TRUE)", "#DIV/0!"},
		{"FILTER(B1:C5,TRUE)", uncomputed},
		{"FILTER(B1:C5,C1:C5>2)", "East,5;west,7"},
		{"FILTER(B1:C5,C1:C5>2,\"none\")", "East,5;west,7"},
		{"FILTER(B1:C5)", uncomputed},
		{"IFERROR(FILTER(B1:C5,TRUE),\"none\")", uncomputed},
		{"ISERROR(SORT(5))", uncomputed},

		{"SORT(A1:A6)", "1;3;pear;1;#DIV/0!;0"},
		{"SORT(A1:A6,1,-1)", "#DIV/0!;1;pear;3;1;0"},
		{"SORT(B1:C5)", "East,5;East,1;North,2;west,2;west,7"},
		{"_xlfn._xlws.SORT(B1:C5)", "East,5;East,1;North,2;west,2;west,7"},
		{"SORT(B1:C5,2,-1)", "west,7;East,5;west,2;North,2;East,1"},
		{"SORT(B1:C5,{1,2},L1:M1)", "East,5;East,1;North,2;west,7;west,2"},
		{"SORT(B1:C5,{1,2})", "East,1;East,5;North,2;west,2;west,7"},
		{"SORT(E7:G8,1,1,TRUE)", "1,2,3;a,b,c"},
		{"SORT(E7:G8,2,-1,TRUE)", "3,2,1;c,b,a"},
		{"SORT({3;1;2})", "1;2;3"},
		{"SORT({\"b\";\"\";1})", "1;;b"},
		{"SORT(A6)", "#DIV/0!"},
		{"SORT(B1:C5,3)", "#VALUE!"},
		{"SORT(B1:C5,0)", "#VALUE!"},
		{"SORT(B1:C5,1,2)", "#VALUE!"},
		{"SORT(B1:C5,\"x\")", "#VALUE!"},
		{"SORT(B1:C5,{1,2},L1:N1)", "#VALUE!"},
		{"SORT(B1:C5,1,1,\"x\")", "#VALUE!"},
		{"SORT(B1:C5,A6)", "#DIV/0!"},
		{"SORT(5)", uncomputed},
		{"SORT(B1:C5,1,1,TRUE,1)", uncomputed},
	})
}

// TestArraySelectTextSplit checks TEXTSPLIT against Microsoft's documented
// examples (the function's support page: K1, K2, K3 are its data) and the
// rules it states: consecutive delimiters give empty values unless
// ignore_empty, match_mode 1 ignores case, short rows are padded with
// pad_with (#N/A by default).
func TestArraySelectTextSplit(t *testing.T) {
	checkArrays(t, selectBook(t), []struct{ formula, want string }{
		{"TEXTSPLIT(K3,\" \")", "Dakota,Lennon,Sanchez"},
		{"TEXTSPLIT(K2,\",\",\";\")", "1,2,3;4,5,6"},
		{"TEXTSPLIT(K1,\".\")", "Do, Or do not, There is no try, -Anonymous"},
		{"TEXTSPLIT(K1,{\".\",\"-\"})", "Do, Or do not, There is no try, ,Anonymous"},
		{"TEXTSPLIT(K1,{\".\",\"-\"},\";\",FALSE)", "Do, Or do not, There is no try, ,Anonymous"},
		{"TEXTSPLIT(K1,\" \",\".\",TRUE)", "Do,#N/A,#N/A,#N/A;Or,do,not,#N/A;There,is,no,try;-Anonymous,#N/A,#N/A,#N/A"},
		{"TEXTSPLIT(K1,\" \",\".\")", "Do,#N/A,#N/A,#N/A,#N/A;,Or,do,not,#N/A;,There,is,no,try;,-Anonymous,#N/A,#N/A,#N/A"},
		{"TEXTSPLIT(\"1,2,3;4,5\",\",\",\";\")", "1,2,3;4,5,#N/A"},
		{"TEXTSPLIT(\"1,2,3;4,5\",\",\",\";\",FALSE,0,\"-\")", "1,2,3;4,5,-"},
		{"TEXTSPLIT(\"a,,b\",\",\")", "a,,b"},
		{"TEXTSPLIT(\"a,,b;;c\",\",\",\";\",TRUE)", "a,b;c,#N/A"},
		{"TEXTSPLIT(\"aXbxc\",\"x\")", "aXb,c"},
		{"TEXTSPLIT(\"aXbxc\",\"x\",\";\",FALSE,1)", "a,b,c"},
		{"TEXTSPLIT(\"a;b\",\",\",\";\")", "a;b"},
		{"TEXTSPLIT(123.5,\".\")", "123,5"},
		{"TEXTSPLIT(A6,\",\")", "#DIV/0!"},
		{"TEXTSPLIT(\"a,b\",A6)", "#DIV/0!"},
		{"TEXTSPLIT(\"a,b\",\",\",\";\",FALSE,2)", "#VALUE!"},
		{"TEXTSPLIT(\"a,b\",\",\",\";\",\"x\")", "#VALUE!"},
		{"TEXTSPLIT(B1:B2,\",\")", uncomputed},
		{"TEXTSPLIT(\"a--b\",{\"-\",\"--\"})", uncomputed},
		{"TEXTSPLIT(\"a,b\",\"\")", uncomputed},
		{"TEXTSPLIT(\"a\")", uncomputed},
	})
}

// TestArraySelectWrap checks WRAPROWS and WRAPCOLS against Microsoft's
// documented examples (A10:G10 holds A to G) and their errors: #VALUE! for
// a two-dimensional array, #NUM! for a count below 1.
func TestArraySelectWrap(t *testing.T) {
	checkArrays(t, selectBook(t), []struct{ formula, want string }{
		{"WRAPROWS(A10:G10,3)", "A,B,C;D,E,F;G,#N/A,#N/A"},
		{"WRAPROWS(A10:G10,3,\"x\")", "A,B,C;D,E,F;G,x,x"},
		{"WRAPCOLS(A10:G10,3)", "A,D,G;B,E,#N/A;C,F,#N/A"},
		{"WRAPCOLS(A10:G10,3,\"x\")", "A,D,G;B,E,x;C,F,x"},
		{"WRAPROWS(A10:G10,7)", "A,B,C,D,E,F,G"},
		{"WRAPROWS(A10:G10,2.9)", "A,B;C,D;E,F;G,#N/A"},
		{"WRAPCOLS(C1:C5,2)", "5,1,7;2,2,#N/A"},
		{"WRAPROWS(A10:C10,5)", "A,B,C,#N/A,#N/A"},
		{"WRAPROWS(A10:G10,0)", "#NUM!"},
		{"WRAPCOLS(A10:G10,-1)", "#NUM!"},
		{"WRAPROWS(B1:C5,2)", "#VALUE!"},
		{"WRAPROWS(A10:G10,\"x\")", "#VALUE!"},
		{"WRAPROWS(A10:G10,A6)", "#DIV/0!"},
		{"WRAPROWS(\"A\",1)", uncomputed},
		{"WRAPROWS(A10:G10)", uncomputed},
	})
}

// TestArraySelectRandArray checks RANDARRAY's shape and bounds (its values
// are random), that two calculations draw different numbers, and its
// errors.
func TestArraySelectRandArray(t *testing.T) {
	f := selectBook(t)
	calc := func(formula string) [][]ArrayValue {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		got, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{})
		require.NoError(t, err, formula)
		return got
	}
	for _, tc := range []struct {
		formula    string
		rows, cols int
		lo, hi     float64
		whole      bool
	}{
		{"RANDARRAY()", 1, 1, 0, 1, false},
		{"RANDARRAY(3,2)", 3, 2, 0, 1, false},
		{"RANDARRAY(4,5,10,20,TRUE)", 4, 5, 10, 20, true},
		{"RANDARRAY(2,3,-1.5,-1)", 2, 3, -1.5, -1, false},
		{"RANDARRAY(2,2,5,5)", 2, 2, 5, 5, false},
		{"RANDARRAY(30,1,1,2,TRUE)", 30, 1, 1, 2, true},
	} {
		got := calc(tc.formula)
		require.Len(t, got, tc.rows, tc.formula)
		seen := map[float64]bool{}
		for _, row := range got {
			require.Len(t, row, tc.cols, tc.formula)
			for _, v := range row {
				require.Equal(t, CellTypeNumber, v.Type, tc.formula)
				n, err := strconv.ParseFloat(v.Value, 64)
				require.NoError(t, err)
				assert.GreaterOrEqual(t, n, tc.lo, tc.formula)
				if tc.whole {
					assert.LessOrEqual(t, n, tc.hi, tc.formula)
					assert.Equal(t, float64(int64(n)), n, tc.formula)
				} else if tc.lo < tc.hi {
					assert.Less(t, n, tc.hi, tc.formula)
				} else {
					assert.Equal(t, tc.lo, n, tc.formula)
				}
				seen[n] = true
			}
		}
		if tc.formula == "RANDARRAY(30,1,1,2,TRUE)" {
			assert.Len(t, seen, 2, "both whole numbers of 1..2 are drawn")
		}
	}
	assert.NotEqual(t, arrayText(calc("RANDARRAY(20)")), arrayText(calc("RANDARRAY(20)")), "volatile: new numbers each time")
	checkArrays(t, f, []struct{ formula, want string }{
		{"RANDARRAY(0)", "#CALC!"},
		{"RANDARRAY(2,0)", "#CALC!"},
		{"RANDARRAY(-1)", "#VALUE!"},
		{"RANDARRAY(1,1,2,1)", "#VALUE!"},
		{"RANDARRAY(1,1,0.5,2,TRUE)", "#VALUE!"},
		{"RANDARRAY(\"x\")", "#VALUE!"},
		{"RANDARRAY(A6)", "#DIV/0!"},
		{"RANDARRAY(B1:B2)", uncomputed},
		{"RANDARRAY(1,1,0,1,TRUE,1)", uncomputed},
	})
}

// TestArraySelectLimits checks each function's result is charged before it
// is built: a byte budget stops a huge RANDARRAY, WRAPROWS or WRAPCOLS, a
// step budget a SORT of a long column; past a worksheet's cells is #VALUE!.
func TestArraySelectLimits(t *testing.T) {
	f := selectBook(t)
	for _, formula := range []string{"RANDARRAY(1000000,16)", "WRAPROWS(A10:G10,100000000)", "WRAPCOLS(A10:G10,100000000)"} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		_, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 20})
		assert.ErrorIs(t, err, ErrCalcLimit, formula)
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", "SORT(SEQUENCE(100000))"))
	_, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{MaxSteps: 500000})
	assert.ErrorIs(t, err, ErrCalcLimit)
	checkArrays(t, f, []struct{ formula, want string }{
		{"RANDARRAY(1048577,16385)", "#VALUE!"},
		{"SORT(SEQUENCE(5,1,5,-1))", "1;2;3;4;5"},
	})
}

// TestArraySelectTrimRange checks TRIMRANGE on Sheet2!A1:E6, whose only
// values are B2 1, C2 x and D4 4: leading, trailing or both blank rows and
// columns dropped (the rule Microsoft documents), blanks inside kept (as
// 0, the way a spill shows them), and its errors.
func TestArraySelectTrimRange(t *testing.T) {
	f := selectBook(t)
	_, err := f.NewSheet("Sheet2")
	require.NoError(t, err)
	for cell, v := range map[string]any{"B2": 1, "C2": "x", "D4": 4} {
		require.NoError(t, f.SetCellValue("Sheet2", cell, v))
	}
	checkArrays(t, f, []struct{ formula, want string }{
		{"TRIMRANGE(Sheet2!A1:E6)", "1,x,0;0,0,0;0,0,4"},
		{"TRIMRANGE(Sheet2!A1:E6,3,3)", "1,x,0;0,0,0;0,0,4"},
		{"TRIMRANGE(Sheet2!A1:E6,1,1)", "1,x,0,0;0,0,0,0;0,0,4,0;0,0,0,0;0,0,0,0"},
		{"TRIMRANGE(Sheet2!A1:E6,2,2)", "0,0,0,0;0,1,x,0;0,0,0,0;0,0,0,4"},
		{"TRIMRANGE(Sheet2!A1:E6,0,3)", "0,0,0;1,x,0;0,0,0;0,0,4;0,0,0;0,0,0"},
		{"TRIMRANGE(Sheet2!A1:E6,3,0)", "0,1,x,0,0;0,0,0,0,0;0,0,0,4,0"},
		{"TRIMRANGE(Sheet2!B2:D4)", "1,x,0;0,0,0;0,0,4"},
		{"TRIMRANGE({1,2;3,4})", "1,2;3,4"},
		{"SUM(TRIMRANGE(Sheet2!A1:E6))", "5"},
		{"TRIMRANGE(Sheet2!A1:E6,4)", "#VALUE!"},
		{"TRIMRANGE(Sheet2!A1:E6,3,-1)", "#VALUE!"},
		{"TRIMRANGE(Sheet2!A1:E6,\"x\")", "#VALUE!"},
		{"TRIMRANGE(Sheet2!A1:E6,A6)", "#DIV/0!"},
		{"TRIMRANGE(Sheet2!A8:B9)", uncomputed},
		{"TRIMRANGE(5)", uncomputed},
		{"TRIMRANGE(Sheet2!A1:E6,3,3,3)", uncomputed},
	})
}
