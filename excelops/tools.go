package excelops

import (
	"context"
	"encoding/json"
	"time"
)

// Shared schema fragments (argument names follow excelmanus).
const (
	pFile  = `"file_path": {"type": "string", "description": "Workbook path inside the workspace (.xlsx)"}`
	pSheet = `"sheet_name": {"type": "string", "description": "Sheet name; default the active sheet"}`
	pRange = `"cell_range": {"type": "string", "description": "Cells as \"A1\" (one cell) or \"A1:C3\" (a rectangle); whole columns or rows like \"A:A\" are not accepted"}`
)

// rawSpec is a tool in the older form: its schema written by hand and a
// plan on the raw arguments.
type rawSpec struct {
	name, title, desc, schema string
	plan                      func(context.Context, json.RawMessage) (*call, error)
	timeout                   time.Duration
	access                    access
}

// spec is r as a toolSpec.
func (r rawSpec) spec() toolSpec {
	return toolSpec{name: r.name, title: r.title, desc: r.desc, timeout: r.timeout, access: r.access, raw: &r}
}

// specs converts a list of older-form tools.
func specs(list []rawSpec) []toolSpec {
	out := make([]toolSpec, len(list))
	for i, r := range list {
		out[i] = r.spec()
	}
	return out
}

// tools lists every spreadsheet tool in registration order.
func (s *Service) tools() []toolSpec {
	specs := specs([]rawSpec{
		{"list_sheets", "List sheets", "List the sheets of an Excel workbook with their order and which one is active.",
			`{"type": "object", "properties": {` + pFile + `}, "required": ["file_path"], "additionalProperties": false}`,
			s.listSheets, readTimeout, access{files: []fileUse{{arg: "file_path", touch: touchStyles}}}},
		{"read_excel", "Read sheet data", "Read an Excel sheet: a summary page (header + rows) or an exact range, with offset/max_rows paging; dates and times come back as ISO-8601 text.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"range": {"type": "string", "description": "Exact A1 range to read, e.g. \"A1:T100\"; omit for summary mode"},
			"max_rows": {"type": "integer", "minimum": 1, "description": "Most rows per page (summary default 50); a page holds fewer when more would not fit the result size limit, and has_more/next_offset then say where to go on"},
			"offset": {"type": "integer", "minimum": 0, "description": "Rows to skip: pass the previous page's next_offset (summary mode counts data rows holding cells; range mode counts rows from the range's first row)"},
			"formulas": {"type": "string", "enum": ["values", "formulas", "both"], "default": "values", "description": "How formula cells come back: \"values\" (default) the computed value, or the formula text \"=...\" when the file holds none; \"formulas\" the formula text; \"both\" {\"formula\": \"=...\", \"value\": value or null}"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.readExcel, readTimeout, readStream()},
		{"write_cells", "Write cells", "Write one cell (cell+value) or a 2-D block (cell_range+values) into a sheet; strings starting with = are formulas, ISO-8601 dates become Excel dates; values past Excel's limits are refused and nothing is written.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"cell": {"type": "string", "description": "Target cell such as \"A1\" (single-cell mode)"},
			"value": ` + cellValueSchema(`"description": "Value for cell: number, string, boolean, null or \"=FORMULA\""`) + `,
			"cell_range": {"type": "string", "description": "Top-left cell or range of the block (block mode)"},
			"values": {"type": "array", "items": {"type": "array", "items": ` + cellValueSchema("") + `}, "description": "Rows of values (block mode), each row a list of numbers, strings, booleans or nulls, e.g. [[\"item\", \"qty\"], [\"pen\", 3]]"},
			"create": {"type": "boolean", "description": "true: create the workbook and/or sheet when missing; false: never create. Omitted: a missing workbook is created unless a workbook with a close name exists (a likely typo), and a missing sheet is an error"},
			"value_types": {"type": "string", "enum": ["auto", "text"], "description": "auto (default): \"=...\" is a formula, numeric text a number, ISO-8601 dates/times (\"2024-01-31\", \"13:45:00\", \"2024-01-31T13:45:00\") real Excel dates, and a leading apostrophe keeps the rest as text (\"'2024-01-31\"); text: every string is stored as text unchanged"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.writeCells, writeTimeout, editCells(sheetTarget, access{destructive: true, idempotent: true})},
		{"insert_rows", "Insert rows", "Insert empty rows before a row number; existing rows move down.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"row": {"type": "integer", "minimum": 1, "description": "Row number (1-based) to insert before"},
			"count": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "Rows to insert, default 1"}},
			"required": ["file_path", "row"], "additionalProperties": false}`,
			s.insertRows, writeTimeout, editStructure("sheet_name", sheetEdit, access{guard: guardEverySheet})},
		{"insert_columns", "Insert columns", "Insert empty columns before a column (letter like \"C\" or number); existing columns move right.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"column": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "Column letter (\"C\") or number (3) to insert before"},
			"count": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Columns to insert, default 1"}},
			"required": ["file_path", "column"], "additionalProperties": false}`,
			s.insertColumns, writeTimeout, editStructure("sheet_name", sheetEdit, access{guard: guardEverySheet})},
		{"delete_rows", "Delete rows", "Delete rows starting at a row number; rows below move up.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"row": {"type": "integer", "minimum": 1, "description": "First row (1-based) to delete"},
			"count": {"type": "integer", "minimum": 1, "maximum": 10000, "description": "Rows to delete, default 1"}},
			"required": ["file_path", "row"], "additionalProperties": false}`,
			s.deleteRows, writeTimeout, editStructure("sheet_name", sheetEdit, access{guard: guardEverySheet, destructive: true})},
		{"delete_columns", "Delete columns", "Delete columns starting at a column (letter like \"C\" or number); columns to the right move left. References to deleted cells become #REF!, ranges that lose columns shrink.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"column": {"anyOf": [{"type": "string"}, {"type": "integer"}], "description": "First column to delete: letter (\"C\") or number (3)"},
			"count": {"type": "integer", "minimum": 1, "maximum": 1000, "description": "Columns to delete, default 1"}},
			"required": ["file_path", "column"], "additionalProperties": false}`,
			s.deleteColumns, writeTimeout, editStructure("sheet_name", sheetEdit, access{guard: guardEverySheet, destructive: true})},
		{"format_cells", "Format cells", "Apply font, fill, border, alignment and number format to a range; unspecified attributes are kept.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `,
			"font": ` + fontSchema() + `,
			"fill": ` + fillSchema() + `,
			"border": ` + borderSchema() + `,
			"alignment": ` + alignmentSchema() + `,
			"number_format": {"type": "string", "description": "Excel number format code, e.g. \"#,##0.00\", \"0%\" or \"yyyy-mm-dd\""}},
			"required": ["file_path", "cell_range"], "additionalProperties": false}`,
			s.formatCells, writeTimeout, editCells(sheetEdit, access{keepsValues: true, destructive: true, idempotent: true})},
		{"read_cell_styles", "Read cell styles", "Read the font, fill, border, alignment and number format of the cells of a range (first 200 styled cells).",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `}, "required": ["file_path", "cell_range"], "additionalProperties": false}`,
			s.readCellStyles, readTimeout, access{files: []fileUse{{arg: "file_path", sheetArg: "sheet_name", touch: touchStyles, sheet: sheetRead}}}},
		{"adjust_column_width", "Set column widths", "Set column widths ([{\"column\": \"A\", \"width\": 20}]) or fit them to their content (auto_fit).",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"columns": {"type": "array", "items": {"type": "object", "properties": {
				"column": {"type": "string", "description": "Column letter, e.g. \"A\""},
				"width": {"type": "number", "description": "Width in characters, above 0 and at most ` + jsonNum(maxColumnWidth) + `"}},
				"required": ["column", "width"], "additionalProperties": false},
				"description": "Widths to set, e.g. [{\"column\": \"A\", \"width\": 20}] (the older form {\"A\": 20} is accepted too)"},
			"auto_fit": {"type": "boolean", "description": "Fit every used column to its longest value"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.adjustColumnWidth, writeTimeout, editCells(sheetEdit, access{keepsValues: true, destructive: true, idempotent: true})},
		{"merge_cells", "Merge cells", "Merge a range of cells into one that keeps the top-left value; refused when other cells hold data unless discard_values is true.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `,
			"discard_values": {"type": "boolean", "description": "Merge even when cells other than the top-left hold values or formulas; they are cleared and listed in the result (default false: such a merge is refused, naming the cells)"}},
			"required": ["file_path", "cell_range"], "additionalProperties": false}`,
			s.mergeCells(true), writeTimeout, editStructure("sheet_name", sheetEdit, access{destructive: true, idempotent: true})},
		{"unmerge_cells", "Unmerge cells", "Unmerge a merged range.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `}, "required": ["file_path", "cell_range"], "additionalProperties": false}`,
			s.mergeCells(false), writeTimeout, editStructure("sheet_name", sheetEdit, access{idempotent: true})},
		{"add_conditional_rule", "Add conditional formatting", "Add conditional formatting (cell_is, formula, icon_set, color_scale, data_bar) to a range; several rules apply all-or-nothing.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `, ` + ruleProps() + `,
			"rules": {"type": "array", "minItems": 1, "description": "Several rules, applied all or none, instead of (or after) the one given by the top-level fields",
				"items": {"type": "object", "description": "One rule", "properties": {
				"cell_range": {"type": "string", "description": "Cells of this rule, as \"A1:C3\"; default the top-level cell_range"}, ` + ruleProps() + `}, "required": ["rule_type"], "additionalProperties": false}}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.addConditionalRule, writeTimeout, editStructure("sheet_name", sheetEdit, access{keepsValues: true})},
		{"add_data_validation", "Add data validation", "Add data validation (list, whole, decimal, date, time, textLength, custom) to a range.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `,
			"validation_type": {"type": "string", "enum": ["list", "whole", "decimal", "date", "time", "textLength", "custom"], "description": "list: a drop-down (values or formula1); whole, decimal, date, time, textLength: the value (or its length) compared by operator with formula1 (and formula2); custom: formula1 must be true"},
			"operator": {"type": "string", "enum": ["between", "notBetween", "equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual"], "description": "How whole, decimal, date, time and textLength compare with formula1 (and formula2 for between, notBetween); default between"},
			"formula1": {"type": "string", "description": "First bound (a number, a date like \"2024-01-31\" or a formula like \"=A1\"), the list's source range (\"$A$1:$A$5\") or the custom formula (\"=A1>0\")"},
			"formula2": {"type": "string", "description": "Second bound, for between and notBetween"},
			"values": {"type": "array", "items": {"type": "string"}, "description": "list: the allowed values, e.g. [\"yes\", \"no\"]"},
			"allow_blank": {"type": "boolean", "description": "Whether an empty cell is valid (default true)"},
			"error_title": {"type": "string", "description": "Title of the error box shown on invalid input"},
			"error_message": {"type": "string", "description": "Text of the error box shown on invalid input"},
			"prompt_title": {"type": "string", "description": "Title of the input message shown when a cell is selected"},
			"prompt": {"type": "string", "description": "Text of the input message shown when a cell is selected"}},
			"required": ["file_path", "cell_range", "validation_type"], "additionalProperties": false}`,
			s.addDataValidation, writeTimeout, editStructure("sheet_name", sheetEdit, access{keepsValues: true})},
		{"create_sheet", "Create sheet", "Create an empty sheet, optionally at a position (0 = first).",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "New sheet name"},
			"position": {"type": "integer", "minimum": 0, "description": "Index to insert at; default last"}},
			"required": ["file_path", "sheet_name"], "additionalProperties": false}`,
			s.createSheet, writeTimeout, editStructure("", sheetNone, access{guard: guardEverySheet, keepsValues: true, idempotent: true})},
		{"rename_sheet", "Rename sheet", "Rename a sheet.",
			`{"type": "object", "properties": {` + pFile + `,
			"old_name": {"type": "string", "description": "Current sheet name (matched ignoring case)"},
			"new_name": {"type": "string", "description": "New sheet name: at most 31 characters, none of : \\ / ? * [ ], not starting or ending with '"}},
			"required": ["file_path", "old_name", "new_name"], "additionalProperties": false}`,
			s.renameSheet, writeTimeout, editStructure("old_name", sheetRead, access{guard: guardEverySheet, idempotent: true})},
		{"delete_sheet", "Delete sheet", "Delete a sheet (needs confirm=true).",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "Sheet to delete"},
			"confirm": {"type": "boolean", "description": "Must be true"}},
			"required": ["file_path", "sheet_name"], "additionalProperties": false}`,
			s.deleteSheet, writeTimeout, editStructure("sheet_name", sheetDrop, access{guard: guardEverySheet, destructive: true, idempotent: true})},
		{"copy_range_between_sheets", "Copy range", "Copy the values and formulas of a range to another sheet, in the same or another workbook; relative references in copied formulas move with the copy, absolute ones stay (values_only pastes results instead).",
			`{"type": "object", "properties": {
			"source_file": {"type": "string", "description": "Source workbook path"},
			"source_sheet": {"type": "string", "description": "Sheet to copy from"},
			"source_range": {"type": "string", "description": "Cells to copy, as \"A1:D10\" (or one cell \"A1\")"},
			"target_file": {"type": "string", "description": "Target workbook; default the source"},
			"target_sheet": {"type": "string", "description": "Sheet to copy into, default Sheet1; must exist unless create is true"},
			"target_start": {"type": "string", "description": "Top-left target cell, default A1"},
			"create": {"type": "boolean", "description": "Create target_sheet when it does not exist (default false: a missing sheet is an error naming the sheets that exist)"},
			"values_only": {"type": "boolean", "description": "Paste values only: each formula cell is copied as its computed result (default false: formulas are copied with relative references moved by the copy's offset and absolute ($) ones kept, as Excel's paste does)"}},
			"required": ["source_file", "source_sheet", "source_range"], "additionalProperties": false}`,
			s.copyRange, writeTimeout, copyRangeAccess()},
		{"create_excel_chart", "Create chart", "Insert a native Excel chart (bar, line, pie, scatter, area) built from a data range.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"chart_type": {"type": "string", "enum": ["bar", "line", "pie", "scatter", "area"], "description": "Kind of chart"},
			"data_range": {"type": "string", "description": "Data with a header row naming the series, e.g. \"B1:D20\""},
			"categories_range": {"type": "string", "description": "Category labels, e.g. \"A2:A20\""},
			"target_cell": {"type": "string", "description": "Top-left cell of the chart"},
			"target_sheet": {"type": "string", "description": "Sheet to place the chart on, default the data sheet; must exist unless create is true"},
			"create": {"type": "boolean", "description": "Create target_sheet when it does not exist (default false: a missing sheet is an error naming the sheets that exist)"},
			"title": {"type": "string", "description": "Chart title"},
			"x_title": {"type": "string", "description": "Title of the horizontal (category) axis"},
			"y_title": {"type": "string", "description": "Title of the vertical (value) axis"},
			"width": {"type": "number", "description": "Width in cm, above 0 and at most 200 (default 15)"},
			"height": {"type": "number", "description": "Height in cm, above 0 and at most 200 (default 10)"},
			"from_rows": {"type": "boolean", "description": "Series are rows instead of columns"}},
			"required": ["file_path", "chart_type", "data_range"], "additionalProperties": false}`,
			s.createChart, writeTimeout, editStructure("sheet_name", sheetEdit, access{keepsValues: true})},
	})
	specs = append(specs, mediaTools()...)
	specs = append(specs, analystTools()...)
	specs = append(specs, workbookTools()...)
	return specs
}
