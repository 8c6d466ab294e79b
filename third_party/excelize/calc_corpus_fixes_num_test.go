package excelize

import (
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusBook returns a workbook holding the formula corpus's data block
// (tests/oracle/formula_corpus_table.py): A1:A6 numbers of both signs,
// B4 a text number, C1:C6 mixed, D1:D6 powers of two, E1:E3 errors, F1
// TRUE, G1:I1 a row, G2:H3 a 2x2 matrix, F4:F9 cash flows, H5:H10 blank.
func corpusBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	for cell, v := range map[string]any{
		"A1": 3, "A2": -1.5, "A3": 0, "A4": 7, "A5": 2.25, "A6": 10,
		"B4": "7", "C1": 4, "C2": "text", "C4": 2.5, "C5": "5", "C6": -3,
		"D1": 1, "D2": 2, "D3": 4, "D4": 8, "D5": 16, "D6": 32, "F1": true, "F2": false,
		"G1": 5, "H1": 7, "I1": 9, "G2": 2, "H2": 1, "G3": 1, "H3": 3,
		"F4": -1000, "F5": 300, "F6": 400, "F7": 500, "F8": 200, "F9": 100,
	} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	for cell, formula := range map[string]string{"E1": "NA()", "E2": "1/0", "E3": `"a"+1`} {
		require.NoError(t, f.SetCellFormula("Sheet1", cell, formula))
	}
	return f
}

// checkCorpusFormulas computes each formula in L1 of f and compares it with
// want: an error value or text exactly, a number within a relative 1e-9
// (the corpus's tolerance).
func checkCorpusFormulas(t *testing.T, f *File, cases map[string]string) {
	t.Helper()
	for formula, want := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", "L1", formula))
		got, _ := f.CalcCellValue("Sheet1", "L1")
		w, errW := strconv.ParseFloat(want, 64)
		g, errG := strconv.ParseFloat(got, 64)
		if errW == nil && errG == nil {
			assert.LessOrEqual(t, math.Abs(g-w), 1e-9*math.Max(1, math.Abs(w)), formula+" = "+got+", want "+want)
			continue
		}
		assert.Equal(t, want, got, formula)
	}
}

// TestCorpusInfinityIsNUM checks that a result that overflows is #NUM!, as
// in Excel and LibreOffice 25.2 (Err:502 there is Excel's #NUM!).
func TestCorpusInfinityIsNUM(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"COSH(1E+12)":           "#NUM!",
		"LN(0)":                 "#NUM!",
		"LOG10(0)":              "#NUM!",
		"ATANH(TRUE)":           "#NUM!",
		"ACOTH(TRUE)":           "#NUM!",
		"PMT(0.01,0,1000,0,1)":  "#NUM!",
		"BESSELI(1E+12,1)":      "#NUM!",
		"ISERROR(COSH(1E+12))":  "TRUE",
		"IFERROR(LN(0),\"ok\")": "ok",
	})
}

