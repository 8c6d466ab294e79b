package excelops

// The fixed vocabularies of the tools' arguments: one table each, read by
// the code that checks an argument and named in the argument structs' enum
// tags (${name}, schemaVars), so the two cannot drift apart.

// borderStyles are openpyxl's border style names, in excelize's id order.
func borderStyles() []string {
	return []string{"none", "thin", "medium", "dashed", "dotted", "thick", "double", "hair",
		"mediumDashed", "dashDot", "mediumDashDot", "dashDotDot", "mediumDashDotDot", "slantDashDot"}
}

// horizontalAlignments are Excel's horizontal alignments (openpyxl names).
func horizontalAlignments() []string {
	return []string{"general", "left", "center", "right", "fill", "justify", "centerContinuous", "distributed"}
}

// verticalAlignments are Excel's vertical alignments (openpyxl names).
func verticalAlignments() []string {
	return []string{"top", "center", "bottom", "justify", "distributed"}
}

// underlineStyles are the font underlines format_cells accepts.
func underlineStyles() []string { return []string{"single", "double", "none"} }

// cellIsOperators are the operators of a cell_is rule (openpyxl names),
// in the order cellIsCriteria lists them.
func cellIsOperators() []string {
	return []string{"equal", "notEqual", "greaterThan", "greaterThanOrEqual", "lessThan", "lessThanOrEqual", "between", "notBetween"}
}

// iconStyles are the icon sets Excel knows.
func iconStyles() []string {
	return []string{"3Arrows", "3ArrowsGray", "3Flags", "3Signs", "3Stars", "3Symbols", "3Symbols2",
		"3TrafficLights1", "3TrafficLights2", "3Triangles", "4Arrows", "4ArrowsGray", "4Rating",
		"4RedToBlack", "4TrafficLights", "5Arrows", "5ArrowsGray", "5Boxes", "5Quarters", "5Rating"}
}

// colorNames are the colour names parseColor accepts besides hex.
func colorNames() []string {
	return []string{"red", "green", "blue", "yellow", "white", "black", "orange", "purple", "gray",
		"lightgray", "lightblue", "lightgreen", "darkblue", "darkred"}
}
