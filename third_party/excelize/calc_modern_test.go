// registry-sidecar: tests of the functions calc_modern.go,
// calc_regex_modern.go and calc_let_modern.go add (PATCHES.md, section 10).
// Run them with go test ./third_party/excelize -run Modern.

package excelize

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// modernBook is the small workbook the table tests compute on:
//
//	A1:A6  1..6 (ascending)      B1:B4 apple, banana, *, b1
//	C1:C5  1, 2, 2, 2, 3          D1:D3 1, TRUE, x
//	E1:E4  10, 8, 8, 2 (descending); F1 empty; G1 "3" (text)
//	H1:H3  (378) 555-4195, +1 (878) 555-8622, alfalfa
func modernBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	cells := map[string]any{
		"A1": 1, "A2": 2, "A3": 3, "A4": 4, "A5": 5, "A6": 6,
		"B1": "apple", "B2": "banana", "B3": "*", "B4": "b1",
		"C1": 1, "C2": 2, "C3": 2, "C4": 2, "C5": 3,
		"D1": 1, "D2": true, "D3": "x",
		"E1": 10, "E2": 8, "E3": 8, "E4": 2,
		"G1": "3",
		"H1": "(378) 555-4195", "H2": "+1 (878) 555-8622", "H3": "alfalfa",
	}
	for cell, v := range cells {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	return f
}

// entryErrors are formulas Excel refuses to enter (a wrong count of
// arguments, a value where a reference is due): their error keeps a message
// of its own, so it is not taken for a value Excel computes.
var entryErrors = map[string]bool{
	"XMATCH(3)": true, "RANK.AVG(2)": true, "OFFSET(A1,0)": true, "OFFSET(5,0,0)": true,
	"AREAS(5)": true, "ECMA.CEILING(4.3)": true,
}

// checkModern computes each formula in Z1 and compares the result; an error
// result's message must be the error value itself (a real Excel error),
// except for results listed as unsupported.
func checkModern(t *testing.T, f *File, cases map[string]string) {
	t.Helper()
	for formula, want := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		got, err := f.CalcCellValue("Sheet1", "Z1")
		assert.Equal(t, want, got, formula)
		if err != nil && strings.HasPrefix(want, "#") && !entryErrors[formula] {
			assert.Equal(t, want, err.Error(), formula+": an Excel error's message is the error")
		}
	}
}

func TestModernXMATCH(t *testing.T) {
	checkModern(t, modernBook(t), map[string]string{
		"XMATCH(3,A1:A6)":              "3",
		"_xlfn.XMATCH(4,A1:A6)":        "4",
		"XMATCH(3,A1:F1)":              "#N/A", // a row: 1 and blanks
		"XMATCH(1,A1:F1)":              "1",
		"XMATCH(3.5,A1:A6)":            "#N/A",
		"XMATCH(3.5,A1:A6,-1)":         "3",
		"XMATCH(3.5,A1:A6,1)":          "4",
		"XMATCH(99,A1:A6,-1)":          "6",
		"XMATCH(99,A1:A6,1)":           "#N/A",
		"XMATCH(0,A1:A6,-1)":           "#N/A",
		"XMATCH(9,E1:E4,-1)":           "2", // unsorted-safe: the largest below, first met
		"XMATCH(9,E1:E4,-1,-1)":        "3", // the same value met from the end
		`XMATCH("b*",B1:B4,2)`:         "2",
		`XMATCH("b*",B1:B4,2,-1)`:      "4",
		`XMATCH("b*",B1:B4)`:           "#N/A",
		`XMATCH("?1",B1:B4,2)`:         "4",
		`XMATCH("~*",B1:B4,2)`:         "3",
		`XMATCH("BANANA",B1:B4)`:       "2",
		`XMATCH("b?",B1:B4,2,2)`:       "#VALUE!",
		"XMATCH(2,C1:C5,0,-1)":         "4",
		"XMATCH(2,C1:C5,0,2)":          "2",
		"XMATCH(2.5,C1:C5,-1,2)":       "4",
		"XMATCH(2.5,C1:C5,1,2)":        "5",
		"XMATCH(0.5,C1:C5,1,2)":        "1",
		"XMATCH(9,E1:E4,0,-2)":         "#N/A",
		"XMATCH(8,E1:E4,0,-2)":         "2",
		"XMATCH(9,E1:E4,-1,-2)":        "2",
		"XMATCH(9,E1:E4,1,-2)":         "1",
		"XMATCH(TRUE,D1:D3)":           "2", // a logical value matches a logical value only
		"XMATCH(G1,A1:A6)":             "#N/A",
		"XMATCH(F1,A1:A6)":             "#N/A",
		"XMATCH(1/0,A1:A6)":            "#DIV/0!",
		"XMATCH(3,A1:B3)":              "#VALUE!",
		"XMATCH(3,A1:A6,3)":            "#VALUE!",
		"XMATCH(3,A1:A6,0,0)":          "#VALUE!",
		`XMATCH(3,A1:A6,"x")`:          "#VALUE!",
		"XMATCH(2,{1,2,3})":            "2",
		"XMATCH(3,A1:A6,,-1)":          "3",
		"XMATCH(3)":                    "#VALUE!",
		"INDEX(B1:B4,XMATCH(4,A1:A6))": "b1",
	})
}

