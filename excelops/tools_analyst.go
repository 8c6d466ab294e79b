package excelops

import "github.com/registry-sidecar/registry-sidecar/registry"

// The structure an analyst uses (issue 11 item 2): tables, frozen panes,
// filters, sorting, find and replace, notes and links. Each tool's body is
// in its own file (tool_table.go, tool_view.go, tool_sort.go, tool_find.go,
// tool_notes.go).

// pCell is the schema of a single-cell argument named cell.
const pCell = `"cell": {"type": "string", "description": "One cell, e.g. \"B2\""}`

// analystTools declares the analyst tools' specs.
func (s *Service) analystTools() []toolSpec {
	return []toolSpec{
		{"create_table", "Turn a range with a header row into an Excel table (name, style, banded rows); refuses ranges that overlap a table, an autofilter or merged cells.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"cell_range": {"type": "string", "description": "The table's cells, header row first, e.g. \"A1:D20\" (at least two rows)"},
			"table_name": {"type": "string", "description": "Name used in structured references (Table1[qty]): a letter or _ first, then letters, digits, _ or .; unique in the workbook; default Table1, Table2, ..."},
			"style": {"type": "string", "enum": ` + enumJSON(tableStyles()) + `, "description": "Built-in table style (default TableStyleMedium2); \"none\" for a plain table"},
			"show_row_stripes": {"type": "boolean", "description": "Banded rows (default true)"},
			"show_column_stripes": {"type": "boolean", "description": "Banded columns (default false)"},
			"show_first_column": {"type": "boolean", "description": "Emphasise the first column (default false)"},
			"show_last_column": {"type": "boolean", "description": "Emphasise the last column (default false)"}},
			"required": ["file_path", "cell_range"], "additionalProperties": false}`,
			s.createTable, writeTimeout, registry.Additive()},
		{"freeze_panes", "Freeze the rows above and the columns left of a cell (\"B2\" freezes row 1 and column A); \"A1\" or unfreeze: true removes frozen panes.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"cell": {"type": "string", "description": "First cell that scrolls: rows above it and columns left of it stay in view, e.g. \"A2\" (header row), \"B1\" (first column), \"B2\" (both)"},
			"unfreeze": {"type": "boolean", "description": "Remove frozen panes instead (cell is then not needed)"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.freezePanes, writeTimeout, registry.Additive()},
		{"set_autofilter", "Put filter buttons on a range's header row, optionally filtering columns (rows that do not match are hidden); remove: true takes the filter off and shows its rows.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"cell_range": {"type": "string", "description": "The filtered cells, header row first, e.g. \"A1:D20\"; a sheet has one autofilter, so this replaces any other"},
			"filters": {"type": "array", "description": "Column criteria, all of which a row must meet to stay visible", "items": {"type": "object", "description": "One column's criterion", "properties": {
				"column": {"type": "string", "description": "Column letter inside cell_range, e.g. \"C\""},
				"operator": {"type": "string", "enum": ` + enumJSON(filterOperators()) + `, "description": "How the column's values are compared with value: numbers numerically, text ignoring case; blanks and nonBlanks need no value"},
				"value": {"type": ["string", "number"], "description": "The value compared with (not for blanks and nonBlanks)"}},
				"required": ["column", "operator"], "additionalProperties": false}},
			"remove": {"type": "boolean", "description": "Remove the sheet's autofilter and show the rows it hid (cell_range is then not needed)"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.setAutofilter, writeTimeout, registry.Destructive()},
		{"sort_range", "Sort the rows of a range by one or more columns, as Excel does (numbers before text, blanks last; formulas move with their row and their relative references follow).",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"cell_range": {"type": "string", "description": "The rows to sort, e.g. \"A1:D20\"; every column of the range moves together"},
			"sort_by": {"type": "array", "minItems": 1, "maxItems": 64, "description": "Sort keys, most important first", "items": {"type": "object", "description": "One sort key", "properties": {
				"column": {"type": "string", "description": "Column letter inside cell_range (\"C\"), or with header: true the header's text (\"qty\")"},
				"order": {"type": "string", "enum": ["ascending", "descending"], "description": "ascending (default): numbers low to high, then text A to Z (ignoring case), then FALSE, TRUE; descending reverses that; blanks are last either way"}},
				"required": ["column"], "additionalProperties": false}},
			"header": {"type": "boolean", "description": "The range's first row is a header that stays in place (default false)"}},
			"required": ["file_path", "cell_range", "sort_by"], "additionalProperties": false}`,
			s.sortRange, writeTimeout, registry.Destructive()},
		{"find_replace", "Find text in cell values (and optionally formulas) on one sheet, a range or every sheet and replace it; returns the cells changed.",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "Sheet to search; omitted: every sheet (or, with cell_range, the active sheet)"},
			"cell_range": {"type": "string", "description": "Only these cells, e.g. \"A1:D20\", on sheet_name or the active sheet"},
			"find": {"type": "string", "minLength": 1, "description": "Text to find; a number cell matches by its digits, e.g. \"1500\" finds 1500"},
			"replace": {"type": "string", "description": "Replacement text (\"\" deletes what was found); a number cell stays a number when the result is one"},
			"match_case": {"type": "boolean", "description": "Match upper and lower case exactly (default false)"},
			"whole_cell": {"type": "boolean", "description": "Match only cells whose entire content equals find (default false: any occurrence inside the text)"},
			"in_formulas": {"type": "boolean", "description": "Also replace inside formula text, e.g. a sheet or function name (default false: formula cells are left alone); a replacement that makes a formula invalid is refused and nothing is written"},
			"dry_run": {"type": "boolean", "description": "Only list what would change; nothing is written (default false)"}},
			"required": ["file_path", "find", "replace"], "additionalProperties": false}`,
			s.findReplace, writeTimeout, registry.Destructive()},
		{"add_comment", "Add a note (comment) with an author to a cell, replacing the cell's existing note; remove: true deletes it.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pCell + `,
			"text": {"type": "string", "description": "The note's text (at most 32,767 characters)"},
			"author": {"type": "string", "description": "Author shown with the note (default \"Author\"; at most 255 characters)"},
			"remove": {"type": "boolean", "description": "Delete the cell's note instead (text is then not needed)"}},
			"required": ["file_path", "cell"], "additionalProperties": false}`,
			s.addComment, writeTimeout, registry.Destructive()},
		{"set_hyperlink", "Link a cell to a web address (url) or a place in the workbook (location \"Sheet!A1\") with display text and tooltip, styled blue and underlined as Excel does; remove: true deletes the link.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pCell + `,
			"url": {"type": "string", "description": "External target: http://, https://, mailto: or ftp:// address (at most 2,079 characters)"},
			"location": {"type": "string", "description": "Internal target instead of url: a cell or range of this workbook, e.g. \"Summary!A1\" or \"'Q1 Plan'!B2:C4\""},
			"display_text": {"type": "string", "description": "Text written into the cell (default: the cell keeps its value, or shows the target when empty)"},
			"tooltip": {"type": "string", "description": "Text shown when hovering over the link (at most 255 characters)"},
			"remove": {"type": "boolean", "description": "Delete the cell's link instead (its value stays)"}},
			"required": ["file_path", "cell"], "additionalProperties": false}`,
			s.setHyperlink, writeTimeout, registry.Destructive()},
	}
}
