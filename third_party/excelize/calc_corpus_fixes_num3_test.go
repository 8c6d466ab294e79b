package excelize

import "testing"

// TestCorpusEmptyAndOutOfRange checks DEVSQ, TRIMMEAN and TTEST with no
// numbers or too few, DB with a salvage above the cost, PMT, IPMT and PPMT
// with a rate below -100%, and ENCODEURL of an empty text, on the corpus's
// data block. Expected values: LibreOffice 25.2 (its Err:502 as #NUM!).
func TestCorpusEmptyAndOutOfRange(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	checkCorpusFormulas(t, f, map[string]string{
		"DEVSQ(H5:H8)":             "#DIV/0!",
		"DEVSQ(A1:A6,E2)":          "#DIV/0!",
		"DEVSQ(E1:E3)":             "#N/A",
		"DEVSQ(A1:A6,H5:H8)":       "93.55208333333333",
		"TRIMMEAN(H5:H8,0.4)":      "#VALUE!",
		"TRIMMEAN(E1:E3,0.4)":      "#N/A",
		"TRIMMEAN(H5:H8,2)":        "#NUM!",
		"TRIMMEAN(C1:C6,0.4)":      "1.1666666666666667",
		"TRIMMEAN(A4,0.4)":         "7",
		"TTEST(A4,D1:D6,1,3)":      "#VALUE!",
		"TTEST(H5:H8,D1:D6,1,3)":   "#VALUE!",
		"TTEST(A4,A5,1,2)":         "#VALUE!",
		"TTEST(H5:H8,H5:H8,1,1)":   "#VALUE!",
		"TTEST({1,1},{2,2},2,3)":   "#VALUE!",
		"TTEST(A4,A5,1,1)":         "#DIV/0!",
		"TTEST(G2:H3,D1:D6,1,3)":   "0.06547706929207374",
		"DB(0.25,1000,5,2,7)":      "#NUM!",
		`DB("4",1000,5,2,7)`:       "#NUM!",
		"DB(0,5,5,2)":              "#NUM!",
		"DB(1000,1000,5,2)":        "0",
		"DB(1000,100,5,2)":         "232.839",
		"PPMT(-2.5,2,12,1000,0,1)": "#NUM!",
		"PMT(-1.5,12,1000)":        "#NUM!",
		"IPMT(-1.0001,2,12,1000)":  "#NUM!",
		"PMT(-1,12,1000)":          "0",
		"PMT(-0.5,12,1000)":        "-0.12210012210012218",
		"ENCODEURL(H10)":           "#VALUE!",
		`ENCODEURL("")`:            "#VALUE!",
		`ENCODEURL(" ")`:           "%20",
	})
}
