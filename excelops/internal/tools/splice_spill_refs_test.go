package tools

import (
	"path/filepath"
	"regexp"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spillRefSeed writes at path a workbook whose formulas read spills and
// bind names: numbers 3, 1, 4, 1, 5 in Sheet1!A1:A5, an anchor in H1
// filtering them (H1:H3), formulas reading its spill reference on Sheet1
// (I1, I2), dynamic arrays of it after it (K1, over K1:K3) and before it
// in the sheet's order (B1, over B1:B3) and on the sheet Report (A1, A2);
// a LET in E1 and a MAP of a LAMBDA in F1 (over F1:F3), all written
// through the excelize path, as Excel would hold them.
func spillRefSeed(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	for i, v := range []int{3, 1, 4, 1, 5} {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(1, i+1), v))
	}
	_, err := f.NewSheet("Report")
	require.NoError(t, err)
	require.NoError(t, f.SaveAs(path))
	require.NoError(t, f.Close())
	e := newEnvOf(t, filepath.Dir(path), []string{"write_cells"}, WithSplice(false))
	name := filepath.Base(path)
	for _, w := range []struct{ sheet, cell, formula string }{
		{"Sheet1", "H1", "=FILTER(A1:A5,A1:A5>2)"},
		{"Sheet1", "I1", "=SUM(H1#)"},
		{"Sheet1", "I2", "=ROWS(H1#)"},
		{"Sheet1", "K1", "=H1#*2"},
		{"Sheet1", "B1", "=H1#*10"},
		{"Report", "A1", "=SUM(Sheet1!H1#)"},
		{"Report", "A2", "=COUNT(Sheet1!$H$1#)*10"},
		{"Sheet1", "E1", "=LET(x,A1*2,x+1)"},
		{"Sheet1", "F1", "=MAP(A1:A3,LAMBDA(v,v*2))"},
	} {
		e.ok("write_cells", map[string]any{"file_path": name, "sheet_name": w.sheet, "cell": w.cell, "value": w.formula})
	}
}

// TestSpliceSpillReferences: formulas reading a spill reference (H1#) and
// formulas binding names with LET or LAMBDA are computed on the splice
// path, which leaves the workbook cell for cell as the excelize path
// leaves it, with no fallback: a spill that grows or shrinks, or turns to
// #SPILL!, recomputes its readers on its own sheet and on another, and a
// dynamic array of it spills again after it, wherever it lies; formulas
// written with a spill reference or a LET or LAMBDA are computed.
func TestSpliceSpillReferences(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	spillRefSeed(t, seed)
	for _, c := range []struct {
		name string
		args map[string]any
		want map[string]string // Sheet!cell -> value after the write
	}{
		{"the spill grows", map[string]any{"cell": "A2", "value": 10},
			map[string]string{"Sheet1!H4": "5", "Sheet1!I1": "22", "Sheet1!I2": "4", "Sheet1!K4": "10", "Sheet1!B2": "100", "Sheet1!B4": "50", "Report!A1": "22", "Report!A2": "40"}},
		{"the spill shrinks", map[string]any{"cell": "A1", "value": 0},
			map[string]string{"Sheet1!H3": "", "Sheet1!I1": "9", "Sheet1!I2": "2", "Sheet1!K3": "", "Sheet1!B1": "40", "Sheet1!B3": "", "Report!A1": "9", "Report!A2": "20", "Sheet1!E1": "1"}},
		{"a value in the spill", map[string]any{"cell": "H2", "value": "x"},
			map[string]string{"Sheet1!H1": "#SPILL!", "Sheet1!H3": "", "Sheet1!B2": ""}},
		{"LET and MAP read the write", map[string]any{"cell": "A3", "value": 6},
			map[string]string{"Sheet1!F3": "12", "Sheet1!I1": "14", "Sheet1!E1": "7"}},
		{"a LET reads the write", map[string]any{"cell": "A1", "value": 2},
			map[string]string{"Sheet1!E1": "5", "Sheet1!F1": "4", "Sheet1!H1": "4", "Sheet1!I1": "9"}},
		{"a new formula in the anchor", map[string]any{"cell": "H1", "value": "=SEQUENCE(5)"},
			map[string]string{"Sheet1!H5": "5", "Sheet1!I1": "15", "Sheet1!I2": "5", "Sheet1!B5": "50", "Sheet1!K5": "10", "Report!A2": "50"}},
		{"a written spill reference", map[string]any{"cell": "I3", "value": "=SUM(H1#)*2"},
			map[string]string{"Sheet1!I3": "24"}},
		{"a written spill reference on another sheet", map[string]any{"sheet_name": "Report", "cell": "B1", "value": "=MAX(Sheet1!H1#)+ROWS(Sheet1!K1#)"},
			map[string]string{"Report!B1": "8"}},
		{"a written LET", map[string]any{"cell": "E2", "value": "=LET(x,A1*2,x+1)"},
			map[string]string{"Sheet1!E2": "7"}},
		{"a written MAP", map[string]any{"cell": "G1", "value": "=MAP(A1:A3,LAMBDA(v,v*2))"},
			map[string]string{"Sheet1!G3": "8"}},
		{"a value nothing reads", map[string]any{"cell": "Z9", "value": 1},
			map[string]string{"Sheet1!I1": "12", "Report!A2": "30"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			books, spliced := writeOnBothPaths(t, seed, c.args, nil)
			assert.True(t, spliced, "took the splice path")
			requireSameCells(t, books[true], books[false], []string{"Sheet1", "Report"}, 8, 12, false, c.name)
			assert.Equal(t, anchorRefs(t, books[false], "Sheet1", 8, 12), anchorRefs(t, books[true], "Sheet1", 8, 12), "the anchors")
			for at, want := range c.want {
				sheet, cell := splitSheetCell(t, at)
				got, err := books[true].GetCellValue(sheet, cell)
				require.NoError(t, err)
				assert.Equal(t, want, got, at)
			}
			assert.Empty(t, fallbackOf(t, seed, c.args), "the fallback's reason")
		})
	}
}

