package tools

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sheetsBook writes s.xlsx with the sheets Data and Copy.
func sheetsBook(e *env) {
	e.workbook("s.xlsx", [][]any{{"a", 1}, {"b", 2}})
	f := e.open("s.xlsx")
	require.NoError(e.t, f.SetSheetName("Sheet1", "Data"))
	_, err := f.NewSheet("Copy")
	require.NoError(e.t, err)
	require.NoError(e.t, f.Save())
}

func TestCopyToMissingSheetNeedsCreate(t *testing.T) {
	e := newEnv(t)
	sheetsBook(e)
	args := map[string]any{"source_file": "s.xlsx", "source_sheet": "Data", "source_range": "A1:B2", "target_sheet": "Cpoy"}
	got := e.fail("copy_range_between_sheets", args)
	assert.Equal(t, "KeyError", got["exception"])
	assert.Equal(t, `Worksheet Cpoy does not exist. Available sheets: Data, Copy. Did you mean "Copy"? Pass create: true to create it.`, got["message"])
	assert.Equal(t, []string{"Data", "Copy"}, e.open("s.xlsx").GetSheetList(), "no sheet created")

	args["create"] = true
	ok := e.ok("copy_range_between_sheets", args)
	target := ok["target"].(map[string]any)
	assert.Equal(t, "Cpoy", target["sheet"])
	assert.Equal(t, true, target["sheet_created"])
	assert.Equal(t, "b", e.value("s.xlsx", "Cpoy", "A2"))

	// An existing sheet (any case) needs no flag and is not "created".
	args["target_sheet"], args["create"] = "copy", false
	ok = e.ok("copy_range_between_sheets", args)
	target = ok["target"].(map[string]any)
	assert.Equal(t, "Copy", target["sheet"])
	assert.NotContains(t, target, "sheet_created")
}

func TestChartOnMissingSheetNeedsCreate(t *testing.T) {
	e := newEnv(t)
	sheetsBook(e)
	args := map[string]any{"file_path": "s.xlsx", "sheet_name": "Data", "chart_type": "bar", "data_range": "B1:B2", "target_sheet": "Charts"}
	got := e.fail("create_excel_chart", args)
	assert.Equal(t, "KeyError", got["exception"])
	assert.Contains(t, got["message"], "Worksheet Charts does not exist. Available sheets: Data, Copy. Pass create: true to create it.")
	args["create"] = true
	ok := e.ok("create_excel_chart", args)
	assert.Equal(t, "Charts", ok["sheet"])
	assert.Equal(t, true, ok["sheet_created"])
}

func TestMissingSheetDidYouMeanOnEveryTool(t *testing.T) {
	e := newEnv(t)
	sheetsBook(e)
	for _, tool := range []string{"read_excel", "write_cells", "format_cells", "merge_cells", "insert_rows", "delete_sheet"} {
		args := map[string]any{"file_path": "s.xlsx", "sheet_name": "Dtaa"}
		switch tool {
		case "write_cells":
			args["cell"], args["value"] = "A1", 1
		case "format_cells":
			args["cell_range"], args["number_format"] = "A1", "0.00"
		case "merge_cells":
			args["cell_range"] = "A1:B1"
		case "insert_rows":
			args["row"] = 1
		case "delete_sheet":
			args["confirm"] = true
		}
		got := e.fail(tool, args)
		assert.Equal(t, "KeyError", got["exception"], tool)
		assert.Contains(t, got["message"], `Available sheets: Data, Copy. Did you mean "Data"?`, tool)
	}
}

func TestWriteCellsSheetCreation(t *testing.T) {
	e := newEnv(t)
	sheetsBook(e)
	got := e.fail("write_cells", map[string]any{"file_path": "s.xlsx", "sheet_name": "Notes", "cell": "A1", "value": "n"})
	assert.Contains(t, got["message"], "Pass create: true to create it.")
	ok := e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "sheet_name": "Notes", "cell": "A1", "value": "n", "create": true})
	assert.Equal(t, true, ok["sheet_created"])
	assert.NotContains(t, ok, "created")
	assert.Equal(t, []string{"Data", "Copy", "Notes"}, e.open("s.xlsx").GetSheetList())

	// A new workbook gets the named sheet instead of an empty Sheet1.
	ok = e.ok("write_cells", map[string]any{"file_path": "fresh.xlsx", "sheet_name": "Report", "cell": "B2", "value": 5})
	assert.Equal(t, true, ok["created"])
	assert.Equal(t, "Report", ok["sheet"])
	assert.Equal(t, []string{"Report"}, e.open("fresh.xlsx").GetSheetList())
}

func TestWriteCellsRefusesALikelyTypoOfAnExistingFile(t *testing.T) {
	e := newEnv(t)
	e.workbook("sales.xlsx", [][]any{{"q", 1}})
	e.workbook("budget.xlsx", [][]any{{"q", 1}})
	require.NoError(t, os.WriteFile(e.path("Sales.txt"), []byte("x"), 0o644)) // not a workbook: never suggested

	args := map[string]any{"file_path": "Sales.xlsx", "cell": "A1", "value": 1}
	got := e.fail("write_cells", args)
	assert.Equal(t, "FileNotFoundError", got["exception"])
	assert.Equal(t, `file not found: Sales.xlsx. Did you mean "sales.xlsx"? Pass create: true to create a new workbook named "Sales.xlsx".`, got["message"])
	assert.NoFileExists(t, e.path("Sales.xlsx"))

	// Reads and other writes never create; they suggest too.
	got = e.fail("read_excel", map[string]any{"file_path": "Sales.xlsx"})
	assert.Equal(t, `file not found: Sales.xlsx. Did you mean "sales.xlsx"?`, got["message"])
	got = e.fail("merge_cells", map[string]any{"file_path": "bugdet.xlsx", "cell_range": "A1:B1"})
	assert.Equal(t, `file not found: bugdet.xlsx. Did you mean "budget.xlsx"?`, got["message"])
	got = e.fail("read_excel", map[string]any{"file_path": "nothing-like-it.xlsx"})
	assert.Equal(t, "file not found: nothing-like-it.xlsx", got["message"])

	// create: false never creates; create: true does.
	args["file_path"], args["create"] = "brand-new.xlsx", false
	got = e.fail("write_cells", args)
	assert.Equal(t, "FileNotFoundError", got["exception"])
	args["file_path"], args["create"] = "Sales.xlsx", true
	ok := e.ok("write_cells", args)
	assert.Equal(t, true, ok["created"])
	assert.FileExists(t, e.path("Sales.xlsx"))

	// A name like no other is still created without the flag.
	delete(args, "create")
	args["file_path"] = "report.xlsx"
	ok = e.ok("write_cells", args)
	assert.Equal(t, true, ok["created"])
}
