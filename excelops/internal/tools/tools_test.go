package tools

import (
	"encoding/json"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// minimalArgs are valid arguments for each tool against data.xlsx / Sheet1.
func minimalArgs() map[string]map[string]any {
	return map[string]map[string]any{
		"list_sheets":               {},
		"read_excel":                {},
		"write_cells":               {"cell": "D1", "value": 1},
		"insert_rows":               {"row": 2},
		"insert_columns":            {"column": "B"},
		"delete_rows":               {"row": 2},
		"delete_columns":            {"column": "C"},
		"format_cells":              {"cell_range": "A1:B2", "font": map[string]any{"bold": true}},
		"read_cell_styles":          {"cell_range": "A1:B2"},
		"adjust_column_width":       {"columns": map[string]any{"A": 20}},
		"merge_cells":               {"cell_range": "E1:F1"},
		"unmerge_cells":             {"cell_range": "G1:H1"},
		"add_conditional_rule":      {"cell_range": "B2:B3", "rule_type": "data_bar"},
		"add_data_validation":       {"cell_range": "C2:C3", "validation_type": "list", "values": []any{"a", "b"}},
		"create_sheet":              {"sheet_name": "New"},
		"rename_sheet":              {"old_name": "Other", "new_name": "Renamed"},
		"delete_sheet":              {"sheet_name": "Other", "confirm": true},
		"copy_range_between_sheets": {"source_sheet": "Sheet1", "source_range": "A1:B2", "target_sheet": "Other"},
		"create_excel_chart":        {"chart_type": "line", "data_range": "B1:B3", "categories_range": "A2:A3"},
		"insert_image":              {"image_path": "pic.png", "cell": "D2"},
		"create_pivot_table":        {"source_range": "A1:B3", "rows": []any{"name"}, "values": []any{map[string]any{"field": "qty"}}},
		"render_range":              {"cell_range": "A1:B3"},
		"create_table":              {"cell_range": "A1:B3"},
		"freeze_panes":              {"cell": "A2"},
		"set_autofilter":            {"cell_range": "A1:B3"},
		"sort_range":                {"cell_range": "A1:B3", "header": true, "sort_by": []any{map[string]any{"column": "qty", "order": "descending"}}},
		"find_replace":              {"find": "a", "replace": "z"},
		"add_comment":               {"cell": "A1", "text": "note"},
		"set_hyperlink":             {"cell": "C1", "url": "https://example.com"},
		"create_workbook":           {"overwrite": true},
		"list_workbooks":            {},
		"describe_workbook":         {},
		"define_name":               {"name": "Qty", "refers_to": "Sheet1!$B$2:$B$3"},
		"copy_sheet":                {},
		"clear_range":               {"cell_range": "A2:B2"},
		"delete_range":              {"cell_range": "A2:B2", "shift": "up"},
		"get_reference_map":         {},
		"trace_references":          {"target": "Sheet1!B2"},
		"get_impact_analysis":       {"target": "Sheet1!B2"},
		"inspect_excel_files":       {},
		"scan_excel_snapshot":       {},
		"compare_excel":             {},
		"filter_data":               {"column": "qty", "operator": "gt", "value": 0},
		"search_excel_values":       {"query": "a"},

		"discover_file_relationships": {},
	}
}

// withFile adds the file argument under the tool's name for it.
func withFile(tool, file string, args map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range args {
		out[k] = v
	}
	switch tool {
	case "copy_range_between_sheets":
		out["source_file"] = file
	case "list_workbooks", "inspect_excel_files":
		// no file argument: it lists the workspace
	case "compare_excel":
		out["file_a"], out["file_b"] = file, file
	case "discover_file_relationships":
		out["file_paths"] = []any{file}
	default:
		out["file_path"] = file
	}
	return out
}

// dataBook writes data.xlsx: a header, two rows, a merged G1:H1, sheet
// Other; and the picture pic.png.
func dataBook(e *env) {
	e.writeImage("pic.png", "png", 16, 8)
	e.workbook("data.xlsx", [][]any{{"name", "qty"}, {"a", 1}, {"b", 2}})
	f, err := excelize.OpenFile(e.path("data.xlsx"))
	require.NoError(e.t, err)
	defer f.Close()
	require.NoError(e.t, f.MergeCell("Sheet1", "G1", "H1"))
	_, err = f.NewSheet("Other")
	require.NoError(e.t, err)
	require.NoError(e.t, f.Save())
}

func TestEveryToolIsRegisteredWithSchemaAndDescription(t *testing.T) {
	e := newEnv(t)
	want := []string{"list_sheets", "read_excel", "write_cells", "insert_rows", "insert_columns", "delete_rows", "delete_columns",
		"format_cells", "read_cell_styles", "adjust_column_width", "merge_cells", "unmerge_cells",
		"add_conditional_rule", "add_data_validation", "create_sheet", "rename_sheet", "delete_sheet",
		"copy_range_between_sheets", "create_excel_chart", "insert_image", "create_pivot_table", "render_range",
		"create_table", "freeze_panes", "set_autofilter", "sort_range", "find_replace", "add_comment", "set_hyperlink",
		"create_workbook", "list_workbooks", "describe_workbook", "define_name", "copy_sheet", "clear_range", "delete_range",
		"get_reference_map", "trace_references", "get_impact_analysis",
		"inspect_excel_files", "scan_excel_snapshot", "compare_excel",
		"filter_data", "search_excel_values", "discover_file_relationships"}
	var got []string
	for _, tool := range e.reg.Tools() {
		got = append(got, tool.Name)
		assert.NotEmpty(t, tool.Description)
		assert.NotContains(t, tool.Description, "\n", "descriptions are one line")
		var schema map[string]any
		require.NoError(t, json.Unmarshal(tool.InputSchema, &schema), tool.Name)
		assert.Equal(t, false, schema["additionalProperties"], tool.Name)
	}
	assert.Equal(t, want, got)
	assert.Len(t, minimalArgs(), len(want))
}

func TestToolsSucceedWithTheirResultShape(t *testing.T) {
	skipUnderRace(t)
	firstKeys := map[string][]string{
		"list_sheets":               {"status", "file", "sheet_count", "active_sheet", "sheets"},
		"read_excel":                {"status", "file", "sheet", "columns", "offset", "rows_returned", "has_more", "rows"},
		"write_cells":               {"status", "file", "sheet", "cell", "value_written", "cells_written"},
		"insert_rows":               {"status", "file", "sheet", "inserted_at_row", "count", "rows_before", "rows_after"},
		"insert_columns":            {"status", "file", "sheet", "inserted_at_column", "inserted_at_column_index", "count", "columns_before", "columns_after"},
		"delete_rows":               {"status", "file", "sheet", "deleted_from_row", "count", "rows_before", "rows_after"},
		"delete_columns":            {"status", "file", "sheet", "deleted_from_column", "deleted_from_column_index", "count", "columns_before", "columns_after"},
		"format_cells":              {"status", "file", "sheet", "range", "cells_formatted"},
		"read_cell_styles":          {"status", "file", "sheet", "range", "total_cells", "merged_ranges", "truncated", "styled_cells"},
		"adjust_column_width":       {"status", "file", "sheet", "columns_adjusted"},
		"merge_cells":               {"status", "file", "sheet", "merged_range"},
		"unmerge_cells":             {"status", "file", "sheet", "unmerged_range"},
		"add_conditional_rule":      {"status", "file", "sheet", "rules_added", "rules"},
		"add_data_validation":       {"status", "file", "sheet", "range", "validation_type"},
		"create_sheet":              {"status", "file", "sheet", "position", "sheets"},
		"rename_sheet":              {"status", "file", "old_name", "new_name", "sheets"},
		"delete_sheet":              {"status", "file", "deleted_sheet", "remaining_sheets"},
		"copy_range_between_sheets": {"status", "source", "target", "rows_copied", "cells_written"},
		"create_excel_chart":        {"status", "file", "chart_type", "data_sheet", "sheet", "anchor", "series_count"},
		"insert_image":              {"status", "file", "sheet", "anchor", "image", "format", "image_width", "image_height", "width", "height"},
		"create_pivot_table":        {"status", "file", "pivot_table", "source_sheet", "source_range", "sheet", "anchor", "estimated_range", "rows", "columns", "values", "note"},
		"render_range":              {"status", "file", "sheet", "range", "output_path", "size_bytes", "width", "height", "blank", "not_rendered", "network_isolation"},
		"create_table":              {"status", "file", "sheet", "table_name", "range", "style", "columns", "data_rows"},
		"freeze_panes":              {"status", "file", "sheet", "frozen_rows", "frozen_columns", "top_left_cell", "previously_frozen"},
		"set_autofilter":            {"status", "file", "sheet", "range", "filters", "rows_hidden"},
		"sort_range":                {"status", "file", "sheet", "range", "header", "sort_by", "rows_sorted", "rows_moved"},
		"find_replace":              {"status", "file", "sheets_searched", "dry_run", "cells_changed", "changes", "truncated"},
		"add_comment":               {"status", "file", "sheet", "cell", "author", "replaced"},
		"set_hyperlink":             {"status", "file", "sheet", "cell", "url", "display_text", "replaced"},
		"create_workbook":           {"status", "file", "path", "sheets", "overwritten"},
		"list_workbooks":            {"status", "folder", "total", "offset", "returned", "has_more", "workbooks"},
		"inspect_excel_files":       {"status", "directory", "files_found", "offset", "files_returned", "has_more", "partial", "files"},
		"scan_excel_snapshot":       {"status", "file", "sheet_count", "active_sheet", "offset", "sheets_returned", "has_more", "sheets", "shared_columns"},
		"compare_excel":             {"status", "file_a", "sheet_a", "file_b", "sheet_b", "key_columns", "identical", "summary", "columns_added", "columns_removed", "total_diffs", "offset", "diffs_returned", "has_more", "diffs"},
		"describe_workbook":         {"status", "file", "sheet_count", "active_sheet", "sheets", "defined_names"},
		"define_name":               {"status", "file", "name", "scope", "refers_to"},
		"copy_sheet":                {"status", "file", "source_sheet", "new_sheet", "position", "sheets"},
		"clear_range":               {"status", "file", "sheet", "range", "cleared", "values_cleared", "formulas_cleared", "formats_cleared", "unmerged"},
		"delete_range":              {"status", "file", "sheet", "deleted_range", "shift", "cells_deleted", "cells_moved"},
		"get_reference_map":         {"status", "file", "detail", "formula_count", "sheets", "cross_sheet_edges", "edges_truncated", "named_ranges", "tables", "external_links"},
		"trace_references":          {"status", "file", "sheet", "target", "formula", "direction", "depth", "total_precedents", "total_dependents", "precedents", "dependents", "complete", "offset", "returned", "has_more", "truncated"},
		"get_impact_analysis":       {"status", "file", "sheet", "target", "scope", "total_affected_cells", "direct_count", "affected_sheets", "direct_impact", "indirect_impact", "complete", "dynamic_formulas", "offset", "returned", "has_more", "truncated"},
		"filter_data":               {"status", "file", "sheet", "columns", "header_row", "total_matched", "offset", "rows_returned", "has_more", "truncated", "row_numbers", "rows"},
		"search_excel_values":       {"status", "file", "query", "match_mode", "total_matches", "offset", "returned", "has_more", "truncated", "sheets_searched", "matches", "summary_by_sheet"},

		"discover_file_relationships": {"status", "files_analyzed", "files", "sample_rows", "overlap_threshold", "summary", "suggested_groups", "shared_columns_total", "offset", "returned", "has_more", "file_pairs", "merge_hints", "workbook_links", "partial", "truncated"},
	}
	for tool, args := range minimalArgs() {
		t.Run(tool, func(t *testing.T) {
			if tool == "render_range" {
				needSoffice(t)
			}
			e := newEnvOf(t, t.TempDir(), []string{tool})
			dataBook(e)
			res := e.call(tool, withFile(tool, "data.xlsx", args))
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, firstKeys[tool], keyOrder(t, res.Text))
		})
	}
}

