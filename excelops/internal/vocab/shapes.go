package vocab

// The shapes of the style arguments, defined once: a colour, a font, a
// fill, a border, an alignment and a number format take the same JSON in
// every tool that takes one (format_cells, add_conditional_rule's format).
// Older shapes a tool shipped stay accepted as aliases beside them (see
// ruleFormat).

// ColorValue is a colour argument: hex "FF0000", "#FF0000", ARGB
// "FFFF0000" (the alpha is dropped) or a name of colorNames.
type ColorValue string

// Hex returns c as "RRGGBB", or an invalid-argument error.
func (c ColorValue) Hex() (string, error) { return ParseColor(string(c)) }

// NumberFormat is an Excel number format code, e.g. "#,##0.00"; "General"
// is Excel's default format.
type NumberFormat string

// FontSpec is a font argument, named as excelmanus (openpyxl) names it;
// attributes left out are not changed.
type FontSpec struct {
	Name      *string     `json:"name,omitempty" jsonschema:"Font family, e.g. \"Arial\""`
	Size      *float64    `json:"size,omitempty" minimum:"1" maximum:"409" jsonschema:"Size in points, e.g. 11"`
	Bold      *bool       `json:"bold,omitempty" jsonschema:"Bold on (true) or off (false)"`
	Italic    *bool       `json:"italic,omitempty" jsonschema:"Italic on (true) or off (false)"`
	Underline *string     `json:"underline,omitempty" enum:"${underlineStyles}" jsonschema:"Underline style; none removes it"`
	Strike    *bool       `json:"strike,omitempty" jsonschema:"Strikethrough on (true) or off (false)"`
	Color     *ColorValue `json:"color,omitempty" jsonschema:"Text colour${colorHelp}"`
}

// FillSpec is a solid background fill argument.
type FillSpec struct {
	Color ColorValue `json:"color" jsonschema:"Fill colour${colorHelp}"`
}

// BorderSpec is a border argument: style and color for every edge, with
// per-side overrides such as {"left": {"style": "thick"}}.
type BorderSpec struct {
	Style  string      `json:"style,omitempty" enum:"${borderStyles}" jsonschema:"Line style of every edge; none removes the borders"`
	Color  ColorValue  `json:"color,omitempty" jsonschema:"Line colour of every edge (default black)${colorHelp}"`
	Left   *borderSide `json:"left,omitempty" jsonschema:"The left edge only: overrides style and color for it"`
	Right  *borderSide `json:"right,omitempty" jsonschema:"The right edge only: overrides style and color for it"`
	Top    *borderSide `json:"top,omitempty" jsonschema:"The top edge only: overrides style and color for it"`
	Bottom *borderSide `json:"bottom,omitempty" jsonschema:"The bottom edge only: overrides style and color for it"`
}

// borderSide is one edge of a borderSpec.
type borderSide struct {
	Style string     `json:"style,omitempty" enum:"${borderStyles}" jsonschema:"Line style of this edge; none removes it"`
	Color ColorValue `json:"color,omitempty" jsonschema:"Line colour of this edge (default black)${colorHelp}"`
}

// AlignSpec is an alignment argument; attributes left out are not changed.
type AlignSpec struct {
	Horizontal   *string `json:"horizontal,omitempty" enum:"${horizontalAlignments}" jsonschema:"Horizontal alignment"`
	Vertical     *string `json:"vertical,omitempty" enum:"${verticalAlignments}" jsonschema:"Vertical alignment"`
	WrapText     *bool   `json:"wrap_text,omitempty" jsonschema:"Wrap long text onto several lines"`
	TextRotation *int    `json:"text_rotation,omitempty" minimum:"0" maximum:"180" jsonschema:"Text angle as Excel stores it: 0-90 degrees upwards, 91-180 downwards (91 = -1, 180 = -90)"`
	Indent       *int    `json:"indent,omitempty" minimum:"0" maximum:"250" jsonschema:"Indent level (steps of about one character)"`
	ShrinkToFit  *bool   `json:"shrink_to_fit,omitempty" jsonschema:"Shrink the text to fit the cell's width"`
}