func TestModernRankAvgNumberValue(t *testing.T) {
	checkModern(t, modernBook(t), map[string]string{
		"RANK.AVG(2,C1:C5)":       "3",
		"RANK.AVG(2,C1:C5,1)":     "3",
		"RANK.AVG(3,C1:C5)":       "1",
		"RANK.AVG(1,C1:C5,1)":     "1",
		"RANK.AVG(8,E1:E4)":       "2.5",
		"RANK.AVG(8,E1:E4,1)":     "2.5",
		"RANK.AVG(7,C1:C5)":       "#N/A",
		`RANK.AVG("2",C1:C5)`:     "3",
		`RANK.AVG("x",C1:C5)`:     "#VALUE!",
		"RANK.AVG(1,D1:D3)":       "1", // TRUE and text in ref are not numbers
		"RANK.AVG(2)":             "#VALUE!",
		"_xlfn.RANK.AVG(6,A1:A6)": "1",
		// Microsoft's NUMBERVALUE function page, its examples and remarks.
		`NUMBERVALUE("2.500,27",",",".")`: "2500.27",
		`NUMBERVALUE("3.5%")`:             "0.035",
		`NUMBERVALUE("")`:                 "0",
		`NUMBERVALUE("9%%")`:              "0.0009",
		`NUMBERVALUE(" 1 2 3 ")`:          "123",
		`NUMBERVALUE("1,2.5")`:            "12.5",
		`NUMBERVALUE("1.2,5")`:            "#VALUE!",
		`NUMBERVALUE("1.2.5")`:            "#VALUE!",
		`NUMBERVALUE("1E3")`:              "1000",
		`NUMBERVALUE("-1,000")`:           "-1000",
		`NUMBERVALUE("5%3")`:              "#VALUE!",
		`NUMBERVALUE("abc")`:              "#VALUE!",
		`NUMBERVALUE("0x10")`:             "#VALUE!",
		`NUMBERVALUE("Inf")`:              "#VALUE!",
		`NUMBERVALUE("1.5","","")`:        "#VALUE!",
		`NUMBERVALUE("1.5",".",".")`:      "#VALUE!",
		`NUMBERVALUE("1;5",";;","x")`:     "1.5",
		`NUMBERVALUE("1 000,5",","," ")`:  "1000.5",
		`NUMBERVALUE("1000,5",",")`:       "1000.5",
		`NUMBERVALUE("1.000,5",",")`:      "#VALUE!",
		`NUMBERVALUE(5)`:                  "5",
		`NUMBERVALUE(F1)`:                 "0",
		`NUMBERVALUE(G1)`:                 "3",
		`NUMBERVALUE(1/0)`:                "#DIV/0!",
		`NUMBERVALUE("5 %")`:              "0.05",
		`NUMBERVALUE("%")`:                "#VALUE!",
	})
}

