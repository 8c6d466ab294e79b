package excelops

import "io"

// The book's sheets as a whole: their order, names, visibility, the
// active tab, copies and deletion, and the whole package written out.

// setSheetName renames the sheet old to name.
func (b *book) setSheetName(old, name string) error {
	return b.f.SetSheetName(old, name)
}

// deleteSheet deletes sheet.
func (b *book) deleteSheet(sheet string) error {
	return b.f.DeleteSheet(sheet)
}

// copySheet copies the sheet of index from onto the sheet of index to.
func (b *book) copySheet(from, to int) error {
	return b.f.CopySheet(from, to)
}

// sheetVisible says whether sheet is visible.
func (b *book) sheetVisible(sheet string) (bool, error) {
	return b.f.GetSheetVisible(sheet)
}

// setSheetVisible shows or hides sheet.
func (b *book) setSheetVisible(sheet string, visible bool) error {
	return b.f.SetSheetVisible(sheet, visible)
}

// setActiveSheet makes the sheet of index i the active tab.
func (b *book) setActiveSheet(i int) {
	b.f.SetActiveSheet(i)
}

// writeTo writes the whole workbook, as it is in memory, to w.
func (b *book) writeTo(w io.Writer) (int64, error) {
	return b.f.WriteTo(w)
}
