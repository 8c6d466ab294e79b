package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The worksheets excelize has parsed, reached through its typed accessors
// (File.SheetXMLPath, File.Worksheet): the tools that edit what excelize's
// public API cannot (move a cell with all it holds, rewrite the references
// of rules, hyperlinks and filters) change these structures in place, and
// excelize writes them back on save.

// ParsedSheet returns the worksheet excelize has already parsed for sheet,
// without parsing it; ok is false when it has not (or sheet is not a
// worksheet).
func ParsedSheet(f *excelize.File, sheet string) (*excelize.XMLWorksheet, bool) {
	part, ok := f.SheetXMLPath(sheet)
	if !ok {
		return nil, false
	}
	v, ok := f.Sheet.Load(part)
	if !ok {
		return nil, false
	}
	ws, ok := v.(*excelize.XMLWorksheet)
	return ws, ok && ws != nil
}

// ParsedWorksheet is parsedSheet on the book's engine: the worksheet
// already parsed for sheet, without parsing it.
func (b *Book) ParsedWorksheet(sheet string) (*excelize.XMLWorksheet, bool) {
	return ParsedSheet(b.f, sheet)
}

// Worksheet is the parsed worksheet of sheet, parsed now if excelize has
// not (a cached workbook drops its parsed sheets on save); ok is false for
// a chart sheet or a sheet that does not parse.
func (b *Book) Worksheet(sheet string) (*excelize.XMLWorksheet, bool) {
	ws, err := b.f.Worksheet(sheet)
	return ws, err == nil && ws != nil
}