func TestModernOffsetAreas(t *testing.T) {
	checkModern(t, modernBook(t), map[string]string{
		"OFFSET(A1,2,0)":               "3",
		"OFFSET(A1,0,1)":               "apple",
		"OFFSET(A3,-2,0)":              "1",
		"OFFSET(A1,1.9,0)":             "2", // truncated
		"OFFSET(A2,-1.9,0)":            "1",
		"SUM(OFFSET(A1,1,0,3,1))":      "9",
		"SUM(OFFSET(A1,0,0,6))":        "21",
		"AVERAGE(OFFSET(A1:A2,2,0))":   "3.5",
		"SUM(OFFSET(A3,0,0,-2,1))":     "5", // negative height extends up
		"SUM(OFFSET(C1,0,0,1,-3))":     "2", // negative width extends left: A1:C1
		"COUNT(OFFSET(A1:A6,0,0,,))":   "6",
		"SUM(OFFSET(A3,0,0,0,1))":      "#REF!",
		"OFFSET(A1,-1,0)":              "#REF!",
		"OFFSET(A1,0,-1)":              "#REF!",
		"OFFSET(A1,1048576,0)":         "#REF!",
		"OFFSET(XFD1,0,1)":             "#REF!",
		`OFFSET(A1,"x",0)`:             "#VALUE!",
		"OFFSET(A1,1/0,0)":             "#DIV/0!",
		"OFFSET(5,0,0)":                "#VALUE!",
		"OFFSET(A1,0)":                 "#VALUE!",
		"ROWS(OFFSET(A1,0,0,3,2))":     "3",
		"SUM(OFFSET(Sheet1!A1,1,0,2))": "5",
		"AREAS(A1:B2)":                 "1",
		"AREAS(A1)":                    "1",
		"AREAS(OFFSET(A1,1,1,2,2))":    "1",
		"AREAS(5)":                     "#VALUE!",
	})
}

func TestModernCeilingPercentRegex(t *testing.T) {
	checkModern(t, modernBook(t), map[string]string{
		// ECMA-376 Part 4 (transitional), CEILING: away from zero; signs
		// that differ are #NUM!.
		"ECMA.CEILING(4.3,2)":     "6",
		"ECMA.CEILING(-4.3,-2)":   "-6",
		"ECMA.CEILING(4.42,0.05)": "4.45",
		"ECMA.CEILING(0.3,0.1)":   "0.3",
		"ECMA.CEILING(6,2)":       "6",
		"ECMA.CEILING(-4.3,2)":    "#NUM!",
		"ECMA.CEILING(4.3,-2)":    "#NUM!",
		"ECMA.CEILING(4.3,0)":     "0",
		"ECMA.CEILING(0,2)":       "0",
		`ECMA.CEILING("x",2)`:     "#VALUE!",
		"ECMA.CEILING(4.3)":       "#VALUE!",
		// Microsoft's PERCENTOF function page: =SUM(subset)/SUM(all).
		"PERCENTOF(250,1000)":    "0.25",
		"PERCENTOF(A1:A2,A1:A6)": "0.142857142857143",
		"PERCENTOF(A6,A1:A6)":    "0.285714285714286",
		"PERCENTOF(A1,F1)":       "#DIV/0!",
		"PERCENTOF(1/0,A1:A6)":   "#DIV/0!",
		// Microsoft's REGEXTEST function page, examples 1 and 2 (alfalfa,
		// phone numbers).
		`REGEXTEST(H3,"a")`:                                "TRUE",
		`REGEXTEST(H3,"[a-z]")`:                            "TRUE",
		`REGEXTEST(H3,"[A-Z]")`:                            "FALSE",
		`REGEXTEST(H3,"[aeiou]")`:                          "TRUE",
		`REGEXTEST(H3,"[0-9]")`:                            "FALSE",
		`REGEXTEST(H1,"^\([0-9]{3}\) [0-9]{3}-[0-9]{4}$")`: "TRUE",
		`REGEXTEST(H2,"^\([0-9]{3}\) [0-9]{3}-[0-9]{4}$")`: "FALSE",
		`REGEXTEST("abc","[A-Z]",1)`:                       "TRUE",
		`REGEXTEST("abc","[A-Z]",2)`:                       "#VALUE!",
		`REGEXTEST("abc","(?=a)")`:                         "#VALUE!", // lookahead: not RE2
		`REGEXTEST("abc","(")`:                             "#VALUE!",
		// Microsoft's REGEXEXTRACT function page: the first name of
		// "DylanWilliams" with return_mode 0.
		`REGEXEXTRACT("DylanWilliams","[A-Z][a-z]+")`:                     "Dylan",
		`REGEXEXTRACT("DylanWilliams","[A-Z][a-z]+",0)`:                   "Dylan",
		`REGEXEXTRACT("abc","[0-9]")`:                                     "#N/A",
		`REGEXEXTRACT("ABC","b",0,1)`:                                     "B",
		`REGEXEXTRACT("abc","b",3)`:                                       "#VALUE!",
		`REGEXREPLACE("abc abc","b","X")`:                                 "aXc aXc",
		`REGEXREPLACE("abc abc","b","X",1)`:                               "aXc abc",
		`REGEXREPLACE("abc abc","b","X",-1)`:                              "abc aXc",
		`REGEXREPLACE("abc abc","b","X",3)`:                               "abc abc",
		`REGEXREPLACE("abc","B","X",0,1)`:                                 "aXc",
		`REGEXREPLACE("Sonia Rees","([A-Z])[a-z]+ ([A-Z])[a-z]+","$1$2")`: "SR",
		`REGEXREPLACE("ab","(a)","${1}x$$")`:                              "ax$b",
		`REGEXREPLACE("ab","(a)","$1x")`:                                  "axb", // PCRE2: group 1, then x
		`REGEXREPLACE("ab","(?P<first>a)","[${first}]")`:                  "[a]b",
		`REGEXREPLACE("ab","(a)","$2")`:                                   "#VALUE!",
		`REGEXREPLACE("ab","a","$")`:                                      "#VALUE!",
	})
}

