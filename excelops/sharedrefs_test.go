package excelops

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDamagedStaysDamaged: a workbook whose sheet has a cell pointing at a
// shared string that does not exist is damaged for reads, and every write
// that rewrites that sheet (splice path or excelize path) is refused with
// the read's reason, leaving the file as it was.
func TestDamagedStaysDamaged(t *testing.T) {
	rows := `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c></row>` +
		`<row r="2"><c r="A2"><v>5</v></c></row>` +
		`<row r="3"><c r="A3" t="s"><v>99</v></c></row>`
	const reason = `file is damaged: cell A3 points to shared string "99" that does not exist`
	cases := []struct {
		name   string
		opts   []Option
		tool   string
		args   map[string]any
		reason string
	}{
		{"read", nil, "read_excel", map[string]any{}, reason},
		{"write_cells by splice", nil, "write_cells", map[string]any{"cell": "D1", "value": 1}, reason},
		{"write_cells by excelize", []Option{WithSplice(false)}, "write_cells", map[string]any{"cell": "D1", "value": 1}, reason},
		{"clear_range by splice", nil, "clear_range", map[string]any{"cell_range": "A2"}, reason},
		{"format_cells", nil, "format_cells", map[string]any{"cell_range": "A1", "font": map[string]any{"bold": true}}, reason},
		{"insert_rows", nil, "insert_rows", map[string]any{"row": 1}, reason},
		{"find_replace", nil, "find_replace", map[string]any{"find": "name", "replace": "z"}, reason},
		{"describe_workbook", nil, "describe_workbook", map[string]any{}, reason},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.opts...)
			e.workbook("d.xlsx", [][]any{{"name", "qty"}})
			withSheetXML(t, e.path("d.xlsx"), sheetXML("A1:B3", rows))
			before, err := os.ReadFile(e.path("d.xlsx"))
			require.NoError(t, err)
			args := map[string]any{"file_path": "d.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail(c.tool, args)
			assert.Equal(t, "BadZipFile", p["exception"], p)
			assert.Equal(t, c.reason, p["message"])
			after, err := os.ReadFile(e.path("d.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after, "nothing was written")
		})
	}
}

// TestSharedRefsOnAnotherSheet: a write to a sound sheet is not refused
// for another sheet's damage it does not rewrite; that sheet is kept
// byte for byte, so it stays as damaged as it was.
func TestSharedRefsOnAnotherSheet(t *testing.T) {
	e := newEnv(t)
	e.workbook("d.xlsx", [][]any{{"name", "qty"}})
	f := e.open("d.xlsx")
	_, err := f.NewSheet("Sound")
	require.NoError(t, err)
	require.NoError(t, f.Save())
	withSheetXML(t, e.path("d.xlsx"), sheetXML("A1", `<row r="1"><c r="A1" t="s"><v>7</v></c></row>`))
	damaged := readZipEntry(t, e.path("d.xlsx"), "xl/worksheets/sheet1.xml")
	e.ok("write_cells", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sound", "cell": "A1", "value": "ok"})
	assert.Equal(t, damaged, readZipEntry(t, e.path("d.xlsx"), "xl/worksheets/sheet1.xml"))
	p := e.fail("read_excel", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet1"})
	assert.Equal(t, `file is damaged: cell A1 points to shared string "7" that does not exist`, p["message"])
}
