package tools

import (
	"os"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestExcelLimitsAreErrorsAndNothingIsWritten(t *testing.T) {
	skipUnderRace(t)
	big := strings.Repeat("x", 5<<20)
	emoji := strings.Repeat("📊", grid.MaxCellChars/2+1) // 16,384 characters, 32,768 UTF-16 units
	longFormula := "=" + strings.Repeat("1+", 4096) + "1"
	cases := []struct {
		name string
		args map[string]any
		msg  string
	}{
		{"5 MiB of text", map[string]any{"cell": "B2", "value": big},
			"B2: text of 5,242,880 characters is longer than Excel's limit of 32,767 characters per cell; nothing was written"},
		{"one past the limit", map[string]any{"cell": "C3", "value": strings.Repeat("y", grid.MaxCellChars+1)},
			"C3: text of 32,768 characters"},
		{"astral characters count twice, as Excel counts", map[string]any{"cell": "A1", "value": emoji},
			"A1: text of 32,768 characters"},
		{"a bad value late in a block", map[string]any{"cell_range": "A1", "values": [][]any{{1, 2}, {3, big}}},
			"B2: text of 5,242,880 characters"},
		{"text kept by an apostrophe", map[string]any{"cell": "D4", "value": "'" + big},
			"D4: text of 5,242,880 characters"},
		{"text kept by value_types", map[string]any{"cell": "D4", "value": big, "value_types": "text"},
			"D4: text of 5,242,880 characters"},
		{"formula", map[string]any{"cell": "E5", "value": longFormula},
			"E5: formula of 8,194 characters is longer than Excel's limit of 8,192 characters; nothing was written"},
		{"row past the grid", map[string]any{"cell": "A1048577", "value": 1},
			`invalid cell range "A1048577": cell "A1048577" is past Excel's last row 1,048,576`},
		{"column past the grid", map[string]any{"cell": "XFE1", "value": 1},
			`invalid cell range "XFE1": cell "XFE1" is past Excel's last column XFD (16,384 columns)`},
		{"block crossing the last row", map[string]any{"cell_range": "A1048576", "values": [][]any{{1}, {2}}},
			"the block starting at A1048576 is 2 rows tall and would end at row 1,048,577, past Excel's last row 1,048,576; nothing was written"},
		{"block crossing the last column", map[string]any{"cell_range": "XFC1", "values": [][]any{{1, 2, 3}}},
			"the block starting at XFC1 is 3 columns wide and would end at column 16,385, past Excel's last column XFD (16,384); nothing was written"},
	}
	e := newEnv(t)
	e.workbook("l.xlsx", [][]any{{"keep"}})
	before, err := os.ReadFile(e.path("l.xlsx"))
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args := map[string]any{"file_path": "l.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			got := e.fail("write_cells", args)
			assert.Equal(t, "ValueError", got["exception"])
			assert.Contains(t, got["message"], c.msg)
			after, err := os.ReadFile(e.path("l.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after, "the file is untouched")
		})
	}
}

func TestExcelLimitsExactlyAtTheEdgeAreWritten(t *testing.T) {
	skipUnderRace(t)
	e := newEnv(t)
	e.workbook("l.xlsx", [][]any{{"keep"}})
	text := strings.Repeat("z", grid.MaxCellChars)
	formula := "=" + strings.Repeat("1+", 4095) + "1" // 8,192 with its "="
	require.Equal(t, grid.MaxFormulaChars, len(formula))
	e.ok("write_cells", map[string]any{"file_path": "l.xlsx", "cell_range": "XFD1048575", "values": [][]any{{text}, {formula}}})
	f := e.open("l.xlsx")
	v, err := f.GetCellValue("Sheet1", "XFD1048575")
	require.NoError(t, err)
	assert.Equal(t, text, v, "32,767 characters stored whole")
	fm, err := f.GetCellFormula("Sheet1", "XFD1048576")
	require.NoError(t, err)
	assert.Equal(t, formula[1:], fm)
}

func TestRangeErrorsSayWhichFormsAreAccepted(t *testing.T) {
	e := newEnv(t)
	e.workbook("l.xlsx", [][]any{{"keep"}})
	cases := []struct{ rng, msg string }{
		{"A:A", `invalid cell range "A:A": use a cell such as "A1" or a rectangle such as "A1:C3"; whole columns or rows are not accepted: name the cells, e.g. "A1:A100"`},
		{"1:3", `whole columns or rows are not accepted`},
		{"A1:B2:C3", `invalid cell range "A1:B2:C3": use a cell such as "A1" or a rectangle such as "A1:C3"`},
		{"A0", `invalid cell range "A0": use a cell such as "A1"`},
		{"A1:ZZZZ9", `invalid cell range "A1:ZZZZ9": cell "ZZZZ9" is past Excel's last column XFD (16,384 columns)`},
	}
	for _, c := range cases {
		t.Run(c.rng, func(t *testing.T) {
			for _, tool := range []string{"read_excel", "format_cells", "merge_cells", "read_cell_styles"} {
				args := map[string]any{"file_path": "l.xlsx", "cell_range": c.rng}
				switch tool {
				case "read_excel":
					args = map[string]any{"file_path": "l.xlsx", "range": c.rng}
				case "format_cells":
					args["number_format"] = "0"
				}
				got := e.fail(tool, args)
				assert.Equal(t, "ValueError", got["exception"], tool)
				assert.Contains(t, got["message"], c.msg, tool)
			}
		})
	}
}

// TestCopyRefusesAFormulaTheMoveMakesTooLong: a formula just under
// Excel's limit grows when its relative references move to wider
// addresses; the copy is refused and the target is not saved.
func TestCopyRefusesAFormulaTheMoveMakesTooLong(t *testing.T) {
	e := newEnv(t)
	e.workbook("c.xlsx", [][]any{{1}})
	formula := "=" + strings.Repeat("A1+", 2729) + "A1+1" // 8,192 characters with its "="
	require.Equal(t, grid.MaxFormulaChars, len(formula))
	e.ok("write_cells", map[string]any{"file_path": "c.xlsx", "cell": "B2", "value": formula})
	before, err := os.ReadFile(e.path("c.xlsx"))
	require.NoError(t, err)
	got := e.fail("copy_range_between_sheets", map[string]any{"source_file": "c.xlsx", "source_sheet": "Sheet1",
		"source_range": "B2", "target_sheet": "Sheet1", "target_start": "B20"})
	assert.Equal(t, "ValueError", got["exception"])
	assert.Contains(t, got["message"], "B20: formula of 10,922 characters is longer than Excel's limit of 8,192 characters")
	after, err := os.ReadFile(e.path("c.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, before, after)
}

// TestMovingTextPastTheLimitIsRefused: a damaged workbook holds a cell of
// 40,000 characters; copying or sorting it would have excelize cut it to
// 32,767 on the way. Both are refused, naming the cell, and nothing is
// saved.
func TestMovingTextPastTheLimitIsRefused(t *testing.T) {
	e := newEnv(t)
	e.workbook("d.xlsx", [][]any{{"x"}})
	long := strings.Repeat("y", 40000)
	withSheetXML(t, e.path("d.xlsx"), sheetXML("A1:A2",
		`<row r="1"><c r="A1" t="inlineStr"><is><t>`+long+`</t></is></c></row><row r="2"><c r="A2" t="inlineStr"><is><t>a</t></is></c></row>`))
	before, err := os.ReadFile(e.path("d.xlsx"))
	require.NoError(t, err)
	for _, c := range []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"copy_range_between_sheets", map[string]any{"source_file": "d.xlsx", "source_sheet": "Sheet1", "source_range": "A1",
			"target_sheet": "Sheet1", "target_start": "C5"}, "C5: text of 40,000 characters is longer than Excel's limit of 32,767 characters per cell"},
		{"sort_range", map[string]any{"file_path": "d.xlsx", "sheet_name": "Sheet1", "cell_range": "A1:A2",
			"sort_by": []map[string]any{{"column": "A", "order": "ascending"}}}, "A2: text of 40,000 characters is longer than Excel's limit"},
	} {
		t.Run(c.tool, func(t *testing.T) {
			got := e.fail(c.tool, c.args)
			assert.Equal(t, "ValueError", got["exception"])
			assert.Contains(t, got["message"], c.msg)
			after, err := os.ReadFile(e.path("d.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after)
		})
	}
}
