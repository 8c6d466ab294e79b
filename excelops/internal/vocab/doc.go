// Package vocab is the one argument vocabulary of the spreadsheet tools:
// the shapes a colour, a font, a fill, a border, an alignment and a number
// format take in every tool that styles cells (format_cells, conditional
// rules, tables, charts), the fixed name lists their schemas offer as
// enums (names.go), and the parse of those shapes into an excelize style.
// Shapes that shipped stay accepted as documented aliases (RuleFormat's
// flat font_color, fill_color, bold and italic).
//
//	sc, err := vocab.ParseStyleChange(&vocab.FontSpec{Bold: &yes}, nil, nil, nil, nil)
//	style := sc.Apply(base) // base's style with the change laid over it
//
// It reads no workbook. ARCHITECTURE.md at the repository root places it in
// the package map.
package vocab
