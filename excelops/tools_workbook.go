package excelops

import "github.com/registry-sidecar/registry-sidecar/registry"

// workbookTools declares the workbook-level tools: creating and listing
// workbooks, describing one, defining names, copying sheets, clearing and
// deleting ranges.
func (s *Service) workbookTools() []toolSpec {
	return []toolSpec{
		{"create_workbook", "Create a new empty workbook with the given sheets; an existing file is replaced only with overwrite=true.",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "Name of the one sheet of the new workbook (default \"Sheet1\"); use sheet_names for several"},
			"sheet_names": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 255, "description": "Names of the sheets of the new workbook, in order, e.g. [\"Data\", \"Summary\"]"},
			"overwrite": {"type": "boolean", "description": "Replace an existing file with the new empty workbook, losing its content (default false: an existing file is refused)"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.createWorkbook, writeTimeout, registry.Destructive()},
		{"list_workbooks", "List the workbook files (.xlsx, .xlsm) of the workspace or of a folder with size, modified time and sheet names, paged with offset/max_results.",
			`{"type": "object", "properties": {
			"folder": {"type": "string", "description": "Folder inside the workspace to list, e.g. \"reports/2024\"; default the whole workspace"},
			"recursive": {"type": "boolean", "description": "Look into subfolders too (default true); hidden folders are never entered"},
			"offset": {"type": "integer", "minimum": 0, "description": "Workbooks to skip: pass the previous page's next_offset"},
			"max_results": {"type": "integer", "minimum": 1, "maximum": 500, "description": "Most workbooks per page (default 50); has_more/next_offset say where to go on"}},
			"additionalProperties": false}`,
			s.listWorkbooks, readTimeout, registry.ReadOnly()},
		{"describe_workbook", "Describe a workbook before editing it: per sheet the used range, tables, merged ranges, charts, conditional formats, data validations, freeze panes and autofilter, and the defined names.",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "Describe only this sheet; default every sheet (at most 100)"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.describeWorkbook, readTimeout, registry.ReadOnly()},
		{"define_name", "Define a workbook- or sheet-scoped name for a reference, constant or formula; an existing name is replaced only with overwrite=true.",
			`{"type": "object", "properties": {` + pFile + `,
			"name": {"type": "string", "description": "The name: starts with a letter, _ or \\, then letters, digits, _, ., \\ or ?; no spaces, not a cell reference like \"A1\" or \"R1C1\", at most 255 characters"},
			"refers_to": {"type": "string", "description": "What the name stands for, with or without a leading =: a reference (\"Sheet1!$A$1:$B$10\", \"'My Sheet'!$C$2\"), a constant (\"0.19\") or a formula (\"SUM(Sheet1!$B:$B)\")"},
			"scope": {"type": "string", "description": "Sheet the name is local to; default (or \"workbook\") the whole workbook"},
			"comment": {"type": "string", "description": "Comment shown with the name in Excel's Name Manager"},
			"overwrite": {"type": "boolean", "description": "Replace a name that already exists in the same scope (default false: it is refused, saying what it refers to)"}},
			"required": ["file_path", "name", "refers_to"], "additionalProperties": false}`,
			s.defineName, writeTimeout, registry.Destructive()},
		{"copy_sheet", "Copy a worksheet within its workbook (values, formulas, styles, merges, rules, validations, notes); the copy's references to its source sheet point at the copy.",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "Sheet to copy; default the active sheet"},
			"new_name": {"type": "string", "description": "Name of the copy: at most 31 characters, none of : \\ / ? * [ ]; default as Excel names it, e.g. \"Data (2)\""},
			"position": {"type": "integer", "minimum": 0, "description": "Index the copy goes to (0 = first); default right after the source sheet"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.copySheet, writeTimeout, registry.Additive()},
		{"clear_range", "Clear the values and formulas (default), the formats, or both of a range; cells do not move, and clearing formats also undoes merges touching the range.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `,
			"what": {"type": "string", "enum": ` + enumJSON(clearWhat()) + `, "description": "values (default): values and formulas, styles kept (Excel's Clear Contents); formats: styles back to default and merged ranges touching the range unmerged, values kept (Clear Formats); both: everything (Clear All)"}},
			"required": ["file_path", "cell_range"], "additionalProperties": false}`,
			s.clearRange, writeTimeout, registry.Destructive()},
		{"delete_range", "Delete a range's cells and shift the cells below it up or the cells right of it left; references to deleted cells become #REF!, references to moved cells follow them.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `, ` + pRange + `,
			"shift": {"type": "string", "enum": ` + enumJSON(shiftDirections()) + `, "description": "up: cells below the range, in its columns, move up; left: cells right of the range, in its rows, move left. Refused when it would split a merged range, a table or an array formula"}},
			"required": ["file_path", "cell_range", "shift"], "additionalProperties": false}`,
			s.deleteRange, writeTimeout, registry.Destructive()},
	}
}
