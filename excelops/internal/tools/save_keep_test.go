package tools

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpusSample is the folder of Excel-made workbooks (tests/corpus/sample).
const corpusSample = "../../../tests/corpus/sample"

// TestStructuralEditsKeepUntouchedParts edits workbooks Excel saved
// (charts, tables, a calculation chain, sheet names that need quoting) with
// every structural tool and checks that each zip entry the edit did not
// need to change is byte for byte the original, in the original order:
// styles, theme, relationships, content types, shared strings, other
// sheets. excelize alone re-serialises all of them.
func TestStructuralEditsKeepUntouchedParts(t *testing.T) {
	t.Parallel()
	sheet1, calc, table := "xl/worksheets/sheet1.xml", "xl/calcChain.xml", "xl/tables/table1.xml"
	chart, drawing, workbook := "xl/charts/chart1.xml", "xl/drawings/drawing1.xml", "xl/workbook.xml"
	types, wbRels := "[Content_Types].xml", "xl/_rels/workbook.xml.rels"
	cases := []struct {
		file, tool string
		args       map[string]any
		changed    []string
	}{
		{"tutorial02.xlsx", "insert_rows", map[string]any{"row": 2}, []string{calc, sheet1}},
		{"tutorial02.xlsx", "insert_columns", map[string]any{"column": "B"}, []string{calc, sheet1}},
		{"tutorial02.xlsx", "rename_sheet", map[string]any{"old_name": "Sheet1", "new_name": "Plan"}, []string{workbook}},
		{"table10.xlsx", "insert_rows", map[string]any{"row": 2}, []string{calc, table, sheet1}},
		{"table10.xlsx", "insert_columns", map[string]any{"column": "A"}, []string{calc, table, sheet1}},
		{"table10.xlsx", "rename_sheet", map[string]any{"old_name": "Sheet1", "new_name": "Plan"}, []string{workbook}},
		{"chart_bar01.xlsx", "insert_rows", map[string]any{"row": 2}, []string{chart, drawing, sheet1}},
		{"chart_bar01.xlsx", "delete_rows", map[string]any{"row": 2}, []string{chart, drawing, sheet1}},
		{"chart_bar01.xlsx", "delete_columns", map[string]any{"column": "B"}, []string{chart, drawing, sheet1}},
		{"chart_bar01.xlsx", "rename_sheet", map[string]any{"old_name": "Sheet1", "new_name": "Plan"}, []string{chart, workbook}},
		{"quote_name01.xlsx", "insert_rows", map[string]any{"row": 2}, []string{chart, drawing, sheet1}},
		{"print_area01.xlsx", "delete_rows", map[string]any{"row": 2}, nil},                        // below its one cell: nothing to change
		{"print_area01.xlsx", "insert_rows", map[string]any{"row": 1}, []string{workbook, sheet1}}, // the print area moves
		{"print_area01.xlsx", "insert_columns", map[string]any{"column": "A"}, []string{workbook, sheet1}},
		{"comment07.xlsx", "copy_sheet", map[string]any{"new_name": "Copy"}, []string{types, wbRels, "xl/comments2.xml",
			"xl/drawings/vmlDrawing2.vml", workbook, "xl/worksheets/_rels/sheet2.xml.rels", "xl/worksheets/sheet2.xml"}},
		{"table10.xlsx", "create_sheet", map[string]any{"sheet_name": "New"}, []string{types, wbRels, workbook, "xl/worksheets/sheet2.xml"}},
		// The deletion empties the calculation chain: the part, its content
		// type and the workbook's relationship to it go (excelize kept the
		// relationship); the rewritten relationships name the shared string
		// table excelize made up, so it is saved too.
		{"array_formula03.xlsx", "delete_rows", map[string]any{"row": 2}, []string{types, wbRels, calc, "xl/sharedStrings.xml", workbook, sheet1}},
		{"repeat05.xlsx", "delete_sheet", map[string]any{"sheet_name": "Sheet2", "confirm": true}, []string{types, wbRels, workbook, "xl/worksheets/sheet2.xml"}},
	}
	for _, c := range cases {
		t.Run(c.file+"/"+c.tool, func(t *testing.T) {
			t.Parallel()
			e := newEnvOf(t, t.TempDir(), []string{c.tool})
			orig, err := os.ReadFile(filepath.Join(corpusSample, c.file))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(e.path(c.file), orig, 0o644))
			args := map[string]any{"file_path": c.file}
			for k, v := range c.args {
				args[k] = v
			}
			if _, named := args["sheet_name"]; !named && c.tool != "rename_sheet" {
				args["sheet_name"] = firstSheet(t, e.path(c.file))
			}
			e.ok(c.tool, args)
			saved := readFile(t, e.path(c.file))
			assertPackageNamesEveryPart(t, saved)
			before, after := zipEntries(t, orig), zipEntries(t, saved)
			var changed []string // changed, added or removed
			for name, raw := range after.raw {
				if was, ok := before.raw[name]; !ok || !bytes.Equal(was, raw) {
					changed = append(changed, name)
				}
			}
			for name := range before.raw {
				if _, ok := after.raw[name]; !ok {
					changed = append(changed, name)
				}
			}
			slices.Sort(changed)
			assert.Equal(t, c.changed, changed, "entries changed (raw bytes)")
			assert.Equal(t, kept(before.order, after.raw), kept(after.order, before.raw), "the entries both have, in the same order")
		})
	}
}

