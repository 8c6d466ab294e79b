package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's cells as the tools read and write them one at a time: values,
// formulas, types and hyperlinks. Each method returns the engine's error
// as it is; the tool wraps it in the payload it reports.

// CellValue is the text of the cell ref of sheet, formatted unless opts
// ask for the raw value.
func (b *Book) CellValue(sheet, ref string, opts ...excelize.Options) (string, error) {
	return b.f.GetCellValue(sheet, ref, opts...)
}

// CellFormula is the formula of the cell ref of sheet ("" for none).
func (b *Book) CellFormula(sheet, ref string) (string, error) {
	return b.f.GetCellFormula(sheet, ref)
}

// CellType is the stored type of the cell ref of sheet.
func (b *Book) CellType(sheet, ref string) (excelize.CellType, error) {
	return b.f.GetCellType(sheet, ref)
}

// RowTexts is every row of sheet as the texts of its cells.
func (b *Book) RowTexts(sheet string, opts ...excelize.Options) ([][]string, error) {
	return b.f.GetRows(sheet, opts...)
}

// SetCellValue stores v in the cell ref of sheet (nil clears its value).
func (b *Book) SetCellValue(sheet, ref string, v any) error {
	return b.f.SetCellValue(sheet, ref, v)
}

// SetCellStr stores the text s in the cell ref of sheet.
func (b *Book) SetCellStr(sheet, ref, s string) error {
	return b.f.SetCellStr(sheet, ref, s)
}

// SetCellFormula stores the formula text in the cell ref of sheet.
func (b *Book) SetCellFormula(sheet, ref, text string, opts ...excelize.FormulaOpts) error {
	return b.f.SetCellFormula(sheet, ref, text, opts...)
}

// CellHyperLink says whether the cell ref of sheet holds a hyperlink, and
// its target.
func (b *Book) CellHyperLink(sheet, ref string) (bool, string, error) {
	return b.f.GetCellHyperLink(sheet, ref)
}

// SetCellHyperLink links the cell ref of sheet to link, of linkType
// ("External", "Location", or "None" to remove it).
func (b *Book) SetCellHyperLink(sheet, ref, link, linkType string, opts ...excelize.HyperlinkOpts) error {
	return b.f.SetCellHyperLink(sheet, ref, link, linkType, opts...)
}

// CellRichText is the rich-text runs of the cell ref of sheet.
func (b *Book) CellRichText(sheet, ref string) ([]excelize.RichTextRun, error) {
	return b.f.GetCellRichText(sheet, ref)
}

// SetCellRichText stores runs as the rich text of the cell ref of sheet.
func (b *Book) SetCellRichText(sheet, ref string, runs []excelize.RichTextRun) error {
	return b.f.SetCellRichText(sheet, ref, runs)
}
