package tools

import (
	"archive/zip"
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tableBook writes a workbook whose formulas read a table and defined
// names, all with cached values: Sheet1 holds the table Sales (A1:B4,
// quantities 1-3 in B2:B4), D1 = SUM(Sales[Qty]), D2 = Rate*2 (Rate is
// Sheet1!$F$1, 5), extra (more cells of Sheet1) and the name odd when
// set: "Dyn" (an OFFSET, which may read anything) read by D4, or "Near"
// (Sheet1!G1, relative) read by D5; Other!A1 = SUM(Sales[Qty])+1 and
// Other!A2 = Rate+Local, Local being Other's own name for Other!$B$1 (2).
func tableBook(t *testing.T, path, extra, odd string) {
	t.Helper()
	f := excelize.NewFile()
	_, err := f.NewSheet("Other")
	require.NoError(t, err)
	require.NoError(t, f.SetSheetRow("Sheet1", "A1", &[]any{"Item", "Qty"}))
	require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "A1:B4", Name: "Sales"}))
	require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Rate", RefersTo: "Sheet1!$F$1"}))
	require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Local", RefersTo: "Other!$B$1", Scope: "Other"}))
	switch odd {
	case "Dyn":
		require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Dyn", RefersTo: "OFFSET(Sheet1!$B$2,0,0,3,1)"}))
		extra += `<row r="4"><c r="D4"><f>SUM(Dyn)</f><v>6</v></c></row>`
	case "Near":
		require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: "Near", RefersTo: "Sheet1!G1"}))
		extra += `<row r="5"><c r="D5"><f>Near+1</f><v>1</v></c></row>`
	}
	require.NoError(t, f.SaveAs(path))
	require.NoError(t, f.Close())
	tablePart := regexp.MustCompile(`<tableParts[^>]*>.*</tableParts>`).FindString(part(t, path, "xl/worksheets/sheet1.xml"))
	require.NotEmpty(t, tablePart, "excelize links the table from the sheet")
	str := func(ref, s string) string { return `<c r="` + ref + `" t="inlineStr"><is><t>` + s + `</t></is></c>` }
	rows := `<row r="1">` + str("A1", "Item") + str("B1", "Qty") + `<c r="D1"><f>SUM(Sales[Qty])</f><v>6</v></c><c r="F1"><v>5</v></c></row>` +
		`<row r="2">` + str("A2", "a") + `<c r="B2"><v>1</v></c><c r="D2"><f>Rate*2</f><v>10</v></c></row>` +
		`<row r="3">` + str("A3", "b") + `<c r="B3"><v>2</v></c></row>` +
		`<row r="4">` + str("A4", "c") + `<c r="B4"><v>3</v></c></row>`
	sheets := map[string][]byte{
		"xl/worksheets/sheet1.xml": []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
			`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
			`<dimension ref="A1:J12"/><sheetData>` + mergeRows(rows, extra) + `</sheetData>` + tablePart + `</worksheet>`),
		"xl/worksheets/sheet2.xml": sheetXML("A1:B2", `<row r="1"><c r="A1"><f>SUM(Sales[Qty])+1</f><v>7</v></c><c r="B1"><v>2</v></c></row><row r="2"><c r="A2"><f>Rate+Local</f><v>7</v></c></row>`),
	}
	rewriteZip(t, path, func(zw *zip.Writer, name string) (bool, error) {
		data, ok := sheets[name]
		if !ok {
			return false, nil
		}
		w, err := zw.Create(name)
		if err != nil {
			return true, err
		}
		_, err = w.Write(data)
		return true, err
	})
}

// mergeRows appends the cells of extra's rows to the rows of base with the
// same number (extra's other rows follow, in order).
func mergeRows(base, extra string) string {
	rowRe := regexp.MustCompile(`<row r="(\d+)">(.*?)</row>`)
	add := map[string]string{}
	var order []string
	for _, m := range rowRe.FindAllStringSubmatch(extra, -1) {
		add[m[1]] += m[2]
		order = append(order, m[1])
	}
	out := rowRe.ReplaceAllStringFunc(base, func(row string) string {
		m := rowRe.FindStringSubmatch(row)
		cells := add[m[1]]
		delete(add, m[1])
		return `<row r="` + m[1] + `">` + m[2] + cells + `</row>`
	})
	for _, r := range order {
		if cells, ok := add[r]; ok {
			out += `<row r="` + r + `">` + cells + `</row>`
			delete(add, r)
		}
	}
	return out
}

// TestSpliceWritesBesideTablesAndNames: formulas reading a table or a
// defined name depend on the cells the table or the name covers, so a
// write those cells do not hold splices and keeps their cached values; a
// formula reading a name (absolute references, sheet-local or not) is
// computed by the splice path's calculator, which holds the names; one
// reading a table the write reaches is left without a value, as excelize
// (which computes no structured reference) leaves it, unless a formula to
// compute reads it; that, or a name that may read anything or moves with
// its cell, takes the excelize path with its reason. Either way the
// workbook ends cell for cell as the excelize path leaves it.
func TestSpliceWritesBesideTablesAndNames(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	for _, c := range []struct {
		name   string
		extra  string
		odd    string
		args   map[string]any
		reason string // "" when the write splices
	}{
		{"below the table", "", "", map[string]any{"cell": "A6", "value": 7}, ""},
		{"beside the table", "", "", map[string]any{"cell": "C3", "value": "x"}, ""},
		{"beside the name's cell", "", "", map[string]any{"cell": "F2", "value": 7}, ""},
		{"a formula over a formula reading the table", "", "", map[string]any{"cell": "D1", "value": 0}, ""},
		{"a table reference inside the table", `<row r="2"><c r="C2"><f>Sales[[#This Row],[Qty]]*2</f><v>2</v></c></row>`, "", map[string]any{"cell": "H8", "value": 1}, ""},
		{"a plain formula beside the table", "", "", map[string]any{"cell_range": "F3", "values": [][]any{{4, "=F3*2"}}}, ""},
		{"a cell the table covers", "", "", map[string]any{"cell": "B3", "value": 10}, ""},
		{"the table's header row", "", "", map[string]any{"cell": "B1", "value": "Units"}, ""},
		{"a cell the table covers, read through a formula", `<row r="8"><c r="H8"><f>D1+1</f><v>7</v></c></row>`, "", map[string]any{"cell": "B3", "value": 10}, "a formula the recomputed ones read holds a structured reference"},
		{"the cell a name covers", "", "", map[string]any{"cell": "F1", "value": 3}, ""},
		{"the cell a sheet-local name covers", "", "", map[string]any{"sheet_name": "Other", "cell": "B1", "value": 4}, ""},
		{"a formula reading a formula that reads a name", `<row r="8"><c r="H8"><f>D2+1</f><v>11</v></c></row>`, "", map[string]any{"cell": "F1", "value": 3}, ""},
		{"a written formula reading the table", "", "", map[string]any{"cell": "F5", "value": "=SUM(Sales[Qty])"}, ""},
		{"a written formula reading a name", "", "", map[string]any{"cell": "F5", "value": "=Rate+1"}, ""},
		{"a name that moves with its cell", "", "Near", map[string]any{"cell": "G1", "value": 2}, "a formula to recompute reads a defined name"},
		{"a formula reading a formula that reads the table", `<row r="8"><c r="H8"><f>D1+1</f><v>7</v></c></row>`, "", map[string]any{"cell": "F6", "value": "=H8"}, "a formula the recomputed ones read holds a structured reference"},
		{"a name that may read anything", "", "Dyn", map[string]any{"cell": "A6", "value": 7}, "a formula to recompute reads a defined name"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seed := filepath.Join(t.TempDir(), "seed.xlsx")
			tableBook(t, seed, c.extra, c.odd)
			assert.Equal(t, c.reason == "", writeBothWays(t, seed, c.args, []string{"Sheet1", "Other"}), "took the splice path")
			assert.Equal(t, c.reason, fallbackOf(t, seed, c.args), "the fallback's reason")
		})
	}
}

