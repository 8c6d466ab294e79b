// registry-sidecar: tests of ASC, JIS and PHONETIC (calc_text_width.go) and
// CELL (calc_cell_info.go). Run them with
// go test ./third_party/excelize -run TextCell.
// Expected values are Microsoft's documented examples (ASC, JIS, CELL,
// PHONETIC) and LibreOffice 25.2's results for the same formulas where it
// computes them (ASC, JIS, CELL).

package excelize

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// textCellBook is the workbook the table tests compute on:
//
//	A1 75   A2 "Hello, world!"   A3 empty   A4 =1/0   A5 TRUE   A6 =""
//	B1 "ＥＸＣＥＬ"   Other!A1 "x"
func textCellBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	for cell, v := range map[string]any{"A1": 75, "A2": "Hello, world!", "A5": true, "B1": "ＥＸＣＥＬ"} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "A4", "1/0"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A6", `""`))
	_, err := f.NewSheet("Other")
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Other", "A1", "x"))
	return f
}

func TestTextCellASC(t *testing.T) {
	checkModern(t, textCellBook(t), map[string]string{
		`ASC("ＥＸＣＥＬ")`:      "EXCEL", // Microsoft's examples
		`ASC("エクセル")`:       "ｴｸｾﾙ",
		`_xlfn.ASC("エクセル")`: "ｴｸｾﾙ",
		`ASC("ガパ゛")`:        "ｶﾞﾊﾟﾞ", // voiced katakana become two runes (LibreOffice)
		`ASC("ヴ")`:          "ｳﾞ",
		`ASC("１２３　ａ！～")`:    "123 a!~",
		`ASC("abc 漢字")`:     "abc 漢字", // nothing narrower: unchanged
		`ASC(B1)`:           "EXCEL",
		`ASC(A1)`:           "75",
		`ASC(A3)`:           "",
		`ASC(A5)`:           "TRUE",
		`ASC(1/0)`:          "#DIV/0!",
		`ASC(A4)`:           "#DIV/0!",
		`LEN(ASC("ガ"))`:     "2",
	})
}

func TestTextCellJIS(t *testing.T) {
	checkModern(t, textCellBook(t), map[string]string{
		`JIS("EXCEL")`:       "ＥＸＣＥＬ", // Microsoft's examples
		`JIS("ｴｸｾﾙ")`:        "エクセル",
		`_xlfn.JIS("ｴｸｾﾙ")`:  "エクセル",
		`JIS("ｶﾞﾊﾟ")`:        "ガパ", // a katakana and its sound mark compose (LibreOffice)
		`JIS("ｱﾞ")`:          "ア゛", // no voiced ア: the spacing mark (LibreOffice)
		`JIS("ﾞ")`:           "゛",
		`JIS("a~1")`:         "ａ～１",
		`JIS("エクセル")`:        "エクセル",
		`JIS(ASC("ガパヴ"))`:    "ガパヴ",
		`JIS(A1)`:            "７５",
		`JIS(A3)`:            "",
		`JIS(1/0)`:           "#DIV/0!",
		`LEN(JIS("ｶﾞｶﾞｶﾞ"))`: "3",
	})
}

