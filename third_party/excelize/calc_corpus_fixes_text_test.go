package excelize

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusFixture is a workbook holding part of the formula corpus's data
// block (tests/oracle/formula_corpus_table.py): A1:A6 numbers, B1:B6 text
// with the text number "7" in B4, D1:D6 powers of two, E1:E3 error cells,
// F1 TRUE, G1:I1 a row; H5:H10 stay blank.
func corpusFixture(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	for ref, v := range map[string]any{
		"A1": 3, "A2": -1.5, "A3": 0, "A4": 7, "A5": 2.25, "A6": 10,
		"B1": "apple", "B2": "Banana", "B3": "cherry", "B4": "7", "B5": "a b c", "B6": "apple",
		"C1": 4, "C2": "text", "C4": 2.5, "C5": "5", "C6": -3,
		"D1": 1, "D2": 2, "D3": 4, "D4": 8, "D5": 16, "D6": 32,
		"F1": true, "F2": false, "G1": 5, "H1": 7, "I1": 9, "G2": 2, "H2": 1, "G3": 1, "H3": 3,
	} {
		require.NoError(t, f.SetCellValue("Sheet1", ref, v))
	}
	for ref, formula := range map[string]string{"E1": "NA()", "E2": "1/0", "E3": "\"a\"+1"} {
		require.NoError(t, f.SetCellFormula("Sheet1", ref, formula))
	}
	return f
}

// corpusCase is a formula and its result as LibreOffice 25.2 computes it
// on corpusFixture (or as Microsoft's function page documents it).
type corpusCase struct {
	formula string
	kind    CalcResultKind
	value   string
}

// checkCorpusCases computes every case in cell L1 of a fresh corpusFixture.
func checkCorpusCases(t *testing.T, cases []corpusCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.formula, func(t *testing.T) {
			f := corpusFixture(t)
			defer f.Close()
			require.NoError(t, f.SetCellFormula("Sheet1", "L1", c.formula))
			got, _ := f.CalcCellResultContext(context.Background(), "Sheet1", "L1", CalcLimits{}, Options{RawCellValue: true})
			assert.Equal(t, CalcResult{Kind: c.kind, Value: c.value}, got)
		})
	}
}

// TestCorpusFixesTyped checks the typed result: a text that looks like a
// number stays text, an empty text is not "no value", a reference to a
// blank cell is empty (0 in Excel). Expected values: LibreOffice 25.2.
func TestCorpusFixesTyped(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`IFERROR(B4,"fallback")`, CalcResultText, "7"},
		{`IFNA(E1,B4)`, CalcResultText, "7"},
		{`VLOOKUP(7,A1:B6,2,FALSE)`, CalcResultText, "7"},
		{`CLEAN("")`, CalcResultText, ""},
		{`IFNA(E1,"")`, CalcResultText, ""},
		{`H10`, CalcResultEmpty, ""},
		{`ISTEXT(B4)`, CalcResultBool, "TRUE"},
		{`FACTDOUBLE(7)`, CalcResultNumber, "105"},
		{`IMREAL("3+4i")`, CalcResultNumber, "3"},
		{`HYPERLINK("https://example.com",12)`, CalcResultNumber, "12"},
		{`SUM(A1:A6)`, CalcResultNumber, "20.75"},
	})
}

// TestCorpusFixesLogic checks the logical and choosing functions against
// LibreOffice 25.2.
func TestCorpusFixesLogic(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`NOT(H10)`, CalcResultBool, "TRUE"},
		{`CHOOSE(TRUE,"a","b","c")`, CalcResultText, "a"},
		{`CHOOSE(2.7,"a","b","c")`, CalcResultText, "b"},
		{`CHOOSE(0,"a","b")`, CalcResultError, "#VALUE!"},
		{`COUNTA(E1:E3)`, CalcResultNumber, "3"},
		{`XOR("x",FALSE)`, CalcResultError, "#VALUE!"},
		{`IFS(1>2,"a","x","b")`, CalcResultError, "#VALUE!"},
		{`IFS(1>2,"a",2,"b")`, CalcResultText, "b"},
		{`SWITCH(1/0,1,"one",2,"two","other")`, CalcResultError, "#DIV/0!"},
		{`SWITCH(E2,1,"one",2,"two","other")`, CalcResultError, "#DIV/0!"},
		{`HYPERLINK(E2,"site")`, CalcResultError, "#DIV/0!"},
	})
}

