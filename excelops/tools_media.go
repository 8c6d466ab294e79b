package excelops

import "strconv"

// mediaTools are the tools that put pictures and summaries into a
// workbook and the one that renders a range as a picture: insert_image,
// create_pivot_table and render_range.
func (s *Service) mediaTools() []toolSpec {
	return specs([]rawSpec{
		{"insert_image", "Insert image", "Insert a PNG or JPEG image from the workspace into a sheet, anchored at a cell, optionally scaled or sized, with alt text.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"image_path": {"type": "string", "description": "Image file inside the workspace: PNG or JPEG (recognised by its content, not its name), at most ` + mib(maxImageBytes) + `"},
			"cell": {"type": "string", "description": "Cell the image's top-left corner is anchored at, e.g. \"B2\""},
			"scale": {"type": "number", "minimum": ` + strconv.FormatFloat(minImageScale, 'g', -1, 64) + `, "maximum": ` + jsonNum(maxImageScale) + `, "description": "Scale both sides by this factor (1 = the image's own pixel size); cannot be combined with width or height"},
			"width": {"type": "integer", "minimum": 1, "maximum": ` + jsonNum(maxImageSidePx) + `, "description": "Displayed width in pixels; with height left out the aspect ratio is kept"},
			"height": {"type": "integer", "minimum": 1, "maximum": ` + jsonNum(maxImageSidePx) + `, "description": "Displayed height in pixels; with width left out the aspect ratio is kept"},
			"alt_text": {"type": "string", "maxLength": 2000, "description": "Alternative text describing the image for screen readers"}},
			"required": ["file_path", "image_path", "cell"], "additionalProperties": false}`,
			s.insertImage, writeTimeout, editStructure("sheet_name", sheetEdit, access{keepsValues: true})},
		{"create_pivot_table", "Create pivot table", "Create a pivot table summarising a source range with a header row: row and column fields and values (sum, count or average) by header name.",
			`{"type": "object", "properties": {` + pFile + `,
			"sheet_name": {"type": "string", "description": "Sheet holding the source data; default the active sheet"},
			"source_range": {"type": "string", "description": "Source data with its header row first, e.g. \"A1:D100\"; every header cell must hold a distinct name"},
			"target_sheet": {"type": "string", "description": "Sheet to place the pivot table on, default the source sheet; must exist unless create is true"},
			"target_cell": {"type": "string", "description": "Top-left cell of the pivot table; default two columns right of the source range on the source sheet, A3 on another sheet"},
			"create": {"type": "boolean", "description": "Create target_sheet when it does not exist (default false: a missing sheet is an error naming the sheets that exist)"},
			"rows": {"type": "array", "items": {"type": "string"}, "description": "Header names of the fields whose values become row labels, outermost first"},
			"columns": {"type": "array", "items": {"type": "string"}, "description": "Header names of the fields whose values become column labels, outermost first"},
			"values": {"type": "array", "minItems": 1, "description": "The summarised fields",
				"items": {"type": "object", "description": "One summarised field", "properties": {
				"field": {"type": "string", "description": "Header name of the field to summarise"},
				"function": {"type": "string", "enum": ` + enumJSON(pivotFunctions()) + `, "description": "How the field's values are combined (default sum)"}},
				"required": ["field"], "additionalProperties": false}},
			"name": {"type": "string", "maxLength": 255, "description": "Pivot table name, default PivotTable1, PivotTable2, ..."}},
			"required": ["file_path", "source_range", "values"], "additionalProperties": false}`,
			s.createPivotTable, writeTimeout, editStructure("sheet_name", sheetEdit, access{keepsValues: true})},
		{"render_range", "Render range as image", "Render a sheet range (default: the print area or used range) to a PNG image through LibreOffice so you can look at it; returns the image's path, size and pixel dimensions, and in not_rendered what the picture leaves out: links to pictures, files, workbooks or data outside the workbook are never followed.",
			`{"type": "object", "properties": {` + pFile + `, ` + pSheet + `,
			"cell_range": {"type": "string", "description": "Cells to render as \"A1:F20\"; default the sheet's print area, else its used range; at most ` + jsonNum(maxRenderRows) + ` rows and ` + jsonNum(maxRenderCols) + ` columns"},
			"output_path": {"type": "string", "description": "Where to write the PNG inside the workspace (.png); default next to the workbook as <workbook>-<sheet>.png. An existing file is replaced"}},
			"required": ["file_path"], "additionalProperties": false}`,
			s.renderRange, renderTimeout + readTimeout, renderAccess()},
	})
}

// renderAccess is render_range's declaration: the workbook's bytes are
// copied under the shared lock (a streamed read, never parsed in place), the
// copy is rendered with no lock held, and the PNG at output_path is written,
// replacing a file that is there (the same call again writes the same PNG).
func renderAccess() access {
	return access{
		files:       []fileUse{{arg: "file_path", touch: touchStream}},
		output:      "output_path",
		destructive: true,
		idempotent:  true,
	}
}
