package tools

import (
	"archive/zip"
	"io"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// specialSheet is a sheet that is not a worksheet, as Excel stores it.
type specialSheet struct {
	name, kind, part, relType, contentType, xml string
}

// specialSheets are an Excel 4 macro sheet and an Excel 5 dialog sheet.
var specialSheets = []specialSheet{
	{"Module", "macrosheet", "xl/macrosheets/sheet1.xml",
		"http://schemas.microsoft.com/office/2006/relationships/xlMacrosheet",
		"application/vnd.ms-excel.macrosheet+xml",
		`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><xm:macrosheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:xm="http://schemas.microsoft.com/office/excel/2006/main"><sheetPr/><dimension ref="A1:A2"/><sheetData><row r="1"><c r="A1" t="str"><f>ECHO(FALSE)</f><v>x</v></c></row><row r="2"><c r="A2"><f>RETURN()</f><v>0</v></c></row></sheetData></xm:macrosheet>`},
	{"Dialog1", "dialogsheet", "xl/dialogsheets/sheet1.xml",
		"http://schemas.openxmlformats.org/officeDocument/2006/relationships/dialogsheet",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.dialogsheet+xml",
		`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dialogsheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetPr/><sheetViews><sheetView workbookViewId="0"/></sheetViews><sheetFormatPr defaultRowHeight="15"/><pageMargins left="0.7" right="0.7" top="0.75" bottom="0.75" header="0.3" footer="0.3"/></dialogsheet>`},
}

// withSpecialSheets adds the special sheets after the sheets of the
// workbook at path, as Excel lists them.
func withSpecialSheets(t *testing.T, path string, sheets ...specialSheet) {
	t.Helper()
	rewriteZip(t, path, func(zw *zip.Writer, name string) (bool, error) {
		var data string
		switch name {
		case "[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels":
			data = string(readZipEntry(t, path, name))
		default:
			return false, nil
		}
		for i, s := range sheets {
			id := "rIdSpecial" + string(rune('1'+i))
			switch name {
			case "[Content_Types].xml":
				data = strings.Replace(data, "</Types>", `<Override PartName="/`+s.part+`" ContentType="`+s.contentType+`"/></Types>`, 1)
			case "xl/workbook.xml":
				data = strings.Replace(data, "</sheets>", `<sheet name="`+s.name+`" sheetId="`+string(rune('7'+i))+`" r:id="`+id+`"/></sheets>`, 1)
			case "xl/_rels/workbook.xml.rels":
				data = strings.Replace(data, "</Relationships>", `<Relationship Id="`+id+`" Type="`+s.relType+`" Target="`+strings.TrimPrefix(s.part, "xl/")+`"/></Relationships>`, 1)
			}
		}
		w, err := zw.Create(name)
		if err != nil {
			return true, err
		}
		if _, err := io.WriteString(w, data); err != nil {
			return true, err
		}
		if name == "xl/workbook.xml" {
			for _, s := range sheets {
				w, err := zw.Create(s.part)
				if err != nil {
					return true, err
				}
				if _, err := io.WriteString(w, s.xml); err != nil {
					return true, err
				}
			}
		}
		return true, nil
	})
}

// TestSpecialSheetsListedAndSkipped: macro and dialog sheets are listed
// with their kind, skipped by whole-workbook calls and edits of other
// sheets (which keep them as they are), and a call naming one says what
// it is.
func TestSpecialSheetsListedAndSkipped(t *testing.T) {
	e := newEnv(t)
	e.workbook("m.xlsx", [][]any{{"name", "qty"}, {"a", 1}})
	withSpecialSheets(t, e.path("m.xlsx"), specialSheets...)
	kinds := func(sheets any) []string {
		var out []string
		for _, s := range sheets.([]any) {
			out = append(out, s.(map[string]any)["kind"].(string))
		}
		return out
	}
	want := []string{opc.Worksheet, opc.Macrosheet, opc.Dialogsheet}
	assert.Equal(t, want, kinds(e.ok("list_sheets", map[string]any{"file_path": "m.xlsx"})["sheets"]))
	p := e.ok("describe_workbook", map[string]any{"file_path": "m.xlsx"})
	assert.Equal(t, want, kinds(p["sheets"]))
	assert.Equal(t, "A1:B2", p["sheets"].([]any)[0].(map[string]any)["used_range"])
	p = e.ok("describe_workbook", map[string]any{"file_path": "m.xlsx", "sheet_name": "Module"})
	assert.Equal(t, []string{opc.Macrosheet}, kinds(p["sheets"]))

	for _, c := range []struct {
		tool, sheet, says string
		args              map[string]any
	}{
		{"read_excel", "Module", "is an Excel 4 macro sheet, not a worksheet", nil},
		{"read_excel", "Dialog1", "is a dialog sheet, not a worksheet", nil},
		{"read_cell_styles", "Module", "is an Excel 4 macro sheet", map[string]any{"cell_range": "A1"}},
		{"write_cells", "Module", "is an Excel 4 macro sheet", map[string]any{"cell": "B1", "value": 1}},
		{"format_cells", "Dialog1", "is a dialog sheet", map[string]any{"cell_range": "A1", "font": map[string]any{"bold": true}}},
		{"insert_rows", "Module", "is an Excel 4 macro sheet", map[string]any{"row": 1}},
		{"copy_sheet", "Module", "is an Excel 4 macro sheet; only worksheets can be copied", nil},
	} {
		t.Run(c.tool+" "+c.sheet, func(t *testing.T) {
			args := map[string]any{"file_path": "m.xlsx", "sheet_name": c.sheet}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail(c.tool, args)
			assert.Equal(t, "ValueError", p["exception"], p)
			assert.Contains(t, p["message"], c.says)
		})
	}

	macro := string(readZipEntry(t, e.path("m.xlsx"), "xl/macrosheets/sheet1.xml"))
	e.ok("write_cells", map[string]any{"file_path": "m.xlsx", "cell": "C1", "value": "splice"})
	e.ok("format_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1", "font": map[string]any{"bold": true}})
	e.ok("insert_rows", map[string]any{"file_path": "m.xlsx", "row": 1})
	e.ok("find_replace", map[string]any{"file_path": "m.xlsx", "find": "a", "replace": "z"})
	assert.Equal(t, macro, string(readZipEntry(t, e.path("m.xlsx"), "xl/macrosheets/sheet1.xml")), "the macro sheet is kept as it was")
	assert.Equal(t, want, kinds(e.ok("list_sheets", map[string]any{"file_path": "m.xlsx"})["sheets"]))
	assert.Equal(t, "splice", e.value("m.xlsx", "Sheet1", "C2"))
	assert.Equal(t, "z", e.value("m.xlsx", "Sheet1", "A3"))
}

