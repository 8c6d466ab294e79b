package recalc

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckFormulaAcceptsExcelFormulas(t *testing.T) {
	for _, f := range []string{
		"SUM(A1:A3)", "A1*3+B2/4-C1^2", "-A1%", `IF(A1>3,"big","small")`, "IF(A1,,1)", "SUM(A1,)",
		"A1:B2 B1:C3", "{1,2;3,4}", "'Q1 ''Plan'' v1'!A1+1", "'销售 2024'!A1*2", "_xlfn.XLOOKUP(1,A1:A2,B1:B2)",
		"#REF!+1", "Sheet1!A1*+2", "SUM((A1))", "Total*2", `"a""b"&"c"`, "TRUE", "NOT(FALSE)",
		"INDEX(A1:B3,2,2) INDEX(A1:B3,2,0)", "SUM(A:A)", "SUM(1:3)", "$A$1+A$2+$A3", "LET(x,1,x+1)",
		"sum(a1)", "  A1 + B1 ", "NA()", "PI()*2", "LAMBDA(x,x*2)(3)", "_xlfn.LAMBDA(_xlpm.x,_xlpm.x)(1)",
		"LAMBDA(x,y,x)(1,)", "LAMBDA(1)()", "LET(f,LAMBDA(x,x*2),f(3))", "MAP(A1:A3,LAMBDA(v,v+1))",
	} {
		assert.NoError(t, ParseFormula(f), f)
	}
}

func TestCheckFormulaRefusesBrokenFormulas(t *testing.T) {
	for _, c := range []struct{ formula, want string }{
		{"1+", `ends with the operator "+"`},
		{"== not a formula", `the operator "=" has nothing on its left`},
		{"SUMME(A1)", "SUMME is not an Excel function (did you mean SUM?)"},
		{"VLOOKUPP(1,A1:B2,2)", "did you mean VLOOKUP?"},
		{"AVERGE(A1:A3)", "did you mean AVERAGE?"},
		{"XYZZYQ(1)", "XYZZYQ is not an Excel function"},
		{"SUM(A1", "a parenthesis is not closed"},
		{"(A1+1))", `")" that closes nothing`},
		{"*2", `the operator "*" has nothing on its left`},
		{"1 2", "followed by a space"},
		{`"abc`, "not closed"},
		{"'Sheet 1!A1", "not closed"},
		{"SUM(A1+)", `the operator "+" has nothing on its right`},
		{"()", "empty parentheses"},
		{"SUM(1)(2)", `"(" follows`},
		{"LAMBDA(x,x)(1)(2)", `"(" follows`},
		{"LET(f,2,g(3))", "g is not an Excel function"},
	} {
		err := ParseFormula(c.formula)
		require.Error(t, err, c.formula)
		assert.Contains(t, err.Error(), c.want, c.formula)
	}
	assert.NotContains(t, ParseFormula("XYZZYQ(1)").Error(), "did you mean")
}

func FuzzParseFormula(f *testing.F) {
	for _, s := range []string{"SUM(A1:A3)", "1+", "== x", `"a`, "{1,2;3}", "'a''b'!A1", "((", "))"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		_ = ParseFormula(s) // never panics
	})
}

func TestWithFilePrefixes(t *testing.T) {
	for in, want := range map[string]string{
		"SUM(A1:A3)":                                  "SUM(A1:A3)",
		`TEXTJOIN(",",TRUE,A1:A2)&concat(A1)`:         `_xlfn.TEXTJOIN(",",TRUE,A1:A2)&_xlfn.CONCAT(A1)`,
		"_xlfn.CONCAT(A1)+IFS(A1>1,2)":                "_xlfn.CONCAT(A1)+_xlfn.IFS(A1>1,2)",
		"FILTER(A1:A9,B1:B9>0)":                       "_xlfn._xlws.FILTER(A1:A9,B1:B9>0)",
		`"CONCAT(x)"&'CONCAT(1)'!A1`:                  `"CONCAT(x)"&'CONCAT(1)'!A1`,
		"XLOOKUP(1,A:A,B:B)":                          "_xlfn.XLOOKUP(1,A:A,B:B)",
		"MAXIFS(B1:B2,A1:A2,1)+CONCAT":                "_xlfn.MAXIFS(B1:B2,A1:A2,1)+CONCAT", // a name, not a call
		"LET(x,2,x*3)":                                "_xlfn.LET(_xlpm.x,2,_xlpm.x*3)",
		"_xlfn.LET(_xlpm.x,2,_xlpm.x*3)":              "_xlfn.LET(_xlpm.x,2,_xlpm.x*3)",
		`let(Rate,"x",rate&"y")`:                      `_xlfn.LET(_xlpm.Rate,"x",_xlpm.rate&"y")`,
		"LAMBDA(x,y,x+y)(1,2)":                        "_xlfn.LAMBDA(_xlpm.x,_xlpm.y,_xlpm.x+_xlpm.y)(1,2)",
		"MAP(A1:A3,LAMBDA(v,IF(ISOMITTED(v),0,v)))":   "_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,IF(_xlfn.ISOMITTED(_xlpm.v),0,_xlpm.v)))",
		"LET(f,LAMBDA(n,n*2),f(3)+SUM(A1))":           "_xlfn.LET(_xlpm.f,_xlfn.LAMBDA(_xlpm.n,_xlpm.n*2),_xlpm.f(3)+SUM(A1))",
		"GROUPBY(A2:A9,B2:B9,sum)":                    "_xlfn.GROUPBY(A2:A9,B2:B9,_xleta.SUM)", // an eta LAMBDA
		"BYROW(A1:B3,LOG10)":                          "_xlfn.BYROW(A1:B3,LOG10)",              // a cell
		"_xlfn.PIVOTBY(A2:A9,C2:C9,B2:B9,_xleta.SUM)": "_xlfn.PIVOTBY(A2:A9,C2:C9,B2:B9,_xleta.SUM)",
	} {
		assert.Equal(t, want, WithFilePrefixes(in), in)
	}
}

func TestWithoutFilePrefixes(t *testing.T) {
	for in, want := range map[string]string{
		`_xlfn.TEXTJOIN(",",TRUE,A1:A2)&_xlfn.CONCAT(A1)`:  `TEXTJOIN(",",TRUE,A1:A2)&CONCAT(A1)`,
		"_xlfn._xlws.FILTER(A1:A9,B1:B9>0)":                "FILTER(A1:A9,B1:B9>0)",
		`"_xlfn.CONCAT(x)"&SUM(A1)`:                        `"_xlfn.CONCAT(x)"&SUM(A1)`,
		"SUM(A1)":                                          "SUM(A1)",
		"_xlfn.LET(_xlpm.x,2,_xlpm.x*3)":                   "LET(x,2,x*3)",
		"_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2))": "MAP(A1:A3,LAMBDA(v,v*2))",
		"_xlfn.GROUPBY(A2:A9,B2:B9,_xleta.SUM)":            "GROUPBY(A2:A9,B2:B9,SUM)",
	} {
		assert.Equal(t, want, formulatext.WithoutFilePrefixes(in), in)
		assert.Equal(t, WithFilePrefixes(want), WithFilePrefixes(formulatext.WithoutFilePrefixes(in)), "round trip")
	}
}
