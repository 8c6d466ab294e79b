// registry-sidecar: tests of LAMBDA and the functions that take one
// (calc_lambda.go, calc_lambda_call.go, calc_lambda_helpers.go), and of
// arguments left empty. LibreOffice 25.2 has none of these functions, so
// the expected values are Microsoft's documented examples for each and
// results worked out by hand from the behaviour Microsoft documents. Run
// them with go test ./third_party/excelize -run Lambda.

package excelize

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lambdaBook is the workbook of Microsoft's examples: A1:C2 holds 1..6 by
// rows, E1:G2 the letters a..f, I1:I3 three texts, and the defined names
// of the LAMBDA page (TOCELSIUS, HYPOTENUSE, COUNTWORDS) and a recursive
// one (FACTORIAL).
func lambdaBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	cells := map[string]any{
		"A1": 1, "B1": 2, "C1": 3, "A2": 4, "B2": 5, "C2": 6,
		"E1": "a", "F1": "b", "G1": "c", "E2": "d", "F2": "e", "G2": "f",
		"I1": "Bob was here", "I2": "Carlos came, saw, and conquered", "I3": 104,
	}
	for cell, v := range cells {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	for name, refersTo := range map[string]string{
		"TOCELSIUS":  "_xlfn.LAMBDA(_xlpm.temp,(5/9)*(_xlpm.temp-32))",
		"HYPOTENUSE": "LAMBDA(a,b,SQRT((a^2+b^2)))",
		"COUNTWORDS": `_xlfn.LAMBDA(_xlpm.text,LEN(TRIM(_xlpm.text))-LEN(SUBSTITUTE(TRIM(_xlpm.text)," ",""))+1)`,
		"FACTORIAL":  "LAMBDA(n,IF(n<2,1,n*FACTORIAL(n-1)))",
		"NOTLAMBDA":  "Sheet1!$A$1",
	} {
		require.NoError(t, f.SetDefinedName(&DefinedName{Name: name, RefersTo: refersTo}))
	}
	return f
}

// calcArray computes formula in Z1 as CalcCellArray does and returns its
// values as text, rows of columns.
func calcArray(t *testing.T, f *File, formula string) ([][]string, error) {
	t.Helper()
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
	arr, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 26, MaxSteps: 1 << 22, MaxDepth: 64})
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(arr))
	for r, row := range arr {
		for _, v := range row {
			if v.Type == CellTypeBool {
				v.Value = map[string]string{"0": "FALSE", "1": "TRUE"}[v.Value]
			}
			out[r] = append(out[r], v.Value)
		}
	}
	return out, nil
}

func TestLambdaMicrosoftExamples(t *testing.T) {
	f := lambdaBook(t)
	for _, tc := range []struct {
		formula string
		want    [][]string
	}{
		// LAMBDA: called where written, and through defined names.
		{"LAMBDA(number,number+1)(1)", [][]string{{"2"}}},
		{"TOCELSIUS(104)", [][]string{{"40"}}},
		{"TOCELSIUS(I3)+TOCELSIUS(-40)", [][]string{{"0"}}},
		{"HYPOTENUSE(3,4)", [][]string{{"5"}}},
		{"HYPOTENUSE(7,24)", [][]string{{"25"}}},
		{"COUNTWORDS(I1)", [][]string{{"3"}}},
		{"COUNTWORDS(I2)", [][]string{{"5"}}},
		// ISOMITTED
		{`LAMBDA(x,y,IF(ISOMITTED(y),"Param y is missing","Param y is present"))(1,)`, [][]string{{"Param y is missing"}}},
		{`LAMBDA(x,y,IF(ISOMITTED(y),"Param y is missing","Param y is present"))(1,2)`, [][]string{{"Param y is present"}}},
		// MAP, REDUCE, SCAN, BYROW, BYCOL, MAKEARRAY
		{"MAP(A1:C2,LAMBDA(a,IF(a>4,a*a,+a)))", [][]string{{"1", "2", "3"}, {"4", "25", "36"}}},
		{"REDUCE(,A1:C2,LAMBDA(a,b,a+b^2))", [][]string{{"91"}}},
		{"SCAN(1,A1:C2,LAMBDA(a,b,a*b))", [][]string{{"1", "2", "6"}, {"24", "120", "720"}}},
		{`SCAN("",E1:G2,LAMBDA(t,c,t&c))`, [][]string{{"a", "ab", "abc"}, {"abcd", "abcde", "abcdef"}}},
		{"BYROW(A1:C2,LAMBDA(array,MAX(array)))", [][]string{{"3"}, {"6"}}},
		{"BYROW(A1:C2,LAMBDA(array,SUMSQ(array)))", [][]string{{"14"}, {"77"}}},
		{"BYCOL(A1:C2,LAMBDA(array,MAX(array)))", [][]string{{"4", "5", "6"}}},
		{"BYCOL(A1:C2,LAMBDA(array,SUMSQ(array)))", [][]string{{"17", "29", "45"}}},
		{"MAKEARRAY(3,3,LAMBDA(r,c,r*c))", [][]string{{"1", "2", "3"}, {"2", "4", "6"}, {"3", "6", "9"}}},
	} {
		got, err := calcArray(t, f, tc.formula)
		require.NoError(t, err, tc.formula)
		assert.Equal(t, tc.want, got, tc.formula)
	}
}

