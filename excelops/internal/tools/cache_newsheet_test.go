package tools

import (
	"archive/zip"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCachedBookAfterNewSheet: excelize keeps a sheet it made in memory (a
// new workbook, a new or copied sheet) parsed after a save, with its empty
// rows trimmed, and a later edit of that same parsed workbook wrote a
// second <row r="3"> and misplaced cells. Such a book is not cached, so
// edit after edit through the excelize path keeps the sheet whole, however
// the sheet was made.
func TestCachedBookAfterNewSheet(t *testing.T) {
	for _, c := range []struct {
		name  string
		make  func(e *env)
		sheet string
	}{
		{"write_cells creating the sheet", func(e *env) {
			e.workbook("b.xlsx", [][]any{{1}})
			e.ok("write_cells", map[string]any{"file_path": "b.xlsx", "sheet_name": "New", "create": true, "cell": "A1", "value": 10})
		}, "New"},
		{"create_sheet", func(e *env) {
			e.workbook("b.xlsx", [][]any{{1}})
			e.ok("create_sheet", map[string]any{"file_path": "b.xlsx", "sheet_name": "New"})
		}, "New"},
		{"create_workbook", func(e *env) {
			e.ok("create_workbook", map[string]any{"file_path": "b.xlsx", "sheet_names": []any{"A", "New"}})
		}, "New"},
		{"write_cells creating the workbook", func(e *env) {
			e.ok("write_cells", map[string]any{"file_path": "b.xlsx", "cell": "A1", "value": 10})
		}, "Sheet1"},
		{"copy_sheet", func(e *env) {
			e.workbook("b.xlsx", [][]any{{1}})
			got := e.ok("copy_sheet", map[string]any{"file_path": "b.xlsx", "sheet_name": "Sheet1", "new_name": "New"})
			require.Equal(t, "New", got["new_sheet"])
		}, "New"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, WithSplice(false)) // the excelize path, parsed workbooks cached
			c.make(e)
			for _, w := range []map[string]any{{"cell": "E3", "value": "x"}, {"cell": "D3", "value": 7}, {"cell": "C2", "value": false}} {
				w["file_path"], w["sheet_name"] = "b.xlsx", c.sheet
				e.ok("write_cells", w)
			}
			sheet := string(readZipEntry(t, e.path("b.xlsx"), sheetPartOf(t, e, c.sheet)))
			assert.Equal(t, 1, strings.Count(sheet, `<row r="3"`), sheet)
			f := e.open("b.xlsx")
			for ref, want := range map[string]string{"E3": "x", "D3": "7", "C2": "FALSE"} {
				v, err := f.GetCellValue(c.sheet, ref)
				require.NoError(t, err)
				assert.Equal(t, want, v, ref)
			}
		})
	}
}

// sheetPartOf is the worksheet part of the sheet named name in b.xlsx.
func sheetPartOf(t *testing.T, e *env, name string) string {
	t.Helper()
	zr, err := zip.OpenReader(e.path("b.xlsx"))
	require.NoError(t, err)
	defer zr.Close()
	idx, err := opc.ReadIndex(&zr.Reader)
	require.NoError(t, err)
	for _, s := range idx.Sheets {
		if s.Name == name {
			return s.Part
		}
	}
	t.Fatalf("no sheet %q", name)
	return ""
}