// splitSheetCell splits "Sheet!A1".
func splitSheetCell(t *testing.T, at string) (sheet, cell string) {
	t.Helper()
	for i := len(at) - 1; i >= 0; i-- {
		if at[i] == '!' {
			return at[:i], at[i+1:]
		}
	}
	t.Fatalf("no sheet in %q", at)
	return "", ""
}

// crossSheetSpillSeed writes at path a workbook whose dynamic arrays lie
// on another sheet than the cells they read: numbers 3, 1, 4, 1, 5 in
// Sheet1!A1:A5 and 7, 8 in Sheet1!C1:C2; on the sheet Calc an anchor in
// A1 doubling Sheet1!A1:A3 (always three rows), one in B1 filtering
// Sheet1!A1:A5 (B1:B3), one in E1 reading A1's spill, formulas reading
// the spills (C1, C2) and an anchor in D1 showing #SPILL! (a value in D2,
// it reads Sheet1!C1:C2), an anchor in G1 of one value (filtering
// Sheet1!E1:E2 = 1, 2) and one in H1 of texts (Sheet1!F1:F2 = a, b in
// upper case); on the sheet Report formulas reading Calc's spills. All written through the excelize path, as Excel would hold them.
func crossSheetSpillSeed(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	for i, v := range []int{3, 1, 4, 1, 5} {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(1, i+1), v))
	}
	require.NoError(t, f.SetCellValue("Sheet1", "C1", 7))
	require.NoError(t, f.SetCellValue("Sheet1", "C2", 8))
	for cell, v := range map[string]any{"E1": 1, "E2": 2, "F1": "a", "F2": "b"} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	for _, s := range []string{"Calc", "Report"} {
		_, err := f.NewSheet(s)
		require.NoError(t, err)
	}
	require.NoError(t, f.SetCellValue("Calc", "D2", "x"))
	require.NoError(t, f.SaveAs(path))
	require.NoError(t, f.Close())
	e := newEnvOf(t, filepath.Dir(path), []string{"write_cells"}, WithSplice(false))
	name := filepath.Base(path)
	for _, w := range []struct{ sheet, cell, formula string }{
		{"Calc", "A1", "=Sheet1!A1:A3*2"},
		{"Calc", "B1", "=FILTER(Sheet1!A1:A5,Sheet1!A1:A5>2)"},
		{"Calc", "E1", "=A1#+1"},
		{"Calc", "C1", "=SUM(A1#)"},
		{"Calc", "C2", "=A2+B2"},
		{"Calc", "D1", "=Sheet1!C1:C2"},
		{"Calc", "G1", "=FILTER(Sheet1!E1:E2,Sheet1!E1:E2>1)"},
		{"Calc", "H1", "=UPPER(Sheet1!F1:F2)"},
		{"Report", "A5", "=Calc!G1+LEN(Calc!H2)"},
		{"Report", "A1", "=SUM(Calc!A1#)"},
		{"Report", "A2", "=Calc!A3*10"},
		{"Report", "A3", "=SUM(Calc!E1:E3)"},
		{"Report", "A4", "=MAX(Calc!B1#)"},
	} {
		e.ok("write_cells", map[string]any{"file_path": name, "sheet_name": w.sheet, "cell": w.cell, "value": w.formula})
	}
}