func TestLambdaForms(t *testing.T) {
	f := lambdaBook(t)
	for _, tc := range []struct {
		formula string
		want    [][]string
	}{
		{"_xlfn.LAMBDA(_xlpm.x,_xlpm.x*2)(3)", [][]string{{"6"}}},
		{"LAMBDA(X,x*2)(3)+1", [][]string{{"7"}}},                    // names ignore case; a call in an expression
		{"LAMBDA(1)()", [][]string{{"1"}}},                           // no parameter
		{"LAMBDA(x,[y],IF(ISOMITTED(y),x,y))(7)", [][]string{{"7"}}}, // an optional parameter left out
		{"LAMBDA(x,[y],IF(ISOMITTED(y),x,y))(7,8)", [][]string{{"8"}}},
		{"LAMBDA(x,y,x+y)(1)", [][]string{{"#VALUE!"}}}, // too few arguments
		{"LAMBDA(x,x)(1,2)", [][]string{{"#VALUE!"}}},   // too many
		{"LAMBDA(x,x)", [][]string{{"#CALC!"}}},         // a LAMBDA not called
		{"ISOMITTED(A1)", [][]string{{"FALSE"}}},
		{"tocelsius(212)", [][]string{{"100"}}}, // a defined name in any case
		{"LET(f,LAMBDA(x,y,x*y),f(2,f(3,4)))", [][]string{{"24"}}},
		{"LET(f,LAMBDA(x,x*10),MAP(A1:A2,f))", [][]string{{"10"}, {"40"}}},
		{"LET(n,2,MAKEARRAY(n,n,LAMBDA(r,c,r+c)))", [][]string{{"2", "3"}, {"3", "4"}}},
		{"LAMBDA(n,SEQUENCE(n))(3)", [][]string{{"1"}, {"2"}, {"3"}}},
		// a LAMBDA inside another sees the outer parameters; its own shadow them
		{"MAP(A1:A2,LAMBDA(x,SUM(MAP(B1:C1,LAMBDA(y,x*y)))))", [][]string{{"5"}, {"20"}}},
		{"MAP(A1:A2,LAMBDA(x,SUM(MAP(B1:C1,LAMBDA(x,x)))))", [][]string{{"5"}, {"5"}}},
		{"MAP(A1:C1,A2:C2,LAMBDA(a,b,a*b))", [][]string{{"4", "10", "18"}}},
		{"MAP(A1:C1,10,LAMBDA(a,b,a+b))", [][]string{{"11", "12", "13"}}},                // one value repeats
		{"MAP(A1:C1,A1:A2,LAMBDA(a,b,a))", [][]string{{"1", "2", "3"}, {"1", "2", "3"}}}, // a row and a column
		{"MAP(A1:A2,LAMBDA(a,b,a))", [][]string{{"#VALUE!"}}},                            // parameters do not fit
		{"MAP(A1:A2,5)", [][]string{{"#VALUE!"}}},                                        // not a LAMBDA
		{"MAP(A1:A2,LAMBDA(a,A1:B1))", [][]string{{"#CALC!"}, {"#CALC!"}}},               // an array per value
		{"MAP(A1:A2,LAMBDA(a,Y1))", [][]string{{"0"}, {"0"}}},                            // a blank is 0
		{"REDUCE(0,A1:C2,LAMBDA(a,v,IF(v>3,a+v,a)))", [][]string{{"15"}}},
		{"REDUCE(0,A1:C2,LAMBDA(a,v,a))", [][]string{{"0"}}},
		{"SCAN(,A1:C1,LAMBDA(a,v,a+v))", [][]string{{"1", "3", "6"}}},
		{"BYROW(A1:C2,LAMBDA(r,r))", [][]string{{"#CALC!"}, {"#CALC!"}}},
		{"BYCOL(A1:C2,LAMBDA(c,COUNT(c)))", [][]string{{"2", "2", "2"}}},
		{"MAKEARRAY(0,2,LAMBDA(r,c,1))", [][]string{{"#VALUE!"}}},
		{`MAKEARRAY("x",2,LAMBDA(r,c,1))`, [][]string{{"#VALUE!"}}},
		{"MAKEARRAY(1,2,LAMBDA(r,r))", [][]string{{"#VALUE!"}}},
	} {
		got, err := calcArray(t, f, tc.formula)
		require.NoError(t, err, tc.formula)
		assert.Equal(t, tc.want, got, tc.formula)
	}
}

