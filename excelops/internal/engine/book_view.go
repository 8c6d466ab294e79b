package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's views and page setup of a sheet: panes, sheet views, page
// layout, margins and header and footer.

// Panes are the panes of sheet's first view.
func (b *Book) Panes(sheet string) (excelize.Panes, error) {
	return b.f.GetPanes(sheet)
}

// SetPanes sets the panes of sheet's first view.
func (b *Book) SetPanes(sheet string, p *excelize.Panes) error {
	return b.f.SetPanes(sheet, p)
}

// SheetView is the view of index i of sheet.
func (b *Book) SheetView(sheet string, i int) (excelize.ViewOptions, error) {
	return b.f.GetSheetView(sheet, i)
}

// SetPageLayout sets the page layout of sheet.
func (b *Book) SetPageLayout(sheet string, opts *excelize.PageLayoutOptions) error {
	return b.f.SetPageLayout(sheet, opts)
}

// SetSheetProps sets the sheet properties of sheet.
func (b *Book) SetSheetProps(sheet string, opts *excelize.SheetPropsOptions) error {
	return b.f.SetSheetProps(sheet, opts)
}

// SetPageMargins sets the page margins of sheet.
func (b *Book) SetPageMargins(sheet string, opts *excelize.PageLayoutMarginsOptions) error {
	return b.f.SetPageMargins(sheet, opts)
}

// SetHeaderFooter sets the header and footer of sheet (nil clears them).
func (b *Book) SetHeaderFooter(sheet string, opts *excelize.HeaderFooterOptions) error {
	return b.f.SetHeaderFooter(sheet, opts)
}

// AutoFilter puts an autofilter on the range rng of sheet.
func (b *Book) AutoFilter(sheet, rng string) error {
	return b.f.AutoFilter(sheet, rng, nil)
}

// RowVisible reports whether row of sheet is shown.
func (b *Book) RowVisible(sheet string, row int) (bool, error) {
	return b.f.GetRowVisible(sheet, row)
}

// SetRowVisible shows or hides row of sheet.
func (b *Book) SetRowVisible(sheet string, row int, visible bool) error {
	return b.f.SetRowVisible(sheet, row, visible)
}

// PageLayout is the page layout of sheet (orientation, paper, scaling).
func (b *Book) PageLayout(sheet string) (excelize.PageLayoutOptions, error) {
	return b.f.GetPageLayout(sheet)
}

// SheetProps is the sheet properties of sheet (fit to page, tab colour...).
func (b *Book) SheetProps(sheet string) (excelize.SheetPropsOptions, error) {
	return b.f.GetSheetProps(sheet)
}
