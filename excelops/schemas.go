package excelops

// The nested objects of the tools' schemas, each fully specified: every
// property described, fixed vocabularies as enums (from vocab.go), unknown
// keys refused. They are inlined rather than $ref'd, so a model (and
// docs/TOOLS.md) sees each one whole where it is used.

// fontSchema is format_cells' font object.
func fontSchema() string {
	return `{"type": "object", "description": "Font attributes to set; attributes left out keep their current value", "properties": {
	"name": {"type": "string", "description": "Font family, e.g. \"Arial\""},
	"size": {"type": "number", "minimum": 1, "maximum": 409, "description": "Size in points, e.g. 11"},
	"bold": {"type": "boolean", "description": "Bold on (true) or off (false)"},
	"italic": {"type": "boolean", "description": "Italic on (true) or off (false)"},
	"underline": {"type": "string", "enum": ` + enumJSON(underlineStyles()) + `, "description": "Underline style; none removes it"},
	"strike": {"type": "boolean", "description": "Strikethrough on (true) or off (false)"},
	"color": {"type": "string", "description": "` + colorHelp("Text colour") + `"}},
	"additionalProperties": false}`
}

// fillSchema is format_cells' fill object.
func fillSchema() string {
	return `{"type": "object", "description": "Solid background fill", "properties": {
	"color": {"type": "string", "description": "` + colorHelp("Fill colour") + `"}},
	"required": ["color"], "additionalProperties": false}`
}

// borderSideSchema is one edge of format_cells' border object.
func borderSideSchema(side string) string {
	return `{"type": "object", "description": "The ` + side + ` edge only: overrides style and color for it", "properties": {
	"style": {"type": "string", "enum": ` + enumJSON(borderStyles()) + `, "description": "Line style of this edge; none removes it"},
	"color": {"type": "string", "description": "` + colorHelp("Line colour of this edge (default black)") + `"}},
	"additionalProperties": false}`
}

// borderSchema is format_cells' border object.
func borderSchema() string {
	return `{"type": "object", "description": "Cell borders: style and color apply to all four edges; left, right, top and bottom override one edge", "properties": {
	"style": {"type": "string", "enum": ` + enumJSON(borderStyles()) + `, "description": "Line style of every edge; none removes the borders"},
	"color": {"type": "string", "description": "` + colorHelp("Line colour of every edge (default black)") + `"},
	"left": ` + borderSideSchema("left") + `,
	"right": ` + borderSideSchema("right") + `,
	"top": ` + borderSideSchema("top") + `,
	"bottom": ` + borderSideSchema("bottom") + `},
	"additionalProperties": false}`
}

// alignmentSchema is format_cells' alignment object.
func alignmentSchema() string {
	return `{"type": "object", "description": "Text alignment; attributes left out keep their current value", "properties": {
	"horizontal": {"type": "string", "enum": ` + enumJSON(horizontalAlignments()) + `, "description": "Horizontal alignment"},
	"vertical": {"type": "string", "enum": ` + enumJSON(verticalAlignments()) + `, "description": "Vertical alignment"},
	"wrap_text": {"type": "boolean", "description": "Wrap long text onto several lines"},
	"text_rotation": {"type": "integer", "minimum": 0, "maximum": 180, "description": "Text angle as Excel stores it: 0-90 degrees upwards, 91-180 downwards (91 = -1, 180 = -90)"},
	"indent": {"type": "integer", "minimum": 0, "maximum": 250, "description": "Indent level (steps of about one character)"},
	"shrink_to_fit": {"type": "boolean", "description": "Shrink the text to fit the cell's width"}},
	"additionalProperties": false}`
}

// ruleFormatSchema is how cells matched by a cell_is or formula rule look.
func ruleFormatSchema() string {
	return `{"type": "object", "description": "cell_is and formula rules: how matching cells look (default: light red fill, dark red text)", "properties": {
	"font_color": {"type": "string", "description": "` + colorHelp("Text colour") + `"},
	"fill_color": {"type": "string", "description": "` + colorHelp("Fill colour") + `"},
	"bold": {"type": "boolean", "description": "Bold text"},
	"italic": {"type": "boolean", "description": "Italic text"}},
	"additionalProperties": false}`
}

// ruleProps are the properties of one conditional rule.
func ruleProps() string {
	return `"rule_type": {"type": "string", "enum": ["cell_is", "formula", "icon_set", "color_scale", "data_bar"], "description": "cell_is: compare each value (operator, values); formula: format where a formula is true (formula); icon_set: icons by value (icon_style); color_scale: colours from min_color over mid_color to max_color; data_bar: bars (bar_color)"},
	"operator": {"type": "string", "enum": ` + enumJSON(cellIsOperators()) + `, "description": "cell_is: how each cell is compared with values"},
	"values": {"type": "array", "items": {"type": "number"}, "maxItems": 2, "description": "cell_is: the number to compare with (two for between and notBetween)"},
	"formula": {"type": "string", "description": "formula rule: a formula written for the range's top-left cell, true where cells are formatted; relative references move with each cell, e.g. \"$A1>10\""},
	"format": ` + ruleFormatSchema() + `,
	"icon_style": {"type": "string", "enum": ` + enumJSON(iconStyles()) + `, "description": "icon_set: the set of icons"},
	"min_color": {"type": "string", "description": "` + colorHelp("color_scale: colour of the lowest value (default F8696B, red)") + `"},
	"mid_color": {"type": "string", "description": "` + colorHelp("color_scale: colour of the median; makes a three-colour scale (default: two colours)") + `"},
	"max_color": {"type": "string", "description": "` + colorHelp("color_scale: colour of the highest value (default 63BE7B, green)") + `"},
	"bar_color": {"type": "string", "description": "` + colorHelp("data_bar: bar colour (default 638EC6, blue)") + `"},
	"stop_if_true": {"type": "boolean", "description": "Stop evaluating lower-priority rules for a cell this rule matches"}`
}

// cellValueSchema is the schema of one cell value: a string ("=..." a
// formula), a number, a boolean or null, each branch typed (as every model
// provider wants); extra, when not empty, adds keywords (a description).
func cellValueSchema(extra string) string {
	s := `{"anyOf": [{"type": "string"}, {"type": "number"}, {"type": "boolean"}, {"type": "null"}]`
	if extra != "" {
		s += ", " + extra
	}
	return s + "}"
}
