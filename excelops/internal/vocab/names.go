package vocab

// The fixed vocabularies of the tools' arguments: one table each, read by
// the code that checks an argument and named in the argument structs' enum
// tags (${name}, schemaVars), so the two cannot drift apart.

// BorderStyles are openpyxl's border style names, in excelize's id order.
func BorderStyles() []string {
	return []string{"none", "thin", "medium", "dashed", "dotted", "thick", "double", "hair",
		"mediumDashed", "dashDot", "mediumDashDot", "dashDotDot", "mediumDashDotDot", "slantDashDot"}
}

// HorizontalAlignments are Excel's horizontal alignments (openpyxl names).
func HorizontalAlignments() []string {
	return []string{"general", "left", "center", "right", "fill", "justify", "centerContinuous", "distributed"}
}

// VerticalAlignments are Excel's vertical alignments (openpyxl names).
func VerticalAlignments() []string {
	return []string{"top", "center", "bottom", "justify", "distributed"}
}

// UnderlineStyles are the font underlines format_cells accepts.
func UnderlineStyles() []string { return []string{"single", "double", "none"} }

// CellIsOperators are the operators of a cell_is rule (openpyxl names),
// in the order cellIsCriteria lists them.
func CellIsOperators() []string {
	return []string{"equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "between", "notBetween"}
}

// IconStyles are the icon sets Excel knows.
func IconStyles() []string {
	return []string{"3Arrows", "3ArrowsGray", "3Flags", "3Signs", "3Stars", "3Symbols", "3Symbols2",
		"3TrafficLights1", "3TrafficLights2", "3Triangles", "4Arrows", "4ArrowsGray", "4Rating",
		"4RedToBlack", "4TrafficLights", "5Arrows", "5ArrowsGray", "5Boxes", "5Quarters", "5Rating"}
}

// ColorNames are the colour names parseColor accepts besides hex.
func ColorNames() []string {
	return []string{"red", "green", "blue", "yellow", "white", "black", "orange", "purple", "gray",
		"lightgray", "lightblue", "lightgreen", "darkblue", "darkred"}
}
