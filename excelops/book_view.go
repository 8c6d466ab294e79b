package excelops

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's views and page setup of a sheet: panes, sheet views, page
// layout, margins and header and footer.

// panes are the panes of sheet's first view.
func (b *book) panes(sheet string) (excelize.Panes, error) {
	return b.f.GetPanes(sheet)
}

// setPanes sets the panes of sheet's first view.
func (b *book) setPanes(sheet string, p *excelize.Panes) error {
	return b.f.SetPanes(sheet, p)
}

// sheetView is the view of index i of sheet.
func (b *book) sheetView(sheet string, i int) (excelize.ViewOptions, error) {
	return b.f.GetSheetView(sheet, i)
}

// setPageLayout sets the page layout of sheet.
func (b *book) setPageLayout(sheet string, opts *excelize.PageLayoutOptions) error {
	return b.f.SetPageLayout(sheet, opts)
}

// setSheetProps sets the sheet properties of sheet.
func (b *book) setSheetProps(sheet string, opts *excelize.SheetPropsOptions) error {
	return b.f.SetSheetProps(sheet, opts)
}

// setPageMargins sets the page margins of sheet.
func (b *book) setPageMargins(sheet string, opts *excelize.PageLayoutMarginsOptions) error {
	return b.f.SetPageMargins(sheet, opts)
}

// setHeaderFooter sets the header and footer of sheet (nil clears them).
func (b *book) setHeaderFooter(sheet string, opts *excelize.HeaderFooterOptions) error {
	return b.f.SetHeaderFooter(sheet, opts)
}
