package tools

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

// TestDamageOnAnotherSheet: a workbook one of whose sheets a read calls
// damaged is damaged for every write, whichever sheet it names and
// whichever path it takes: the write is refused with the read's reason
// and the file left as it was. Deleting the damaged sheet is the way out.
func TestDamageOnAnotherSheet(t *testing.T) {
	const reason = `file is damaged: cell A1 points to shared string "7" that does not exist`
	cases := []struct {
		name string
		opts []Option
		tool string
		args map[string]any
	}{
		{"write_cells by splice", nil, "write_cells", map[string]any{"sheet_name": "Sound", "cell": "A1", "value": "ok"}},
		{"write_cells by excelize", []Option{WithSplice(false)}, "write_cells", map[string]any{"sheet_name": "Sound", "cell": "A1", "value": "ok"}},
		{"format_cells", nil, "format_cells", map[string]any{"sheet_name": "Sound", "cell_range": "A1", "font": map[string]any{"bold": true}}},
		{"insert_rows", nil, "insert_rows", map[string]any{"sheet_name": "Sound", "row": 1}},
		{"rename_sheet", nil, "rename_sheet", map[string]any{"old_name": "Sound", "new_name": "Other"}},
		{"create_sheet", nil, "create_sheet", map[string]any{"sheet_name": "New"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.opts...)
			damagedBook(t, e)
			before, err := os.ReadFile(e.path("d.xlsx"))
			require.NoError(t, err)
			read := e.fail("read_excel", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet1"})
			require.Equal(t, reason, read["message"])
			args := map[string]any{"file_path": "d.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail(c.tool, args)
			assert.Equal(t, read["exception"], p["exception"], p)
			assert.Equal(t, reason, p["message"])
			after, err := os.ReadFile(e.path("d.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after, "nothing was written")
		})
	}
	t.Run("a second write is refused alike", func(t *testing.T) {
		e := newEnv(t)
		damagedBook(t, e)
		for range 2 {
			p := e.fail("write_cells", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sound", "cell": "A1", "value": 1})
			assert.Equal(t, reason, p["message"])
		}
	})
	t.Run("deleting the damaged sheet", func(t *testing.T) {
		e := newEnv(t)
		damagedBook(t, e)
		e.ok("delete_sheet", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet1", "confirm": true})
		e.ok("write_cells", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sound", "cell": "A1", "value": "ok"})
		got := e.ok("read_excel", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sound"})
		assert.NotNil(t, got)
	})
}

// damagedBook writes d.xlsx: Sheet1, whose A1 points at a shared string
// that does not exist, and a sound sheet named Sound.
func damagedBook(t *testing.T, e *env) {
	t.Helper()
	e.workbook("d.xlsx", [][]any{{"name", "qty"}})
	f := e.open("d.xlsx")
	_, err := f.NewSheet("Sound")
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Sound", "B2", 3))
	require.NoError(t, f.Save())
	require.NoError(t, f.Close())
	withSheetXML(t, e.path("d.xlsx"), sheetXML("A1", `<row r="1"><c r="A1" t="s"><v>7</v></c></row>`))
}