func TestTextCellCELL(t *testing.T) {
	checkModern(t, textCellBook(t), map[string]string{
		`CELL("row",A20)`:                  "20", // Microsoft's examples
		`CELL("contents",A2)`:              "Hello, world!",
		`CELL("type",A2)`:                  "l",
		`CELL("address",A1)`:               "$A$1",
		`CELL("address",B7:C9)`:            "$B$7", // the rest as LibreOffice computes them
		`CELL("col",C1:D4)`:                "3",
		`CELL("row",INDEX(A1:A5,3))`:       "3", // INDEX returns a reference
		`CELL("address",INDEX(B7:D9,0,2))`: "$C$7",
		`CELL("row",A4)`:                   "4",
		`CELL("contents",A3)`:              "0",
		`CELL("contents",A4)`:              "#DIV/0!",
		`CELL("contents",A5)`:              "TRUE",
		`CELL("contents",A1:A2)`:           "75",
		`CELL("type",A3)`:                  "b",
		`CELL("type",A1)`:                  "v",
		`CELL("type",A4)`:                  "v",
		`CELL("TYPE",A5)`:                  "v",
		`CELL("type",A6)`:                  "l",
		`CELL("col",Other!C2)`:             "3",
		`CELL("contents",Other!A1)`:        "x",
		`CELL("bogus",A1)`:                 "#VALUE!",
		`CELL(1,A1)`:                       "#VALUE!",
		`CELL(1/0,A1)`:                     "#DIV/0!",
	})
}

// TestTextCellUncomputed: what depends on the host (the file name, the cell
// last changed) or on formats is left uncomputed, not taken for an error.
func TestTextCellUncomputed(t *testing.T) {
	f := textCellBook(t)
	for _, formula := range []string{
		`CELL("filename",A1)`, `CELL("format",A1)`, `CELL("width",A1)`, `CELL("protect",A1)`,
		`CELL("row")`, `CELL("address",Other!A1)`, `CELL("row",5)`,
		`ASC(A1:A2)`, `JIS(A1:A2)`, `PHONETIC(INDEX(A1:C5,2,1))`, `PHONETIC("x")`,
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		_, err := f.CalcCellValue("Sheet1", "Z1")
		require.Error(t, err, formula)
		assert.Contains(t, err.Error(), "not supported", formula+": not taken for an Excel error")
	}
}

// phoneticBook is a workbook saved and opened again whose A1 holds 東京都
// with readings トウキョウ for 東京 and ト for 都, A2 東京タワー with a
// reading for 東京 only, A3 plain text and A4 a number.
func phoneticBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	for cell, v := range map[string]any{"A1": "東京都", "A2": "東京タワー", "A3": "plain", "A4": 12} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	sst, err := f.sharedStringsReader()
	require.NoError(t, err)
	readings := map[string][]*xlsxPhoneticRun{
		"東京都":   {{Sb: 0, Eb: 2, T: "トウキョウ"}, {Sb: 2, Eb: 3, T: "ト"}},
		"東京タワー": {{Sb: 0, Eb: 2, T: "トウキョウ"}},
	}
	for i := range sst.SI {
		sst.SI[i].RPh = readings[sst.SI[i].String()]
	}
	buf, err := f.WriteToBuffer()
	require.NoError(t, err)
	g, err := OpenReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	return g
}

func TestTextCellPHONETIC(t *testing.T) {
	f := phoneticBook(t)
	checkModern(t, f, map[string]string{
		"PHONETIC(A1)":             "トウキョウト",
		"PHONETIC(A2)":             "トウキョウタワー", // text without a reading is kept
		"PHONETIC(A1:A2)":          "トウキョウト",   // the first cell
		"PHONETIC(INDEX(A1:A2,2))": "トウキョウタワー", // INDEX returns a reference
		"PHONETIC(A3)":             "plain",
		"PHONETIC(A4)":             "12",
		"PHONETIC(A9)":             "",
		"_xlfn.PHONETIC(A1)":       "トウキョウト",
	})
	sst, err := f.sharedStringsReader()
	require.NoError(t, err)
	found := false
	for _, si := range sst.SI {
		found = found || len(si.RPh) > 0
	}
	assert.True(t, found, "the readings survive the save")
}

func TestTextCellGuard(t *testing.T) {
	f := textCellBook(t)
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", `JIS(REPT("a",30000))`))
	_, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 50000})
	assert.ErrorIs(t, err, ErrCalcLimit, "the widened text is charged before it is built")
	got, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 24})
	require.NoError(t, err)
	assert.Equal(t, strings.Repeat("ａ", 30000), got)
}