// TestCorpusStatValues checks Excel's reading of statistical arguments: a
// range's numbers only (its text, text numbers, booleans and blanks
// skipped, or counted 0/1 by the A functions), an error passed on.
// Expected values: LibreOffice 25.2 on the corpus's data block.
func TestCorpusStatValues(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"AVEDEV(A1:A6)":     "3.361111111111111",
		"AVEDEV({1,2;3,4})": "1",
		"AVEDEV(G2:H3)":     "0.75",
		"AVEDEV(E1:E3)":     "#N/A",
		"AVEDEV(H5:H8)":     "#NUM!",
		"AVERAGE(E1:E3,5)":  "#N/A",
		"AVERAGEA(C1:C6)":   "0.7",
		"AVERAGEA(E1:E3)":   "#N/A",
		"STDEV(C1:C6)":      "3.685557397915997",
		"STDEV.S(C1:C6)":    "3.685557397915997",
		"STDEVA(C1:C6)":     "2.6832815729997477",
		"STDEVP(C1:C6)":     "3.009245014211298",
		"STDEVPA(C1:C6)":    "2.4",
		"STDEV.P(E1:E3)":    "#N/A",
		"VAR(C1:C6)":        "13.583333333333334",
		"VAR.P(C1:C6)":      "9.055555555555555",
		"VARA(C1:C6)":       "7.2",
		"VARPA(C1:C6)":      "5.76",
		"VAR.S(E1:E3)":      "#N/A",
		"HARMEAN(D1:D6)":    "3.0476190476190474",
		"HARMEAN(G2:H3)":    "1.4117647058823528",
		"HARMEAN(H5:H8)":    "#NUM!",
		"KURT(C1:C6)":       "#DIV/0!",
		"SKEW(E1:E3)":       "#N/A",
		// Microsoft's examples on the KURT and SKEW pages
		"ROUND(KURT(3,4,5,2,3,4,5,6,4,7),9)": "-0.151799637",
		"ROUND(SKEW(3,4,5,2,3,4,5,6,4,7),6)": "0.359543",
		"SUMX2MY2(A1:A6,D1:D6)":              "-1199.6875",
		"SUMX2MY2(C1:C6,D1:D6)":              "-1057.75",
		"SUMX2PY2(A1:A6,D1:D6)":              "1530.3125",
		"SUMXMY2(A1:A6,D1:D6)":               "706.3125",
		"NPV(0.1,F5:F9)":                     "1177.6580089536853",
		"NPV(0.25,F5:F9)":                    "866.688",
		`NPV("4",F5:F9)`:                     "80.352",
		"NPV(H10,F5:F9)":                     "1500",
		"NPV(TRUE,F5:F9)":                    "328.125",
		"NPV(0.1,E1:E3)":                     "#N/A",
	})
}

// TestCorpusOrderStatistics checks LARGE, SMALL, PERCENTILE and QUARTILE on
// fractional k and quart and on an array holding errors (LibreOffice 25.2's
// results), and an array without numbers (#NUM!, Microsoft's PERCENTILE and
// PERCENTRANK pages: an empty array).
func TestCorpusOrderStatistics(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"LARGE(A1:A6,0.25)":             "10",
		"LARGE(E1:E3,2)":                "#N/A",
		"SMALL(E1:E3,2)":                "#N/A",
		"PERCENTILE.EXC(E1:E3,0.3)":     "#N/A",
		"QUARTILE(A1:A6,0.25)":          "-1.5",
		"QUARTILE.INC(A1:A6,0.25)":      "-1.5",
		"PERCENTILE(H5:H8,0.3)":         "#NUM!",
		"PERCENTRANK.INC(H5:H8,2.25,3)": "#NUM!",
		"LARGE(H5:H8,2)":                "#NUM!",
	})
}

// TestCorpusComplexArguments checks the IM functions' suffix and their
// blank, empty-text and boolean arguments (LibreOffice 25.2's results).
func TestCorpusComplexArguments(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		`IMDIV(B4,"1-i")`:             "3.5+3.5i",
		`IMDIV(12,"1-i")`:             "6+6i",
		`IMDIV("-238+240i","10+24i")`: "5+12i", // Microsoft's example
		`IMPOWER("1+i",H10)`:          "1",
		`IMSUM(H10,"1-i")`:            "1-i",
		`IMSUM("","1-i")`:             "1-i",
		`IMSUM("3+4i",H10)`:           "3+4i",
	})
}

// TestCorpusBessel checks the truncated order, a huge order and the
// precision of BESSELJ and BESSELY: LibreOffice 25.2's results and
// Microsoft's examples.
func TestCorpusBessel(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"BESSELI(1.5,0.25)":  "1.6467231897728907",
		"BESSELJ(1.5,0.25)":  "0.5118276717359183",
		"BESSELJ(1E+12,1)":   "-7.913809477024477e-07",
		"BESSELJ(1.5,1E+12)": "#NUM!",
		"BESSELK(1.5,1E+12)": "#NUM!",
		"BESSELY(A4,1)":      "-0.302667237024185",
		"BESSELY(1.5,H10)":   "0.38244892379775947",
		"BESSELJ(1.5,-1)":    "#NUM!",
		"BESSELI(1.5,1)":     "0.9816664285779076",
		// Microsoft's examples, to their 9 digits
		"ROUND(BESSELY(2.5,1),9)": "0.145918138",
		"ROUND(BESSELK(1.5,1),9)": "0.277387804",
	})
}

