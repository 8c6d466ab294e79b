package tools

import (
	"fmt"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// findBook writes f.xlsx: text, numbers, a code kept as text, a date, a
// boolean and formulas naming sheet Other, which holds text too.
func findBook(e *env) {
	e.workbook("f.xlsx", [][]any{
		{"North region", 1500, "007", true},
		{"north", 15, "Northern", nil},
		{"NORTH", 2.5, "x", nil},
	})
	f := e.open("f.xlsx")
	_, err := f.NewSheet("Other")
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetCellValue("Other", "A1", "north star"))
	require.NoError(e.t, f.SetCellValue("Other", "B1", 7))
	require.NoError(e.t, f.SetCellFormula("Sheet1", "E1", "SUM(B1:B3)+Other!B1"))
	require.NoError(e.t, f.SetCellFormula("Sheet1", "E2", `"north"&A2`))
	date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
	require.NoError(e.t, err)
	require.NoError(e.t, f.SetCellValue("Sheet1", "F1", 45322)) // 2024-01-31
	require.NoError(e.t, f.SetCellStyle("Sheet1", "F1", "F1", date))
	require.NoError(e.t, f.Save())
}

// changes returns a find_replace result's changes as sheet!cell -> [before, after].
func changes(got map[string]any) map[string][2]any {
	out := map[string][2]any{}
	for _, c := range got["changes"].([]any) {
		m := c.(map[string]any)
		out[fmt.Sprint(m["sheet"], "!", m["cell"])] = [2]any{m["before"], m["after"]}
	}
	return out
}

func TestFindReplaceTextCaseAndWholeCell(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		want map[string][2]any
	}{
		{"every sheet, ignoring case", map[string]any{"find": "north", "replace": "South"}, map[string][2]any{
			"Sheet1!A1": {"North region", "South region"}, "Sheet1!A2": {"north", "South"}, "Sheet1!A3": {"NORTH", "South"},
			"Sheet1!C2": {"Northern", "Southern"}, "Other!A1": {"north star", "South star"}}},
		{"match case", map[string]any{"find": "north", "replace": "south", "match_case": true}, map[string][2]any{
			"Sheet1!A2": {"north", "south"}, "Other!A1": {"north star", "south star"}}},
		{"whole cell", map[string]any{"find": "north", "replace": "N", "whole_cell": true}, map[string][2]any{
			"Sheet1!A2": {"north", "N"}, "Sheet1!A3": {"NORTH", "N"}}},
		{"one sheet", map[string]any{"find": "north", "replace": "N", "sheet_name": "Other"}, map[string][2]any{
			"Other!A1": {"north star", "N star"}}},
		{"a range of the active sheet", map[string]any{"find": "north", "replace": "N", "cell_range": "A2:C3"}, map[string][2]any{
			"Sheet1!A2": {"north", "N"}, "Sheet1!A3": {"NORTH", "N"}, "Sheet1!C2": {"Northern", "Nern"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			findBook(e)
			c.args["file_path"] = "f.xlsx"
			got := e.ok("find_replace", c.args)
			assert.Equal(t, c.want, changes(got))
			assert.Equal(t, float64(len(c.want)), got["cells_changed"])
			f := e.open("f.xlsx")
			for ref, ba := range c.want {
				sheet, cell := splitRef(ref)
				v, err := f.GetCellValue(sheet, cell)
				require.NoError(t, err)
				assert.Equal(t, ba[1], v, ref)
			}
			formula, _ := f.GetCellFormula("Sheet1", "E2")
			assert.Equal(t, `"north"&A2`, formula, "formulas are left alone without in_formulas")
		})
	}
}

// splitRef splits "Sheet!A1".
func splitRef(ref string) (string, string) {
	for i := len(ref) - 1; i >= 0; i-- {
		if ref[i] == '!' {
			return ref[:i], ref[i+1:]
		}
	}
	return "", ref
}