// fallbackOf runs write_cells with args on a copy of the workbook seed and
// returns the splice fallback reason its log gives (the decline's entry
// and the excelize save's entry must agree), "" when it spliced.
func fallbackOf(t *testing.T, seed string, args map[string]any) string {
	t.Helper()
	saves := newSavesLog()
	e := newEnvOf(t, t.TempDir(), []string{"write_cells"}, WithLogger(saves.log))
	data, err := os.ReadFile(seed)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(e.path("f.xlsx"), data, 0o644))
	with := map[string]any{"file_path": "f.xlsx"}
	for k, v := range args {
		with[k] = v
	}
	e.ok("write_cells", with)
	declined, saved := "", ""
	for _, entry := range saves.hook.AllEntries() {
		reason, _ := entry.Data["splice_fallback"].(string)
		switch entry.Message {
		case "workbook saved":
			if entry.Data["path"] == "splice" {
				require.Empty(t, reason)
				return ""
			}
			require.Equal(t, "excelize", entry.Data["path"])
			saved = reason
		default:
			if reason != "" {
				declined = reason
			}
		}
	}
	require.Equal(t, declined, saved, "the save entry repeats the decline's reason")
	return saved
}

// TestTableSpliceKeepsEveryOtherPart: a value write below a table, in a
// workbook whose formulas read the table and a defined name, changes only
// the written sheet's part: the table, workbook.xml (not marked for
// recalculation) and the other sheet stay byte for byte.
func TestTableSpliceKeepsEveryOtherPart(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	tableBook(t, seed, "", "")
	saves := newSavesLog()
	e := newEnvOf(t, t.TempDir(), []string{"write_cells"}, WithLogger(saves.log))
	raw, err := os.ReadFile(seed)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(e.path("f.xlsx"), raw, 0o644))
	before := zipParts(t, e.path("f.xlsx"))
	e.ok("write_cells", map[string]any{"file_path": "f.xlsx", "cell": "A6", "value": 42})
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
	f := e.open("f.xlsx")
	for _, c := range [][3]string{{"Sheet1", "D1", "6"}, {"Sheet1", "D2", "10"}, {"Other", "A1", "7"}, {"Sheet1", "A6", "42"}} {
		v, err := f.GetCellValue(c[0], c[1])
		require.NoError(t, err)
		assert.Equal(t, c[2], v, "%s!%s", c[0], c[1])
	}
}