// TestMacroSheetByContentType: a macro sheet whose relationship says
// worksheet and whose part lives among the worksheets is known by its
// content type.
func TestMacroSheetByContentType(t *testing.T) {
	e := newEnv(t)
	e.workbook("m.xlsx", [][]any{{"name", "qty"}, {"a", 1}})
	m := specialSheets[0]
	m.part = "xl/worksheets/sheet9.xml"
	m.relType = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet"
	withSpecialSheets(t, e.path("m.xlsx"), m)
	p := e.ok("describe_workbook", map[string]any{"file_path": "m.xlsx"})
	sheets := p["sheets"].([]any)
	require.Len(t, sheets, 2)
	assert.Equal(t, opc.Macrosheet, sheets[1].(map[string]any)["kind"])
	p = e.fail("read_excel", map[string]any{"file_path": "m.xlsx", "sheet_name": "Module"})
	assert.Contains(t, p["message"], "Excel 4 macro sheet")
	// excelize parses every part among the worksheets as one: an edit of
	// every sheet is refused, saying why; other edits keep the macro sheet.
	p = e.fail("insert_rows", map[string]any{"file_path": "m.xlsx", "row": 1})
	assert.Equal(t, "ValueError", p["exception"], p)
	assert.Contains(t, p["message"], `sheet "Module" is an Excel 4 macro sheet stored where worksheets live`)
	e.ok("write_cells", map[string]any{"file_path": "m.xlsx", "cell": "C1", "value": 1})
	e.ok("format_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1", "font": map[string]any{"bold": true}})
	assert.Equal(t, m.xml, string(readZipEntry(t, e.path("m.xlsx"), m.part)))
}