func TestFindReplaceNumbersDatesAndTypes(t *testing.T) {
	e := newEnv(t)
	findBook(e)
	got := e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "1500", "replace": "2000", "whole_cell": true})
	assert.Equal(t, map[string][2]any{"Sheet1!B1": {"1500", "2000"}}, changes(got))
	got = e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "2.5", "replace": "2.5 kg"})
	assert.Equal(t, map[string][2]any{"Sheet1!B3": {"2.5", "2.5 kg"}}, changes(got))
	got = e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "007", "replace": "008"})
	assert.Equal(t, map[string][2]any{"Sheet1!C1": {"007", "008"}}, changes(got))
	got = e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "2024-01", "replace": "2025-02"})
	assert.Equal(t, map[string][2]any{"Sheet1!F1": {"2024-01-31", "2025-02-31"}}, changes(got), "not a date: stays text")
	e2 := newEnv(t)
	findBook(e2)
	got = e2.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "-01-31", "replace": "-02-29"})
	assert.Equal(t, map[string][2]any{"Sheet1!F1": {"2024-01-31", "2024-02-29"}}, changes(got))
	assert.Equal(t, float64(0), e2.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "true", "replace": "x"})["cells_changed"], "booleans never match")

	f := e.open("f.xlsx")
	for cell, want := range map[string]excelize.CellType{"B1": excelize.CellTypeUnset, "B3": excelize.CellTypeSharedString, "C1": excelize.CellTypeSharedString} {
		typ, err := f.GetCellType("Sheet1", cell)
		require.NoError(t, err)
		assert.Equal(t, want, typ, cell)
	}
	v, _ := f.GetCellValue("Sheet1", "B1", excelize.Options{RawCellValue: true})
	assert.Equal(t, "2000", v, "a number stays a number")
	read := e.ok("read_excel", map[string]any{"file_path": "f.xlsx", "range": "E1"})
	assert.Equal(t, []any{[]any{float64(2000 + 15 + 7)}}, read["values"], "the formula reading B1 was recomputed")
	read = e2.ok("read_excel", map[string]any{"file_path": "f.xlsx", "range": "F1"})
	assert.Equal(t, []any{[]any{"2024-02-29T00:00:00"}}, read["values"], "a date stays a date")
}

func TestFindReplaceInFormulas(t *testing.T) {
	e := newEnv(t)
	findBook(e)
	got := e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "Other!", "replace": "'Other'!", "in_formulas": true})
	assert.Equal(t, map[string][2]any{"Sheet1!E1": {"=SUM(B1:B3)+Other!B1", "=SUM(B1:B3)+'Other'!B1"}}, changes(got))
	got = e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "SUM", "replace": "MAX", "in_formulas": true, "match_case": true})
	assert.Equal(t, float64(1), got["cells_changed"])
	read := e.ok("read_excel", map[string]any{"file_path": "f.xlsx", "range": "E1"})
	assert.Equal(t, []any{[]any{float64(1500 + 7)}}, read["values"])

	before := fileHash(t, e, "f.xlsx")
	got = e.fail("find_replace", map[string]any{"file_path": "f.xlsx", "find": "MAX", "replace": "MAXX", "in_formulas": true})
	assert.Equal(t, "ValueError", got["exception"])
	assert.Contains(t, got["message"], "Sheet1!E1")
	assert.Contains(t, got["message"], "MAXX is not an Excel function")
	got = e.fail("find_replace", map[string]any{"file_path": "f.xlsx", "find": "=", "replace": "", "in_formulas": true})
	assert.Contains(t, got["message"], "would remove the = of the formula")
	assert.Equal(t, before, fileHash(t, e, "f.xlsx"), "nothing written")
}

func TestFindReplaceDryRunAndNothingFound(t *testing.T) {
	e := newEnv(t)
	findBook(e)
	before := fileHash(t, e, "f.xlsx")
	got := e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "north", "replace": "x", "dry_run": true})
	assert.Equal(t, true, got["dry_run"])
	assert.Equal(t, float64(5), got["cells_changed"])
	got = e.ok("find_replace", map[string]any{"file_path": "f.xlsx", "find": "nowhere", "replace": "x"})
	assert.Equal(t, float64(0), got["cells_changed"])
	assert.Equal(t, []any{"Sheet1", "Other"}, got["sheets_searched"])
	assert.Equal(t, before, fileHash(t, e, "f.xlsx"), "neither wrote the file")
}