// keyOrder returns the top-level keys of a JSON object in document order.
func keyOrder(t *testing.T, text string) []string {
	t.Helper()
	dec := json.NewDecoder(stringsReader(text))
	_, err := dec.Token()
	require.NoError(t, err)
	var keys []string
	for dec.More() {
		k, err := dec.Token()
		require.NoError(t, err)
		keys = append(keys, k.(string))
		var skip json.RawMessage
		require.NoError(t, dec.Decode(&skip))
	}
	return keys
}

func TestToolsReportCommonErrors(t *testing.T) {
	for tool, args := range minimalArgs() {
		t.Run(tool, func(t *testing.T) {
			e := newEnvOf(t, t.TempDir(), []string{tool})
			dataBook(e)
			cases := []struct {
				name, file, sheet, exception string
			}{
				{"outside the workspace", "../data.xlsx", "", "PermissionError"},
				{"missing file", "missing.xlsx", "", "FileNotFoundError"},
				{"not a workbook", "notes.txt", "", "ValueError"},
				{"damaged file", "broken.xlsx", "", "BadZipFile"},
			}
			require.NoError(t, writeFile(e.path("broken.xlsx"), "not a zip"))
			for _, c := range cases {
				if tool == "write_cells" && c.name == "missing file" {
					continue // write_cells creates missing workbooks
				}
				if commonErrorExempt(tool, c.name) {
					continue
				}
				p := e.fail(tool, withFile(tool, c.file, args))
				assert.Equal(t, c.exception, p["exception"], "%s: %v", c.name, p)
				assert.Equal(t, "TOOL_EXECUTION_ERROR", p["error_code"])
			}
		})
	}
}

