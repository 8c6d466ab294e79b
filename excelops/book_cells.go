package excelops

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's cells as the tools read and write them one at a time: values,
// formulas, types and hyperlinks. Each method returns the engine's error
// as it is; the tool wraps it in the payload it reports.

// cellValue is the text of the cell ref of sheet, formatted unless opts
// ask for the raw value.
func (b *book) cellValue(sheet, ref string, opts ...excelize.Options) (string, error) {
	return b.f.GetCellValue(sheet, ref, opts...)
}

// cellFormula is the formula of the cell ref of sheet ("" for none).
func (b *book) cellFormula(sheet, ref string) (string, error) {
	return b.f.GetCellFormula(sheet, ref)
}

// cellType is the stored type of the cell ref of sheet.
func (b *book) cellType(sheet, ref string) (excelize.CellType, error) {
	return b.f.GetCellType(sheet, ref)
}

// rowTexts is every row of sheet as the texts of its cells.
func (b *book) rowTexts(sheet string, opts ...excelize.Options) ([][]string, error) {
	return b.f.GetRows(sheet, opts...)
}

// setCellValue stores v in the cell ref of sheet (nil clears its value).
func (b *book) setCellValue(sheet, ref string, v any) error {
	return b.f.SetCellValue(sheet, ref, v)
}

// setCellStr stores the text s in the cell ref of sheet.
func (b *book) setCellStr(sheet, ref, s string) error {
	return b.f.SetCellStr(sheet, ref, s)
}

// setCellFormula stores the formula text in the cell ref of sheet.
func (b *book) setCellFormula(sheet, ref, text string, opts ...excelize.FormulaOpts) error {
	return b.f.SetCellFormula(sheet, ref, text, opts...)
}

// cellHyperLink says whether the cell ref of sheet holds a hyperlink, and
// its target.
func (b *book) cellHyperLink(sheet, ref string) (bool, string, error) {
	return b.f.GetCellHyperLink(sheet, ref)
}

// setCellHyperLink links the cell ref of sheet to link, of linkType
// ("External", "Location", or "None" to remove it).
func (b *book) setCellHyperLink(sheet, ref, link, linkType string, opts ...excelize.HyperlinkOpts) error {
	return b.f.SetCellHyperLink(sheet, ref, link, linkType, opts...)
}