func TestLambdaMalformedIsNotComputed(t *testing.T) {
	f := lambdaBook(t)
	for _, formula := range []string{
		"LAMBDA(1,2,3)(1)",      // a parameter that is not a name
		"LAMBDA(A1,A1)(1)",      // a cell is not a name
		"LAMBDA()",              // nothing
		"FACTORIAL(5)",          // recursion: both branches of IF are evaluated, so it never ends
		"NOTLAMBDA(1)",          // a defined name that is not a LAMBDA
		"MAP(A1:A2,LAMBDA(x,x)", // not closed
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		got, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 26, MaxSteps: 1 << 22})
		require.Error(t, err, formula)
		assert.NotEqual(t, got, err.Error(), formula+": not an Excel error")
		assert.False(t, strings.HasPrefix(err.Error(), "#"), formula+": "+err.Error())
	}
}

func TestLambdaGuard(t *testing.T) {
	f := lambdaBook(t)
	for _, formula := range []string{
		"MAKEARRAY(1048576,16384,LAMBDA(r,c,r))",
		"ROWS(MAKEARRAY(100000,100,LAMBDA(r,c,r)))",
		"REDUCE(0,SEQUENCE(1000000),LAMBDA(a,v,a+v))",
		"MAP(SEQUENCE(1000,1000),LAMBDA(x,MAP(SEQUENCE(1000),LAMBDA(y,x))))",
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		_, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 24, MaxSteps: 1 << 20})
		assert.True(t, errors.Is(err, ErrCalcLimit), "%s: %v", formula, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", "REDUCE(0,SEQUENCE(100000),LAMBDA(a,v,a+v))"))
	_, err := f.CalcCellValueContext(ctx, "Sheet1", "Z1", CalcLimits{})
	assert.ErrorIs(t, err, context.Canceled)
}

func TestLambdaOmittedArguments(t *testing.T) {
	f := lambdaBook(t)
	for _, tc := range []struct{ formula, want string }{
		{"IF(TRUE,,1)", "0"},
		{"IF(FALSE,1,)", "0"},
		{"IF(FALSE,1)", "FALSE"},
		{"IF(TRUE,Y1,1)", ""}, // a blank cell is not an omitted argument
		{"SUM(SEQUENCE(1,3,,2))", "9"},
		{"INDEX(SEQUENCE(1,3,,2),1,3)", "5"},
		{"SUM(1,,2)", "3"},
		{"COUNTA(1,,2)", "3"},
		{"COUNT(1,,2)", "3"},
		{"COUNT(Y1,2)", "1"},
		{"COUNTA(Y1,2)", "1"}, // a blank cell is not counted
		{"CONCATENATE(\"a\",,\"b\")", "ab"},
		{"LAMBDA(x,y,x&y)(\"a\",)", "a"},
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.formula))
		got, err := f.CalcCellValue("Sheet1", "Z1")
		assert.NoError(t, err, tc.formula)
		assert.Equal(t, tc.want, got, tc.formula)
	}
}