// TestStructuralEditsKeepCachedValues checks that rows and columns moved
// recompute only the formulas the move can change: one whose range grew,
// one reading a position (ROW) or a cut reference. Every other formula
// keeps the value the file cached, even one the engine would compute
// differently (the cached 99 and 77 below stand for Excel's truth).
func TestStructuralEditsKeepCachedValues(t *testing.T) {
	t.Parallel()
	cases := []struct {
		tool string
		args map[string]any
		want map[string]string // cell after the edit -> cached value
	}{
		{"insert_rows", map[string]any{"row": 2}, map[string]string{
			"B1": "15",   // SUM(A1:A5) -> SUM(A1:A6): spans the new row, recomputed
			"C1": "4",    // ROW(A3) -> ROW(A4): a position
			"D1": "99",   // A3*2 -> A4*2: kept
			"F1": "77",   // A5*2 -> A6*2: kept
			"G1": "#N/A", // the cached error is kept too
		}},
		{"delete_rows", map[string]any{"row": 2}, map[string]string{
			"B1": "13",    // SUM(A1:A5) -> SUM(A1:A4): lost a cell, recomputed
			"C1": "2",     // ROW(A3) -> ROW(A2)
			"E1": "#REF!", // A2 was deleted
			"F1": "77",    // A5*2 -> A4*2: kept
			"G1": "#N/A",  // kept
		}},
		{"insert_columns", map[string]any{"column": "H"}, map[string]string{"D1": "99", "F1": "77", "G1": "#N/A"}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			t.Parallel()
			e := newEnvOf(t, t.TempDir(), []string{c.tool})
			writeCachedBook(t, e.path("c.xlsx"))
			args := map[string]any{"file_path": "c.xlsx", "sheet_name": "Sheet1"}
			for k, v := range c.args {
				args[k] = v
			}
			e.ok(c.tool, args)
			f := e.open("c.xlsx")
			for cell, want := range c.want {
				got, err := f.GetCellValue("Sheet1", cell)
				require.NoError(t, err)
				assert.Equal(t, want, got, cell)
			}
		})
	}
}

// writeCachedBook writes 1..5 into A1:A5 and formulas in row 1 whose cached
// values are set by hand: D1 and F1 cache a value the engine would not
// compute (99 and 77), G1 an error.
func writeCachedBook(t *testing.T, path string) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for r := 1; r <= 5; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		require.NoError(t, f.SetCellValue("Sheet1", cell, r))
	}
	formulas := map[string]string{"B1": "SUM(A1:A5)", "C1": "ROW(A3)", "D1": "A3*2", "E1": "A2", "F1": "A5*2", "G1": "NA()"}
	cached := map[string]string{"B1": "15", "C1": "3", "D1": "99", "E1": "2", "F1": "77", "G1": "#N/A"}
	for cell, formula := range formulas {
		require.NoError(t, f.SetCellFormula("Sheet1", cell, formula))
	}
	ws, err := f.Worksheet("Sheet1")
	require.NoError(t, err)
	for i := range ws.SheetData.Row[0].C {
		c := &ws.SheetData.Row[0].C[i]
		if v, ok := cached[c.R]; ok {
			c.V = v
			if v[0] == '#' {
				c.T = "e"
			}
		}
	}
	require.NoError(t, f.SaveAs(path))
}

// entries is a zip's entries: raw (compressed) bytes by name, and the
// names in order.
type entries struct {
	raw   map[string][]byte
	order []string
}