func TestModernUnsupportedForms(t *testing.T) {
	f := modernBook(t)
	for _, formula := range []string{
		`REGEXEXTRACT("DylanWilliams","[A-Z][a-z]+",1)`, // an array
		"XMATCH(A1:A2,A1:A6)",
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		got, err := f.CalcCellValue("Sheet1", "Z1")
		assert.Equal(t, "#VALUE!", got, formula)
		require.Error(t, err, formula)
		assert.Contains(t, err.Error(), "not supported", formula+": not taken for an Excel error")
	}
}

func TestModernLET(t *testing.T) {
	checkModern(t, modernBook(t), map[string]string{
		"LET(x,2,x*3)":                             "6",
		"_xlfn.LET(_xlpm.x,2,_xlpm.x*3)":           "6",
		"LET(x,2,_xlpm.X+x)":                       "4",
		"LET(x,2,y,x*3,x+y)":                       "8",
		"LET(r,A1:A3,SUM(r))":                      "6",
		"LET(x,1,LET(x,2,x)+x)":                    "3",
		"LET(x,1,LET(y,x+1,y*10))":                 "20",
		"1+LET(x,A2,x)*2":                          "5",
		`LET(s,SUM(A1:A6),IF(s>10,"big","small"))`: "big",
		"LET(x,2,-x^2)":                            "4",
		"LET(x,A1:A6,INDEX(x,3))":                  "3",
		"LET(x,3,XMATCH(x,A1:A6))":                 "3",
		"LET(x,1/0,5)":                             "5",
		"LET(x,1/0,x+1)":                           "#DIV/0!",
	})
	f := modernBook(t)
	for formula, msg := range map[string]string{
		"LET(x,2)":    "LET requires",
		"LET()":       "LET requires",
		"LET(A1,2,3)": "LET requires a name",
		"LET(1,2,3)":  "LET requires a name",
		"LET(a,1,b,a+a,c,b+b,d,c+c,e,d+d,f,e+e,g,f+f,h,g+g,i,h+h,j,i+i,k,j+j,l,k+k,m,l+l,n,m+m,o,n+n,p,o+o,q,p+p,r,q+q,s,r+r,t,s+s,t)": "not supported",
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		_, err := f.CalcCellValue("Sheet1", "Z1")
		require.Error(t, err, formula)
		assert.Contains(t, err.Error(), msg, formula)
	}
}

func TestModernGuard(t *testing.T) {
	f := modernBook(t)
	// A long chain of names each used twice stops at the step budget
	// before the expansion bound.
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", "LET(a,1,b,a+a,c,b+b,d,c+c,e,d+d,f,e+e,g,f+f,h,g+g,i,h+h,j,i+i,j)"))
	_, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxSteps: 500})
	assert.ErrorIs(t, err, ErrCalcLimit)
	// A replacement that would build a text past Excel's limit is #VALUE!
	// before it is built.
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", `REGEXREPLACE(REPT("a",30000),"a",REPT("b",100))`))
	got, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 24})
	assert.EqualError(t, err, "#VALUE!", "an Excel error, not a stop")
	assert.Equal(t, "#VALUE!", got)
	// OFFSET's range is read like any range: a whole sheet is cut to the
	// cells in use before it is charged.
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", "SUM(OFFSET(A1,0,0,1048576,16384))"))
	got, err = f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 20})
	assert.NoError(t, err)
	assert.Equal(t, "60", got)
}