// TestSpliceRespillsAnchorsOnAnotherSheet: a write that changes the values
// of dynamic arrays on another sheet, but not the shape of their spill
// ranges, takes the splice path and leaves the workbook cell for cell as
// the excelize path leaves it: the anchors' and spilled cells' new values,
// and the formulas reading them on that sheet and on a third one; a spill
// on another sheet that would grow or shrink, or an anchor there showing
// #SPILL!, takes the excelize path with its reason.
func TestSpliceRespillsAnchorsOnAnotherSheet(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	crossSheetSpillSeed(t, seed)
	for _, c := range []struct {
		name   string
		args   map[string]any
		want   map[string]string // Sheet!cell -> value after the write
		reason string            // "" when the write splices
	}{
		{"values change, ranges stay", map[string]any{"cell": "A3", "value": 10},
			map[string]string{"Calc!A3": "20", "Calc!B2": "10", "Calc!E3": "21", "Calc!C1": "28", "Calc!C2": "12", "Report!A1": "28", "Report!A2": "200", "Report!A3": "31", "Report!A4": "10"}, ""},
		{"a spill read on a third sheet", map[string]any{"cell": "A5", "value": 6},
			map[string]string{"Calc!B3": "6", "Calc!A3": "8", "Report!A4": "6", "Report!A1": "16"}, ""},
		{"one value of a dynamic array", map[string]any{"cell": "E2", "value": 5},
			map[string]string{"Calc!G1": "5", "Report!A5": "6"}, ""},
		{"texts of a dynamic array", map[string]any{"cell": "F2", "value": "xyz"},
			map[string]string{"Calc!H2": "XYZ", "Calc!H1": "A", "Report!A5": "5"}, ""},
		{"a value nothing on another sheet reads", map[string]any{"cell": "G9", "value": 1},
			map[string]string{"Calc!A1": "6", "Report!A4": "5"}, ""},
		{"a spill on another sheet grows", map[string]any{"cell": "A2", "value": 10}, nil,
			"a dynamic array to recompute on another sheet would change its spill range"},
		{"a spill on another sheet shrinks", map[string]any{"cell": "A1", "value": 0}, nil,
			"a dynamic array to recompute on another sheet would change its spill range"},
		{"an anchor on another sheet shows #SPILL!", map[string]any{"cell": "C1", "value": 9}, nil,
			"a dynamic array to recompute on another sheet shows #SPILL!"},
	} {
		t.Run(c.name, func(t *testing.T) {
			books, spliced := writeOnBothPaths(t, seed, c.args, nil)
			assert.Equal(t, c.reason == "", spliced, "took the splice path")
			requireSameCells(t, books[true], books[false], []string{"Sheet1", "Calc", "Report"}, 6, 8, false, c.name)
			assert.Equal(t, anchorRefs(t, books[false], "Calc", 6, 8), anchorRefs(t, books[true], "Calc", 6, 8), "the anchors")
			for at, want := range c.want {
				sheet, cell := splitSheetCell(t, at)
				got, err := books[true].GetCellValue(sheet, cell)
				require.NoError(t, err)
				assert.Equal(t, want, got, at)
			}
			assert.Equal(t, c.reason, fallbackOf(t, seed, c.args), "the fallback's reason")
		})
	}
}

// TestSpliceDeclinesRespillsOnAnotherSheetItCannotRewriteInPlace: a
// dynamic array on another sheet whose spill range lacks a cell element,
// or holds a formula, is not spilled again in place: the write takes the
// excelize path with its reason.
func TestSpliceDeclinesRespillsOnAnotherSheetItCannotRewriteInPlace(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, with, reason string // with replaces Calc's spilled cell A2
	}{
		{"a spilled cell missing", "", "a cell of the spill range of a dynamic array to recompute on another sheet is missing"},
		{"a formula in the range", `<c r="A2"><f>1+1</f><v>2</v></c>`, "a formula obstructs the spill range of a dynamic array to recompute on another sheet"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seed := filepath.Join(t.TempDir(), "seed.xlsx")
			crossSheetSpillSeed(t, seed)
			calc := part(t, seed, "xl/worksheets/sheet2.xml")
			cell := regexp.MustCompile(`<c r="A2"[^>]*>.*?</c>`)
			require.Len(t, cell.FindAllString(calc, -1), 1, "Calc!A2 holds a spilled value")
			withPart(t, seed, "xl/worksheets/sheet2.xml", []byte(cell.ReplaceAllLiteralString(calc, c.with)))
			assert.Equal(t, c.reason, fallbackOf(t, seed, map[string]any{"cell": "A3", "value": 10}))
		})
	}
}
