package engine

import "io"

// The book's sheets as a whole: their order, names, visibility, the
// active tab, copies and deletion, and the whole package written out.

// SetSheetName renames the sheet old to name.
func (b *Book) SetSheetName(old, name string) error {
	return b.f.SetSheetName(old, name)
}

// DeleteSheet deletes sheet.
func (b *Book) DeleteSheet(sheet string) error {
	return b.f.DeleteSheet(sheet)
}

// CopySheet copies the sheet of index from onto the sheet of index to.
func (b *Book) CopySheet(from, to int) error {
	return b.f.CopySheet(from, to)
}

// SheetVisible says whether sheet is visible.
func (b *Book) SheetVisible(sheet string) (bool, error) {
	return b.f.GetSheetVisible(sheet)
}

// SetSheetVisible shows or hides sheet.
func (b *Book) SetSheetVisible(sheet string, visible bool) error {
	return b.f.SetSheetVisible(sheet, visible)
}

// SetActiveSheet makes the sheet of index i the active tab.
func (b *Book) SetActiveSheet(i int) {
	b.f.SetActiveSheet(i)
}

// WriteTo writes the whole workbook, as it is in memory, to w.
func (b *Book) WriteTo(w io.Writer) (int64, error) {
	return b.f.WriteTo(w)
}
