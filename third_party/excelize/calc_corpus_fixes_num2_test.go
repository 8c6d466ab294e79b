package excelize

import "testing"

// TestCorpusMathArguments checks rounding, combinations, matrices and the
// statistical reading of PRODUCT, MAX, MIN and GEOMEAN: LibreOffice 25.2's
// results on the corpus's data block, and Microsoft's examples on the
// functions' pages.
func TestCorpusMathArguments(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"ROUNDDOWN(2.567,A4)":              "2.567",
		"ROUNDUP(2.567,A4)":                "2.567",
		"ROUNDDOWN(3.14159,3)":             "3.141", // Microsoft's ROUNDDOWN page
		"COMBINA(1E+12,3)":                 "1.6666666666716664E+35",
		"COMBINA(4,3)":                     "20", // Microsoft's COMBINA page
		"COMBIN(8,2)":                      "28", // Microsoft's COMBIN page
		"PERMUTATIONA(3,2)":                "9",  // Microsoft's PERMUTATIONA page
		"PERMUTATIONA(3)":                  "#VALUE!",
		"FLOOR.MATH(-2.5,1,0)":             "-3",
		"FLOOR.MATH(-5.5,2,-1)":            "-4",  // Microsoft's FLOOR.MATH page
		"FLOOR.MATH(-8.1,2)":               "-10", // Microsoft's FLOOR.MATH page
		"FLOOR.MATH(24.3,5)":               "20",  // Microsoft's FLOOR.MATH page
		"PRODUCT(E1:E3,2)":                 "#N/A",
		"PRODUCT(A1:A6,\"4\")":             "0",
		"PRODUCT(D1:D6)":                   "32768",
		"PRODUCT(H5:H8)":                   "0",
		"SUMPRODUCT(C1:C6,D1:D6)":          "-72",
		"SUMPRODUCT(D1:D3,E1:E3)":          "#N/A",
		"SUM(MINVERSE(A4))":                "0.14285714285714285",
		"MINVERSE(B4)":                     "#VALUE!",
		"INDEX(MINVERSE({4,-1;2,0}),2,1)":  "-1", // Microsoft's MINVERSE page
		"SUM(MUNIT(0))":                    "#VALUE!",
		"SUM(MUNIT(0.25))":                 "#VALUE!",
		"SUM(MUNIT(1E+12))":                "#VALUE!",
		"SUM(MUNIT(3.5))":                  "3",
		"AGGREGATE(4,6,E1:E3,A1:A6)":       "10", // option 6 ignores errors
		"AGGREGATE(4,4,E1:E3,A1:A6)":       "#N/A",
		"AGGREGATE(6,7,E1:E3,D1:D3)":       "8",
		"AGGREGATE(9,6)":                   "#VALUE!",
		"MAX(A1:A6,\"abc\")":               "#VALUE!",
		"MAX(A1:A6,\"12\")":                "12",
		"MIN(E1:E3,5)":                     "#N/A",
		"MAX(F1:F2)":                       "0",
		"MAXA(F1:F2,-1)":                   "1",
		"GEOMEAN(E1:E3)":                   "#N/A",
		"GEOMEAN(A1:A6)":                   "#NUM!",
		"ROUND(GEOMEAN(4,5,8,7,11,4,3),6)": "5.476987", // Microsoft's GEOMEAN page
	})
}

// TestCorpusDistributionBounds checks the bounds the distribution
// functions document (0 and 1 are valid probabilities), errors passed on,
// and large arguments: LibreOffice 25.2's results and Microsoft's examples.
func TestCorpusDistributionBounds(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"CORREL(A1:A6,D1:D6)":                         "0.7566981743663931",
		"CORREL(C1:C6,D1:D6)":                         "-0.9999274685708276",
		"CORREL(E1:E3,D1:D3)":                         "#N/A",
		"ROUND(CORREL({3,2,4,5,6},{9,7,12,15,17}),9)": "0.997054486", // Microsoft's CORREL page
		"COVARIANCE.P(C1:C6,D1:D6)":                   "-39.94444444444445",
		"COVARIANCE.P(A1:A6,C1:C6)":                   "-7.9444444444444455",
		"COVARIANCE.P({3,2,4,5,6},{9,7,12,15,17})":    "5.2", // Microsoft's COVARIANCE.P page
		"PROB(E1:E3,{0.2;0.3;0.5},0,3)":               "#N/A",
		"PROB(A4,{0.2;0.3;0.5},0,3)":                  "#N/A",
		"PROB({0,1,2,3},{0.2,0.3,0.1,0.4},1,3)":       "0.8", // Microsoft's PROB page
		"WEIBULL.DIST(-2.5,3,4,FALSE)":                "#NUM!",
		"ROUND(WEIBULL.DIST(105,20,100,TRUE),6)":      "0.929581", // Microsoft's WEIBULL.DIST page
		"GAMMA.DIST(1E+12,2,1.5,TRUE)":                "1",
		"GAMMA.DIST(3,2,1.5,TRUE)":                    "0.5939941502901617",
		"ROUND(GAMMA.DIST(10.00001131,9,2,TRUE),6)":   "0.068094", // Microsoft's GAMMA.DIST page
		"BETAINV(TRUE,2,3,0,1)":                       "1",
		"ROUND(BETA.INV(0.685470581,8,10,1,3),6)":     "2", // Microsoft's BETA.INV page
		"BINOM.INV(10,TRUE,0.5)":                      "10",
		"CRITBINOM(10,H10,0.5)":                       "0",
		"CRITBINOM(10,0.4,TRUE)":                      "10",
		"BINOM.INV(6,0.5,0.75)":                       "4", // Microsoft's BINOM.INV page
		"POISSON(1E+12,2.5,TRUE)":                     "1",
		"POISSON(3,2.5,TRUE)":                         "0.757576133133066",
		"POISSON(-1,2.5,TRUE)":                        "#NUM!",
		"ROUND(POISSON.DIST(2,5,TRUE),6)":             "0.124652", // Microsoft's POISSON.DIST page
		"CHIDIST(3,0.25)":                             "#NUM!",
		"CHIDIST(3,1E+12)":                            "#NUM!",
		"CHISQ.DIST.RT(3,H10)":                        "#NUM!",
		"ROUND(CHIDIST(18.307,10),7)":                 "0.0500006", // Microsoft's CHIDIST page
		"CHISQ.TEST(D1:D3,G1:I1)":                     "#N/A",
		"CHITEST(E1:E3,D4:D6)":                        "#N/A",
		"CHITEST(D1:D3,E1:E3)":                        "#N/A",
		"Z.TEST(C1:C6,2,1.5)":                         "0.8320380935329288",
		"ZTEST(H5:H8,2,1.5)":                          "#N/A",
		"ROUND(Z.TEST({3,6,7,8,6,5,4,2,1,9},4),6)":    "0.090574", // Microsoft's Z.TEST page
	})
}