// zipEntries reads every entry of the zip data as stored.
func zipEntries(t *testing.T, data []byte) entries {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	out := entries{raw: map[string][]byte{}}
	for _, f := range zr.File {
		rc, err := f.OpenRaw()
		require.NoError(t, err)
		var buf bytes.Buffer
		_, err = buf.ReadFrom(rc)
		require.NoError(t, err)
		out.raw[f.Name] = buf.Bytes()
		out.order = append(out.order, f.Name)
	}
	return out
}

// kept returns the names of order that other also has, in order.
func kept(order []string, other map[string][]byte) []string {
	var out []string
	for _, name := range order {
		if _, ok := other[name]; ok {
			out = append(out, name)
		}
	}
	return out
}

// readFile returns the bytes at path.
func readFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	return data
}

// firstSheet returns the first sheet of the workbook at path.
func firstSheet(t *testing.T, path string) string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	require.NoError(t, err)
	defer f.Close()
	return f.GetSheetList()[0]
}

// zipEntry returns the inflated entry name of the zip at path.
func zipEntry(t *testing.T, path, name string) []byte {
	t.Helper()
	data, ok := zipParts(t, path)[name]
	require.True(t, ok, "%s has %s", path, name)
	return data
}

// TestNewPartsStayNamed: a workbook openpyxl wrote keeps its text inline
// and has no shared string table; a sort through excelize moves the text
// into a new one. The new part must come with the content type and the
// relationship that name it (keeping those two byte for byte while adding
// the part lost every moved text), and the values must read back sorted.
func TestNewPartsStayNamed(t *testing.T) {
	t.Parallel()
	e := newEnvOf(t, t.TempDir(), []string{"sort_range"})
	orig, err := os.ReadFile(filepath.Join("testdata", "openpyxl_inline.xlsx"))
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(e.path("inline.xlsx"), orig, 0o644))
	e.ok("sort_range", map[string]any{"file_path": "inline.xlsx", "sheet_name": "Data", "cell_range": "A1:B4",
		"header": true, "sort_by": []map[string]any{{"column": "B"}}})
	data := readFile(t, e.path("inline.xlsx"))
	assertPackageNamesEveryPart(t, data)
	rows, err := e.open("inline.xlsx").GetRows("Data")
	require.NoError(t, err)
	assert.Equal(t, [][]string{{"item", "qty", "", "6"}, {"glue", "1"}, {"pens", "2"}, {"tape", "3"}}, rows)
}

// assertPackageNamesEveryPart checks that every XML part of the zip data
// has a content type and is the target of a relationship, and that every
// internal relationship's target exists.
func assertPackageNamesEveryPart(t *testing.T, data []byte) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	require.NoError(t, err)
	have := map[string]bool{}
	for _, f := range zr.File {
		have[f.Name] = true
	}
	types := string(zipEntryOf(t, zr, "[Content_Types].xml"))
	targets := map[string]bool{}
	for _, f := range zr.File {
		if !strings.HasSuffix(f.Name, ".rels") {
			continue
		}
		base := filepath.ToSlash(filepath.Dir(filepath.Dir(f.Name)))
		rels := string(zipEntryOf(t, zr, f.Name))
		for _, m := range regexpTarget.FindAllStringSubmatch(rels, -1) {
			if strings.Contains(m[0], `TargetMode="External"`) {
				continue
			}
			target := m[1]
			if strings.HasPrefix(target, "/") {
				target = target[1:]
			} else {
				target = filepath.ToSlash(filepath.Clean(filepath.Join(base, target)))
			}
			targets[target] = true
			assert.True(t, have[target], "%s names %s, which the package lacks", f.Name, target)
		}
	}
	for name := range have {
		if !strings.HasSuffix(name, ".xml") || name == "[Content_Types].xml" {
			continue
		}
		assert.True(t, targets[name], "no relationship names %s", name)
		assert.Contains(t, types, `PartName="/`+name+`"`, "no content type for %s", name)
	}
}

// regexpTarget is one Relationship element of a relationships part.
var regexpTarget = regexp.MustCompile(`<Relationship [^>]*Target="([^"]+)"[^>]*>`)

// zipEntryOf returns the inflated entry name of zr.
func zipEntryOf(t *testing.T, zr *zip.Reader, name string) []byte {
	t.Helper()
	rc, err := zr.Open(name)
	require.NoError(t, err, name)
	defer rc.Close()
	var buf bytes.Buffer
	_, err = buf.ReadFrom(rc)
	require.NoError(t, err)
	return buf.Bytes()
}
