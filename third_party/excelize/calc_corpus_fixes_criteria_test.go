package excelize

import "testing"

// TestCorpusFixesCriteria checks the criteria functions' ranges: a single
// cell is a range, the sum range takes the criteria range's shape from its
// upper-left cell, only numbers are summed, ranges of another shape are
// #VALUE!. Expected values: LibreOffice 25.2 (Err:502 is #VALUE!).
func TestCorpusFixesCriteria(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`SUMIF(A4,">2",D1:D6)`, CalcResultNumber, "1"},
		{`SUMIF(A1:A6,">2",A4)`, CalcResultNumber, "7"},
		{`SUMIF(G2:H3,">2",D1:D6)`, CalcResultError, "#DIV/0!"},
		{`SUMIF(A1:A6,">2")`, CalcResultNumber, "22.25"},
		{`AVERAGEIF(A4,">0",D1:D6)`, CalcResultNumber, "1"},
		{`AVERAGEIF(A1:A6,">0",{1,2;3,4})`, CalcResultNumber, "1"},
		{`AVERAGEIF(G1:I1,">0",D1:D6)`, CalcResultError, "#N/A"},
		{`SUMIFS(C1:C6,A1:A6,">0")`, CalcResultNumber, "3.5"},
		{`AVERAGEIFS(C1:C6,A1:A6,">0")`, CalcResultNumber, "1.16666666666667"},
		{`MAXIFS(C1:C6,A1:A6,">0")`, CalcResultNumber, "4"},
		{`MINIFS(D1:D6,H5:H8,">0")`, CalcResultError, "#VALUE!"},
		{`COUNTIFS(A4,">0",D1:D6,"<10")`, CalcResultError, "#VALUE!"},
		{`COUNTIFS(A1:A6,">0",D1:D6,"<10")`, CalcResultNumber, "2"},
	})
}