func TestFindReplaceListIsBounded(t *testing.T) {
	e := newEnv(t)
	rows := make([][]any, 150)
	for i := range rows {
		rows[i] = []any{"item old"}
	}
	e.workbook("b.xlsx", rows)
	got := e.ok("find_replace", map[string]any{"file_path": "b.xlsx", "find": "old", "replace": "new"})
	assert.Equal(t, float64(150), got["cells_changed"])
	assert.Len(t, got["changes"], maxListedChanges)
	assert.Equal(t, true, got["truncated"])
	assert.Equal(t, "item new", e.value("b.xlsx", "Sheet1", "A150"))
}

func TestFindReplaceErrors(t *testing.T) {
	cases := []struct {
		args      map[string]any
		exception string
		want      string
	}{
		{map[string]any{"find": "", "replace": "x"}, "", "TOOL_ARGUMENT_VALIDATION_ERROR"},
		{map[string]any{"find": "x"}, "", "TOOL_ARGUMENT_VALIDATION_ERROR"},
		{map[string]any{"find": "x", "replace": "y", "cell_range": "A0"}, "ValueError", "invalid cell range"},
		{map[string]any{"find": "x", "replace": "y", "sheet_name": "Othr"}, "KeyError", `Did you mean "Other"?`},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			e := newEnv(t)
			findBook(e)
			c.args["file_path"] = "f.xlsx"
			got := e.fail("find_replace", c.args)
			if c.exception == "" {
				assert.Equal(t, c.want, got["error_code"], got)
				return
			}
			assert.Equal(t, c.exception, got["exception"], got)
			assert.Contains(t, got["message"], c.want)
		})
	}
}

// TestFindReplaceInSharedFormulas: rewriting some cells of a shared formula
// keeps the others (excelize drops a shared formula's followers when its
// anchor is rewritten; the plan restores them).
func TestFindReplaceInSharedFormulas(t *testing.T) {
	e := newEnv(t)
	e.workbook("sh.xlsx", [][]any{{1, 10}, {2, 20}, {3, 30}, {"1500", 1500}})
	f := e.open("sh.xlsx")
	shared, ref := excelize.STCellFormulaTypeShared, "C1:C3"
	require.NoError(t, f.SetCellFormula("Sheet1", "C1", "A1*2", excelize.FormulaOpts{Type: &shared, Ref: &ref}))
	require.NoError(t, f.SetCellStr("Sheet1", "A4", "1500"))
	require.NoError(t, f.Save())

	got := e.ok("find_replace", map[string]any{"file_path": "sh.xlsx", "find": "A1*", "replace": "B1*", "in_formulas": true})
	assert.Equal(t, map[string][2]any{"Sheet1!C1": {"=A1*2", "=B1*2"}}, changes(got))
	f = e.open("sh.xlsx")
	assert.Equal(t, []string{"B1*2", "A2*2", "A3*2"}, formulas(t, f, "C", 1, 3))
	read := e.ok("read_excel", map[string]any{"file_path": "sh.xlsx", "range": "C1:C3"})
	assert.Equal(t, []any{[]any{float64(20)}, []any{float64(4)}, []any{float64(6)}}, read["values"])

	// A number stored as text is found by its digits and stays text; the
	// number beside it stays a number.
	got = e.ok("find_replace", map[string]any{"file_path": "sh.xlsx", "find": "1500", "replace": "1600", "cell_range": "A4:B4"})
	assert.Equal(t, map[string][2]any{"Sheet1!A4": {"1500", "1600"}, "Sheet1!B4": {"1500", "1600"}}, changes(got))
	f = e.open("sh.xlsx")
	for cell, want := range map[string]excelize.CellType{"A4": excelize.CellTypeSharedString, "B4": excelize.CellTypeUnset} {
		typ, err := f.GetCellType("Sheet1", cell)
		require.NoError(t, err)
		assert.Equal(t, want, typ, cell)
	}
}