func TestToolsReportMissingSheet(t *testing.T) {
	for tool, args := range minimalArgs() {
		a := withFile(tool, "data.xlsx", args)
		switch tool {
		case "list_sheets", "create_sheet", "create_workbook", "list_workbooks", "inspect_excel_files", "scan_excel_snapshot",
			"get_reference_map":
			continue // no sheet argument to get wrong (inspect_excel_files' sheet_name filters)
		case "trace_references", "get_impact_analysis":
			a["target"] = "Nope!B2"
		case "search_excel_values":
			continue // sheets filters the sheets of every workbook searched
		case "discover_file_relationships":
			continue // no sheet argument: every worksheet is read
		case "define_name":
			a["scope"] = "Nope"
		case "rename_sheet":
			a["old_name"] = "Nope"
		case "delete_sheet":
			a["sheet_name"] = "Nope"
		case "copy_range_between_sheets":
			a["source_sheet"] = "Nope"
		case "compare_excel":
			a["sheet_a"] = "Nope"
		default:
			a["sheet_name"] = "Nope"
		}
		t.Run(tool, func(t *testing.T) {
			e := newEnvOf(t, t.TempDir(), []string{tool})
			dataBook(e)
			p := e.fail(tool, a)
			assert.Equal(t, "KeyError", p["exception"], p)
			assert.Contains(t, p["message"], "Nope")
		})
	}
}

