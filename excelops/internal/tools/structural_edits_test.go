package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRowEditsKeepTables checks what excelize (v2.11.1) got wrong when rows
// move around a table: deleting row 2 removed a table whose first column
// is B (it compared the row with the column), any row edit dropped the
// totals row (totalsRowCount) and stretched the filter over it, and a
// table without a header row got header names written into its first data
// row.
func TestRowEditsKeepTables(t *testing.T) {
	t.Parallel()
	t.Run("totals", func(t *testing.T) {
		t.Parallel()
		cases := []struct {
			tool          string
			row           int
			ref, filtered string
		}{
			{"insert_rows", 2, "B4:K7", "B4:K6"},
			{"delete_rows", 2, "B2:K5", "B2:K4"},
			{"delete_rows", 4, "B3:K5", "B3:K4"},
		}
		for _, c := range cases {
			e := newEnvOf(t, t.TempDir(), []string{c.tool})
			orig, err := os.ReadFile(filepath.Join(corpusSample, "table10.xlsx"))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(e.path("t.xlsx"), orig, 0o644))
			e.ok(c.tool, map[string]any{"file_path": "t.xlsx", "sheet_name": "Sheet1", "row": c.row})
			tables, err := e.open("t.xlsx").GetTables("Sheet1")
			require.NoError(t, err)
			require.Len(t, tables, 1, "%s %d keeps the table", c.tool, c.row)
			assert.Equal(t, c.ref, tables[0].Range)
			part := string(zipEntry(t, e.path("t.xlsx"), "xl/tables/table1.xml"))
			assert.Contains(t, part, `totalsRowCount="1"`, "%s %d keeps the totals row", c.tool, c.row)
			assert.Contains(t, part, `<autoFilter ref="`+c.filtered+`"`, "the filter leaves the totals row out")
		}
	})
	t.Run("no header row", func(t *testing.T) {
		t.Parallel()
		e := newEnvOf(t, t.TempDir(), []string{"insert_rows"})
		f := excelize.NewFile()
		for r := 3; r <= 5; r++ {
			for c := 3; c <= 4; c++ {
				cell, _ := excelize.CoordinatesToCellName(c, r)
				require.NoError(t, f.SetCellValue("Sheet1", cell, r*10+c))
			}
		}
		off := false
		// excelize's AddTable leaves the first row of the range out of a
		// table without a header: the table is C3:D5.
		require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "C2:D5", Name: "Bare", ShowHeaderRow: &off}))
		require.NoError(t, f.SaveAs(e.path("bare.xlsx")))
		require.NoError(t, f.Close())
		e.ok("insert_rows", map[string]any{"file_path": "bare.xlsx", "sheet_name": "Sheet1", "row": 2})
		g := e.open("bare.xlsx")
		rows, err := g.GetRows("Sheet1")
		require.NoError(t, err)
		assert.Equal(t, [][]string{nil, nil, nil, {"", "", "33", "34"}, {"", "", "43", "44"}, {"", "", "53", "54"}}, rows)
		tables, err := g.GetTables("Sheet1")
		require.NoError(t, err)
		require.Len(t, tables, 1)
		assert.Equal(t, "C4:D6", tables[0].Range)
	})
}

// TestInsertPastTheLastRowRefused: a note in the sheet's last cell (as an
// Excel-made workbook of the corpus has) cannot be pushed off the sheet;
// the refusal says so, and the file is left as it was.
func TestInsertPastTheLastRowRefused(t *testing.T) {
	t.Parallel()
	e := newEnvOf(t, t.TempDir(), []string{"insert_rows", "insert_columns"})
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "x"))
	require.NoError(t, f.AddComment("Sheet1", excelize.Comment{Cell: "XFD1048576", Author: "a", Text: "last"}))
	require.NoError(t, f.SaveAs(e.path("edge.xlsx")))
	require.NoError(t, f.Close())
	orig := readFile(t, e.path("edge.xlsx"))
	for _, c := range []struct {
		tool string
		args map[string]any
		want string
	}{
		{"insert_rows", map[string]any{"row": 2}, "past row 1048576, Excel's last row"},
		{"insert_columns", map[string]any{"column": "B"}, "past column XFD, Excel's last column"},
	} {
		args := map[string]any{"file_path": "edge.xlsx", "sheet_name": "Sheet1"}
		for k, v := range c.args {
			args[k] = v
		}
		p := e.fail(c.tool, args)
		assert.Equal(t, "ValueError", p["exception"], c.tool)
		assert.Contains(t, p["message"], c.want, c.tool)
		assert.Equal(t, orig, readFile(t, e.path("edge.xlsx")), "%s leaves the file as it was", c.tool)
	}
}

// TestNotesMoveWithCells: notes follow their cells through inserted and
// deleted rows and columns, in the comments part and in the note shapes
// of the legacy drawing; a note on a deleted cell goes with it. (excelize
// v2.11.1 left every note where it was.)
func TestNotesMoveWithCells(t *testing.T) {
	t.Parallel()
	e := newEnvOf(t, t.TempDir(), []string{"insert_rows", "delete_rows", "insert_columns", "delete_columns"})
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "x"))
	for cell, text := range map[string]string{"B3": "three", "B5": "five", "D2": "dee"} {
		require.NoError(t, f.AddComment("Sheet1", excelize.Comment{Cell: cell, Author: "a", Text: text}))
	}
	require.NoError(t, f.SaveAs(e.path("notes.xlsx")))
	require.NoError(t, f.Close())
	steps := []struct {
		tool string
		args map[string]any
		want map[string]string
	}{
		{"insert_rows", map[string]any{"row": 2}, map[string]string{"B4": "three", "B6": "five", "D3": "dee"}},
		{"delete_rows", map[string]any{"row": 4}, map[string]string{"B5": "five", "D3": "dee"}},
		{"insert_columns", map[string]any{"column": "A", "count": 2}, map[string]string{"D5": "five", "F3": "dee"}},
		{"delete_columns", map[string]any{"column": "F"}, map[string]string{"D5": "five"}},
	}
	for _, s := range steps {
		args := map[string]any{"file_path": "notes.xlsx", "sheet_name": "Sheet1"}
		for k, v := range s.args {
			args[k] = v
		}
		e.ok(s.tool, args)
		comments, err := e.open("notes.xlsx").GetComments("Sheet1")
		require.NoError(t, err)
		got := map[string]string{}
		for _, c := range comments {
			got[c.Cell] = c.Text
		}
		assert.Equal(t, s.want, got, "after %s", s.tool)
		vml := string(zipEntry(t, e.path("notes.xlsx"), "xl/drawings/vmlDrawing1.vml"))
		assert.Equal(t, len(s.want), strings.Count(vml, `ObjectType="Note"`), "one note shape per note after %s", s.tool)
	}
}