// TestCorpusEngineeringArguments checks the base conversions' empty text,
// the bitwise functions' text and IMCSCH's 15th digit (LibreOffice 25.2's
// results).
func TestCorpusEngineeringArguments(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		`BIN2HEX("",4)`:    "0000",
		`BIN2OCT("",4)`:    "0000",
		`OCT2BIN("",8)`:    "00000000",
		`OCT2HEX("",4)`:    "0000",
		"BIN2DEC(H10)":     "0",
		"BIN2DEC(E1)":      "#N/A",
		`BIN2DEC("abc")`:   "#VALUE!",
		`BITAND("abc",10)`: "#VALUE!",
		`BITOR(12,"abc")`:  "#VALUE!",
		"BITAND(13,25)":    "9", // Microsoft's BITAND page
		`IMCSCH("1+i")`:    "0.303931001628426-0.621518017170428i",
		"IMCSCH(0)":        "#NUM!",
	})
}

// TestCorpusFinancialArguments checks the financial fixes: LibreOffice
// 25.2's results, Microsoft's examples, and for IPMT and PPMT the exact
// values (rational arithmetic) where LibreOffice loses digits.
func TestCorpusFinancialArguments(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"ACCRINTM(45292,45658,0.05)":                   "50",
		"ACCRINTM(45292,1E+12,0.05,1000,0)":            "#VALUE!",
		"ROUND(ACCRINTM(39539,39614,0.1,1000,3),8)":    "20.54794521", // Microsoft's ACCRINTM page
		"COUPDAYSNC(45366,1E+12,2,1)":                  "#VALUE!",
		"AMORDEGRC(2400,45292,45657,300,1,0.15,1)":     "563",
		"AMORLINC(2400,45292,45657,300,1,0.15)":        "360",
		"AMORDEGRC(2400,39679,39813,300,1,0.15,1)":     "776", // Microsoft's AMORDEGRC page
		"CUMIPMT(1E+12,36,10000,1,12,0)":               "#NUM!",
		"ROUND(CUMIPMT(0.09/12,360,125000,13,24,0),2)": "-11135.23", // Microsoft's CUMIPMT page
		"DDB(0,1000,5,2,1.5)":                          "#NUM!",
		"DDB(2400,300,10,2)":                           "384", // Microsoft's DDB page
		"IPMT(1E+12,2,12,1000,0,1)":                    "-999.999999999",
		"PPMT(A4,2,12,1000,0,1)":                       "-1.0186340660005027E-07",
		"ROUND(IPMT(0.1/12,1,36,8000),2)":              "-66.67", // Microsoft's IPMT page
		"ROUND(PPMT(0.1/12,1,24,2000),2)":              "-75.62", // Microsoft's PPMT page
		"IPMT(0.1,3,12,1000,200,1)":                    "-80.19604054066146",
		"PPMT(0.1,3,12,1000,200,1)":                    "-61.72757593237924",
		"PPMT(0.1,1,12,1000,200,1)":                    "-141.92361647304068",
		"RATE(-2.5,-100,1000,0,0,0.1)":                 "#NUM!",
		"RATE(12,-100,0,0,0,0.1)":                      "#NUM!",
		"ROUND(RATE(48,-200,8000),4)":                  "0.0077", // Microsoft's RATE page
		`SYD("abc",1000,5,2)`:                          "#VALUE!",
	})
}