// TestCorpusFixesLookup checks LOOKUP, XLOOKUP and INDEX against
// LibreOffice 25.2 and Microsoft's documented behaviour.
func TestCorpusFixesLookup(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`LOOKUP("4",D1:D6,A1:A6)`, CalcResultError, "#N/A"},
		{`LOOKUP(1/0,D1:D6,A1:A6)`, CalcResultError, "#DIV/0!"},
		{`LOOKUP(5,D1:D6,A1:A6)`, CalcResultNumber, "0"},
		{`LOOKUP("b",B1:B3)`, CalcResultText, "apple"},
		{`XLOOKUP(5,D1:D6,A1:A6,,-1)`, CalcResultNumber, "0"},
		{`XLOOKUP(5,D1:D6,A1:A6,,1)`, CalcResultNumber, "7"},
		{`XLOOKUP(E2,A1:A6,B1:B6,"none",0,1)`, CalcResultError, "#DIV/0!"},
		{`XLOOKUP(7,A1:A6,B1:B6)`, CalcResultText, "7"},
		{`XLOOKUP(99,A1:A6,B1:B6)`, CalcResultError, "#N/A"},
		{`INDEX(G1:I1,2)`, CalcResultNumber, "7"},
		{`MATCH("4",D1:D6,1)`, CalcResultError, "#N/A"},
		{`MATCH("b",B1:B3,1)`, CalcResultNumber, "1"},
		{`MATCH(5,D1:D6,1)`, CalcResultNumber, "3"},
	})
}

// TestCorpusFixesText checks text functions against LibreOffice 25.2
// (Err:502 is #VALUE!) and Microsoft's function pages (FIXED's default of
// 2 decimals, TEXT with an empty format, ROMAN above 3999).
func TestCorpusFixesText(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`REPT(12,3)`, CalcResultText, "121212"},
		{`REPT(H10,3)`, CalcResultText, ""},
		{`REPT("ab",0.25)`, CalcResultText, ""},
		{`FIXED(1234.567)`, CalcResultText, "1,234.57"},
		{`TEXT(1234.567,H10)`, CalcResultText, ""},
		{`SEARCH("P","apple",H10)`, CalcResultError, "#VALUE!"},
		{`SEARCHB("P","apple",0)`, CalcResultError, "#VALUE!"},
		{`SEARCH("P","apple",2)`, CalcResultNumber, "2"},
		{`ROMAN(-2.5,0)`, CalcResultError, "#VALUE!"},
		{`ROMAN(1999,A4)`, CalcResultError, "#VALUE!"},
		{`ROMAN(4000)`, CalcResultError, "#VALUE!"},
		{`ROMAN(0,0)`, CalcResultText, ""},
		{`ROMAN(1999,0)`, CalcResultText, "MCMXCIX"},
		{`ARABIC(12)`, CalcResultError, "#VALUE!"},
		{`ARABIC(B4)`, CalcResultError, "#VALUE!"},
		{`ARABIC("MCMXCIX")`, CalcResultNumber, "1999"},
	})
}

// TestCorpusFixesDates checks that a date after 9999-12-31 (serial
// 2958465) is #NUM!, as Microsoft documents (LibreOffice: Err:502).
func TestCorpusFixesDates(t *testing.T) {
	checkCorpusCases(t, []corpusCase{
		{`YEAR(1E+12)`, CalcResultError, "#NUM!"},
		{`YEAR(2958465)`, CalcResultNumber, "9999"},
		{`DATEDIF(45292,1E+12,"m")`, CalcResultError, "#NUM!"},
		{`DAYS360(1E+12,45658,TRUE)`, CalcResultError, "#NUM!"},
		{`WORKDAY(45292,1E+12)`, CalcResultError, "#NUM!"},
		{`WORKDAY.INTL(1E+12,20,"0000011")`, CalcResultError, "#NUM!"},
		{`NETWORKDAYS.INTL(1E+12,45350,11)`, CalcResultError, "#NUM!"},
		{`YEARFRAC(1E+12,45658,1)`, CalcResultError, "#NUM!"},
		{`WORKDAY(45292,20)`, CalcResultNumber, "45320"},
		{`DATE(-2.5,3,15)`, CalcResultError, "#NUM!"},
		{`DATE(10000,1,1)`, CalcResultError, "#NUM!"},
		{`DATE(108,1,2)`, CalcResultNumber, "39449"},
		{`DATE(2024,1,1)`, CalcResultNumber, "45292"},
	})
}
