package tools

import (
	"archive/zip"
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// formulaBook writes a workbook whose formulas all carry cached values:
// Sheet1 B1 = SUM(A1:A3), E1:E3 a shared A1*2, and extra (a formula of
// Sheet1, or nothing); Other!A1 = Sheet1!D5+1.
func formulaBook(t *testing.T, path, extra string) {
	t.Helper()
	f := excelize.NewFile()
	_, err := f.NewSheet("Other")
	require.NoError(t, err)
	require.NoError(t, f.SaveAs(path))
	require.NoError(t, f.Close())
	sheets := map[string]string{
		"xl/worksheets/sheet1.xml": `<row r="1"><c r="A1"><v>1</v></c><c r="B1"><f>SUM(A1:A3)</f><v>6</v></c><c r="E1"><f t="shared" ref="E1:E3" si="0">A1*2</f><v>2</v></c></row>` +
			`<row r="2"><c r="A2"><v>2</v></c><c r="E2"><f t="shared" si="0"/><v>4</v></c></row>` +
			`<row r="3"><c r="A3"><v>3</v></c><c r="E3"><f t="shared" si="0"/><v>6</v></c></row>` + extra,
		"xl/worksheets/sheet2.xml": `<row r="1"><c r="A1"><f>Sheet1!D5+1</f><v>1</v></c></row>`,
	}
	rewriteZip(t, path, func(zw *zip.Writer, name string) (bool, error) {
		rows, ok := sheets[name]
		if !ok {
			return false, nil
		}
		w, err := zw.Create(name)
		if err != nil {
			return true, err
		}
		_, err = w.Write(sheetXML("A1:E9", rows))
		return true, err
	})
}

// TestSpliceValueWritesBesideFormulas: a write into a workbook with
// formulas takes the splice path unless a formula it must recompute may
// read anything (a volatile function, a defined name) or it replaces a
// shared formula's master: a value no formula reads splices at once, and
// the recalc splice (splicepath/recalc.go) recomputes the cached values of
// formulas that read the write, on every sheet, of formulas without one,
// and of written formulas. Either way the workbook ends cell for cell
// (value, formula, type) as the excelize path leaves it.
func TestSpliceValueWritesBesideFormulas(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	for _, c := range []struct {
		name   string
		extra  string
		args   map[string]any
		splice bool
	}{
		{"a cell no formula reads", "", map[string]any{"cell": "F10", "value": 7}, true},
		{"next to a shared group, outside its reach", "", map[string]any{"cell_range": "C3", "values": [][]any{{"x", "2024-01-31"}}}, true},
		{"read by SUM", "", map[string]any{"cell": "A2", "value": 10}, true},
		{"read by a shared member only", "", map[string]any{"cell": "A3", "value": 5}, true},
		{"read from another sheet", "", map[string]any{"cell": "D5", "value": 5}, true},
		{"a value over a formula cell", "", map[string]any{"cell": "B1", "value": 0}, true},
		{"a value over a shared member", "", map[string]any{"cell": "E2", "value": "x"}, true},
		{"a formula over a shared master", "", map[string]any{"cell": "E1", "value": "=A1*3"}, false},
		{"a volatile formula anywhere", `<row r="9"><c r="H9"><f>INDIRECT("Z1")</f><v>0</v></c></row>`, map[string]any{"cell": "F10", "value": 7}, false},
		{"a defined name anywhere", `<row r="9"><c r="H9"><f>Rate*2</f><v>0</v></c></row>`, map[string]any{"cell": "F10", "value": 7}, false},
		{"a formula without a cached value", `<row r="9"><c r="H9"><f>A1+1</f></c></row>`, map[string]any{"cell": "F10", "value": 7}, true},
		{"read by a qualified reference to its own sheet", `<row r="9"><c r="H9"><f>sheet1!$G$5*2</f><v>0</v></c></row>`, map[string]any{"cell": "G5", "value": 7}, true},
		{"a whole-column reference", `<row r="9"><c r="H9"><f>SUM(F:F)</f><v>0</v></c></row>`, map[string]any{"cell": "F10", "value": 7}, true},
		{"formulas of every result type", "", map[string]any{"cell_range": "F1", "values": [][]any{{"=A1+A2", `=A1&"x"`, "=A1>2", "=1/0", `=TEXT(A3,"000")`}}}, true},
		{"a formula reading a chain of formulas", "", map[string]any{"cell_range": "F2", "values": [][]any{{"=B1+E3+Other!A1", "=F2*2"}}}, true},
		{"a formula and the value it reads", "", map[string]any{"cell_range": "F3", "values": [][]any{{4, "=F3*A3"}}}, true},
		{"a formula over a formula", "", map[string]any{"cell": "B1", "value": "=MAX(A1:A3)"}, true},
		{"a formula read by another sheet", "", map[string]any{"cell": "D5", "value": "=TEXTJOIN(\"-\",TRUE,A1:A3)"}, true},
		{"whole columns and rows, clamped alike", `<row r="12"><c r="J12"><v>1</v></c></row>`, map[string]any{"cell_range": "F4", "values": [][]any{{"=COUNTBLANK(A:A)", "=ROWS(A:A)", "=COUNTBLANK(3:3)", "=SUM(E:E)"}}}, true},
		{"a formula the engine cannot compute", "", map[string]any{"cell": "F5", "value": `=WEBSERVICE(A1)`}, true},
		{"a formula whose names a LET binds", "", map[string]any{"cell": "F5", "value": "=LET(x,A1,x+1)"}, true},
		{"a value a LAMBDA's formula reads", `<row r="9"><c r="H9"><f>_xlfn.LAMBDA(_xlpm.v,_xlpm.v*2)(A2)</f><v>4</v></c></row>`, map[string]any{"cell": "A2", "value": 5}, true},
		{"a circular reference", "", map[string]any{"cell": "A5", "value": "=COUNTA(A:A)"}, false},
		{"beside an array formula", `<row r="9"><c r="H9"><f t="array" ref="H9:H10">A1:A2*2</f><v>2</v></c></row><row r="10"><c r="H10"><v>4</v></c></row>`, map[string]any{"cell_range": "F10", "values": [][]any{{7, "=F10+1"}}}, true},
		{"a value an array formula reads", `<row r="9"><c r="H9"><f t="array" ref="H9:H10">A1:A2*2</f><v>2</v></c></row><row r="10"><c r="H10"><v>4</v></c></row>`, map[string]any{"cell": "A2", "value": 5}, false},
		{"over an array formula", `<row r="9"><c r="H9"><f t="array" ref="H9:H10">A1:A2*2</f><v>2</v></c></row><row r="10"><c r="H10"><v>4</v></c></row>`, map[string]any{"cell_range": "H9", "values": [][]any{{1}, {2}}}, false}, // the whole array: part of one is refused
		{"a cycle through two formulas", "", map[string]any{"cell_range": "F7", "values": [][]any{{"=G7+1", "=F7+1"}}}, false},
		{"a cycle through an existing formula", `<row r="9"><c r="H9"><f>H10*2</f><v>0</v></c></row>`, map[string]any{"cell": "H10", "value": "=H9+1"}, false},
		{"a formula reading one it cannot compute", `<row r="9"><c r="H9"><f>ISOMITTED(A1)</f><v>0</v></c></row>`, map[string]any{"cell": "F6", "value": "=H9"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			seed := filepath.Join(t.TempDir(), "seed.xlsx")
			formulaBook(t, seed, c.extra)
			assert.Equal(t, c.splice, writeBothWays(t, seed, c.args, []string{"Sheet1", "Other"}), "took the splice path")
		})
	}
}

// writeBothWays runs write_cells with args on two copies of the workbook
// seed, through the splice path and through the excelize path, requires
// the two results to hold the same value, formula and type in every cell
// of sheets (rows 1-12, columns A-J) and the recalculation flag when
// formulas remain, and reports whether the first call took the splice path.
func writeBothWays(t *testing.T, seed string, with map[string]any, sheets []string) bool {
	t.Helper()
	return writeBothWaysThen(t, seed, with, sheets, nil)
}

// writeBothWaysThen is writeBothWays calling then, when not nil, with the
// path of each result: the splice path's first.
func writeBothWaysThen(t *testing.T, seed string, with map[string]any, sheets []string, then func(path string)) bool {
	t.Helper()
	splicedPath := ""
	books, spliced := writeOnBothPaths(t, seed, with, func(on bool, path string) {
		if then != nil {
			then(path)
		}
		if on {
			splicedPath = path
		}
	})
	if requireSameCells(t, books[true], books[false], sheets, 12, 10, false, fmt.Sprint(with)) && !sameWorkbookPart(t, seed, splicedPath) {
		// A splice that changed no formula value keeps workbook.xml byte for
		// byte; one that recomputed values marks the workbook for
		// recalculation on open, as the excelize path does.
		calc, err := books[true].GetCalcProps()
		require.NoError(t, err)
		assert.True(t, calc.FullCalcOnLoad != nil && *calc.FullCalcOnLoad, "recalculated on open, as the excelize path marks it")
	}
	return spliced
}

// writeOnBothPaths copies the workbook at seed and calls write_cells with
// the arguments with on it twice, the splice path enabled and then
// disabled, each in a workspace of its own with write_cells alone; then,
// when not nil, sees each result's path (the splice path's first). It
// returns both results opened, by whether the splice path was enabled,
// and whether the first write took it.
func writeOnBothPaths(t *testing.T, seed string, with map[string]any, then func(on bool, path string)) (books map[bool]*excelize.File, spliced bool) {
	t.Helper()
	books = map[bool]*excelize.File{}
	data, err := os.ReadFile(seed)
	require.NoError(t, err)
	for _, on := range []bool{true, false} {
		saves := newSavesLog()
		e := newEnvOf(t, t.TempDir(), []string{"write_cells"}, WithSplice(on), WithLogger(saves.log))
		require.NoError(t, os.WriteFile(e.path("f.xlsx"), data, 0o644))
		args := map[string]any{"file_path": "f.xlsx"}
		for k, v := range with {
			args[k] = v
		}
		e.ok("write_cells", args)
		if then != nil {
			then(on, e.path("f.xlsx"))
		}
		if on {
			spliced = saves.spliced() > 0
		}
		books[on] = e.open("f.xlsx")
	}
	return books, spliced
}

// sameWorkbookPart reports whether xl/workbook.xml of the workbooks at a
// and b holds the same bytes.
func sameWorkbookPart(t *testing.T, a, b string) bool {
	t.Helper()
	return part(t, a, "xl/workbook.xml") == part(t, b, "xl/workbook.xml")
}

// TestPlainSpliceKeepsEveryOtherPart: a value write that no formula reads,
// into a workbook whose other sheet holds formulas with cached values,
// changes only the written sheet's part; workbook.xml is not marked for
// recalculation, since every cached value is still true.
func TestPlainSpliceKeepsEveryOtherPart(t *testing.T) {
	saves := newSavesLog()
	e := newEnv(t, WithLogger(saves.log))
	e.workbook("f.xlsx", [][]any{{1}, {2}, {3}})
	e.ok("write_cells", map[string]any{"file_path": "f.xlsx", "sheet_name": "Totals", "cell": "A1", "value": "=SUM(Sheet1!A1:A3)", "create": true})
	before := zipParts(t, e.path("f.xlsx"))
	saves.spliced()
	e.ok("write_cells", map[string]any{"file_path": "f.xlsx", "sheet_name": "Sheet1", "cell": "C10", "value": 42})
	require.Equal(t, 1, saves.spliced(), "the write takes the splice path")
	after := zipParts(t, e.path("f.xlsx"))
	require.Equal(t, len(before), len(after))
	var changed []string
	for name, data := range after {
		if !bytes.Equal(before[name], data) {
			changed = append(changed, name)
		}
	}
	slices.Sort(changed)
	assert.Equal(t, []string{"xl/worksheets/sheet1.xml"}, changed)
	v, err := e.open("f.xlsx").GetCellValue("Totals", "A1")
	require.NoError(t, err)
	assert.Equal(t, "6", v, "the cached total is kept")
}

// zipParts is every entry of the zip at path by name.
func zipParts(t *testing.T, path string) map[string][]byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	out := map[string][]byte{}
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		data, err := io.ReadAll(rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
		out[f.Name] = data
	}
	return out
}