func TestToolsReportInvalidArguments(t *testing.T) {
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"read_excel", map[string]any{"range": "A0:B2"}, "invalid cell range"},
		{"write_cells", map[string]any{}, "give cell+value"},
		{"write_cells", map[string]any{"cell": "A1", "value": 1, "values": [][]any{{1}}}, "exclusive"},
		{"write_cells", map[string]any{"cell": "ZZZZ1", "value": 1}, "invalid cell range"},
		{"insert_rows", map[string]any{"row": 2000000}, "row must be between"},
		{"insert_columns", map[string]any{"column": "1A"}, "invalid column"},
		{"delete_rows", map[string]any{"row": 2000000}, "row must be between"},
		{"format_cells", map[string]any{"cell_range": "A1"}, "at least one of"},
		{"read_cell_styles", map[string]any{"cell_range": "A1:B"}, "invalid cell range"},
		{"adjust_column_width", map[string]any{}, "give columns"},
		{"adjust_column_width", map[string]any{"columns": map[string]any{"A": 300}}, "width of column A"},
		{"merge_cells", map[string]any{"cell_range": "A1"}, "at least two cells"},
		{"unmerge_cells", map[string]any{"cell_range": "A1:B2"}, "is not merged"},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A3"}, "give rule_type"},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A3", "rule_type": "cell_is", "operator": "between", "values": []any{1}}, "exactly two values"},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A3", "rule_type": "formula"}, "need a formula"},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A3", "rule_type": "color_scale", "min_color": "teal-ish"}, "invalid colour"},
		{"add_data_validation", map[string]any{"cell_range": "A1", "validation_type": "list"}, "needs values or formula1"},
		{"add_data_validation", map[string]any{"cell_range": "A1", "validation_type": "whole", "formula1": "1"}, "needs formula2"},
		{"create_sheet", map[string]any{"sheet_name": "bad/name"}, "may not contain"},
		{"create_sheet", map[string]any{"sheet_name": "sheet1"}, "already exists"},
		{"create_sheet", map[string]any{"sheet_name": "X", "position": 9}, "position must be"},
		{"rename_sheet", map[string]any{"old_name": "Sheet1", "new_name": "Other"}, "already exists"},
		{"delete_sheet", map[string]any{"sheet_name": "Other"}, "confirm=true"},
		{"copy_range_between_sheets", map[string]any{"source_sheet": "Sheet1", "source_range": "A1:B2", "target_start": "XFD1"}, "past Excel's last column XFD (16,384)"},
		{"create_excel_chart", map[string]any{"chart_type": "line", "data_range": "B1"}, "header row"},
		{"create_excel_chart", map[string]any{"chart_type": "line", "data_range": "B1:B3", "width": -1}, "width and height"},
	}
	for _, c := range cases {
		t.Run(c.tool+"/"+c.want, func(t *testing.T) {
			e := newEnvOf(t, t.TempDir(), []string{c.tool})
			dataBook(e)
			p := e.fail(c.tool, withFile(c.tool, "data.xlsx", c.args))
			assert.Equal(t, "ValueError", p["exception"], p)
			assert.Contains(t, p["message"], c.want)
		})
	}
	t.Run("deleting the last sheet", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("one.xlsx", [][]any{{1}})
		p := e.fail("delete_sheet", map[string]any{"file_path": "one.xlsx", "sheet_name": "Sheet1", "confirm": true})
		assert.Contains(t, p["message"], "at least one sheet")
	})
}