// TestCorpusTrendGrowth checks TREND and GROWTH on LINEST's fit
// (LibreOffice 25.2's results).
func TestCorpusTrendGrowth(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"SUM(TREND(A1:A6,D1:D6))":         "20.75",
		"SUM(TREND(A1:A6))":               "20.750000000000004",
		"INDEX(TREND(A1:A6,D1:D6,64),1)":  "18.22121535181237",
		"SUM(GROWTH(D1:D6,A1:A6))":        "46.54771724847525",
		"INDEX(GROWTH(D1:D6,A1:A6,12),1)": "30.50482124057945",
		"SUM(GROWTH(D1:D6))":              "63.00000000000002",
		"SUM(TREND(D1:D6,D1:D6))":         "63",
		"SUM(GROWTH(E1:E3,A1:A6))":        "#N/A",
	})
}

// TestCorpusTestsAndCashFlows checks F.TEST on a mixed range, T.TEST's
// error arrays, IRR by Newton's method and VDB's salvage above cost
// (LibreOffice 25.2's results; IRR's last case Microsoft's example).
func TestCorpusTestsAndCashFlows(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	for i, v := range []int{-70000, 12000, 15000, 18000, 21000, 26000} {
		require.NoError(t, f.SetCellValue("Sheet1", "K"+strconv.Itoa(i+1), v))
	}
	checkCorpusFormulas(t, f, map[string]string{
		"FTEST(C1:C6,D1:D6)":             "0.18075155509149787",
		"TTEST(E1:E3,D1:D6,1,3)":         "#N/A",
		"TTEST(A1:A6,E1:E3,1,3)":         "#N/A",
		"IRR(F4:F9,0.1)":                 "0.17638914889488067",
		"IRR(F4:F9)":                     "0.17638914889488067",
		"IRR(H5:H8,0.1)":                 "#NUM!",
		"IRR(C1:C6,0.1)":                 "-2.2331824914160143",
		"IRR(F4:F9,A4)":                  "#NUM!",
		"VDB(0.25,1000,5,1,2,2,FALSE)":   "#NUM!",
		"VDB(TRUE,1000,5,1,2,2,FALSE)":   "#NUM!",
		"CUMIPMT(H10,36,10000,1,12,0)":   "#NUM!",
		"CUMPRINC(-2.5,36,10000,1,12,0)": "#NUM!",
		"CUMPRINC(0,36,10000,1,12,0)":    "#NUM!",
		"CUMPRINC(0.01,A4,10000,1,12,0)": "#NUM!",
		"VDB(10000,1000,5,1,2,2,FALSE)":  "2400",
		"ROUND(IRR(K1:K6),3)":            "0.087",
		"ROUND(IRR(K1:K5),3)":            "-0.021",
	})
}

// TestCorpusScalarMath checks blanks read as 0, large arguments that must
// not overflow, the normal inverse's precision and DOLLARFR of a negative
// dollar (LibreOffice 25.2's results).
func TestCorpusScalarMath(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"DEGREES(H10)":      "0",
		"FISHER(H10)":       "0",
		"FISHERINV(1E+12)":  "1",
		"GAMMALN(1E+12)":    "26631021115915.652",
		"NORM.INV(0.9,0,1)": "1.2815515655446008",
		"NORMSINV(0.9)":     "1.2815515655446008",
		"DOLLARFR(-2.5,16)": "-2.08",
		"SUMSQ(C1:C6)":      "31.25",
		"SUMSQ(E1:E3)":      "#N/A",
		"SUMSQ(3,4)":        "25",
		"MROUND(10,0)":      "0",
	})
}