// TestSpliceLeavesTableFormulasWithoutValue: a value written into a table
// splices; the formulas reading the table lose their cached value, as the
// excelize path leaves them (its calculator computes no structured
// reference), and the workbook is marked to recalculate on open, while a
// formula that does not read the write keeps its value.
func TestSpliceLeavesTableFormulasWithoutValue(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	tableBook(t, seed, "", "")
	saves := newSavesLog()
	e := newEnvOf(t, t.TempDir(), []string{"write_cells"}, WithLogger(saves.log))
	raw, err := os.ReadFile(seed)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(e.path("f.xlsx"), raw, 0o644))
	e.ok("write_cells", map[string]any{"file_path": "f.xlsx", "cell": "B3", "value": 10})
	require.Equal(t, 1, saves.spliced(), "the write takes the splice path")
	f := e.open("f.xlsx")
	for _, c := range [][3]string{{"Sheet1", "D1", ""}, {"Other", "A1", ""}, {"Sheet1", "D2", "10"}, {"Sheet1", "B3", "10"}} {
		v, err := f.GetCellValue(c[0], c[1])
		require.NoError(t, err)
		assert.Equal(t, c[2], v, "%s!%s", c[0], c[1])
	}
	formula, err := f.GetCellFormula("Sheet1", "D1")
	require.NoError(t, err)
	assert.Equal(t, "SUM(Sales[Qty])", formula, "the formula is kept")
	calc, err := f.GetCalcProps()
	require.NoError(t, err)
	assert.True(t, calc.FullCalcOnLoad != nil && *calc.FullCalcOnLoad, "recalculated on open")
}