func TestSchemaRejectsUnknownArguments(t *testing.T) {
	e := newEnv(t)
	p := e.fail("read_excel", map[string]any{"file_path": "a.xlsx", "bogus": 1})
	assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", p["error_code"])
	_ = registry.Result{}
}

// TestCreateSheetAtPositionInUnusualWorkbooks: placing a sheet by position
// must work in workbooks excelize's MoveSheet crashes on: a worksheet
// without <sheetViews> (many generators omit it) and a chart sheet (both
// crash its UngroupSheets), so book.moveSheet reorders the sheet list
// itself.
func TestCreateSheetAtPositionInUnusualWorkbooks(t *testing.T) {
	t.Run("sheet without sheetViews", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("v.xlsx", [][]any{{1}})
		f := e.open("v.xlsx")
		_, err := f.NewSheet("Bare")
		require.NoError(t, err)
		require.NoError(t, f.Save())
		withPart(t, e.path("v.xlsx"), "xl/worksheets/sheet2.xml", sheetXML("A1", `<row r="1"><c r="A1"><v>7</v></c></row>`))
		got := e.ok("create_sheet", map[string]any{"file_path": "v.xlsx", "sheet_name": "First", "position": 0})
		assert.Equal(t, []any{"First", "Sheet1", "Bare"}, got["sheets"])
		assert.Equal(t, []string{"First", "Sheet1", "Bare"}, e.open("v.xlsx").GetSheetList())
		assert.Equal(t, "7", e.value("v.xlsx", "Bare", "A1"))
	})
	t.Run("workbook with a chart sheet", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("c.xlsx", [][]any{{"k", "v"}, {"a", 1}, {"b", 2}})
		f := e.open("c.xlsx")
		require.NoError(t, f.AddChartSheet("Chart", &excelize.Chart{Type: excelize.Line,
			Series: []excelize.ChartSeries{{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2:$A$3", Values: "Sheet1!$B$2:$B$3"}}}))
		f.SetActiveSheet(0)
		require.NoError(t, f.Save())
		got := e.ok("create_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "First", "position": 0})
		assert.Equal(t, []any{"First", "Sheet1", "Chart"}, got["sheets"])
		g := e.open("c.xlsx")
		assert.Equal(t, []string{"First", "Sheet1", "Chart"}, g.GetSheetList())
		assert.Equal(t, "Sheet1", g.GetSheetName(g.GetActiveSheetIndex()), "the active sheet stays active")
		assert.Equal(t, "a", e.value("c.xlsx", "Sheet1", "A2"))
		sheets := e.ok("describe_workbook", map[string]any{"file_path": "c.xlsx"})["sheets"].([]any)
		require.Len(t, sheets, 3)
		assert.Equal(t, "chartsheet", sheets[2].(map[string]any)["kind"])
		// Appending works: it does not move sheets.
		e.ok("create_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Last"})
		// Row edits and sheet deletion skip the chart sheet.
		e.ok("insert_rows", map[string]any{"file_path": "c.xlsx", "sheet_name": "Sheet1", "row": 1})
		e.ok("delete_sheet", map[string]any{"file_path": "c.xlsx", "sheet_name": "Last", "confirm": true})
	})
}

// TestRegisterOnly: Register with names registers just those tools, each
// with the schema a full registration gives it; a name that is no tool is
// an error.
func TestRegisterOnly(t *testing.T) {
	e := newEnv(t)
	full := map[string]string{}
	for _, tool := range e.reg.Tools() {
		full[tool.Name] = string(tool.InputSchema)
	}
	r := registry.New()
	require.NoError(t, e.svc.Register(r, "read_excel", "list_sheets"))
	var got []string
	for _, tool := range r.Tools() {
		got = append(got, tool.Name)
		assert.JSONEq(t, full[tool.Name], string(tool.InputSchema), tool.Name)
	}
	assert.Equal(t, []string{"list_sheets", "read_excel"}, got, "in the stable order")
	assert.True(t, e.svc.HasTool("filter_data"))
	assert.False(t, e.svc.HasTool("filter_dat"))
	assert.Error(t, e.svc.Register(registry.New(), "read_excel", "no_such_tool"))
}
