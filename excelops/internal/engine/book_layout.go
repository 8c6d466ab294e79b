package engine

// The book's rows and columns as a whole: inserting and removing them,
// their widths and heights.

// InsertRows inserts n rows before row of sheet.
func (b *Book) InsertRows(sheet string, row, n int) error {
	return b.f.InsertRows(sheet, row, n)
}

// RemoveRow removes row of sheet.
func (b *Book) RemoveRow(sheet string, row int) error {
	return b.f.RemoveRow(sheet, row)
}

// InsertCols inserts n columns before the column named col of sheet.
func (b *Book) InsertCols(sheet, col string, n int) error {
	return b.f.InsertCols(sheet, col, n)
}

// RemoveCol removes the column named col of sheet.
func (b *Book) RemoveCol(sheet, col string) error {
	return b.f.RemoveCol(sheet, col)
}

// ColWidth is the width of the column named col of sheet.
func (b *Book) ColWidth(sheet, col string) (float64, error) {
	return b.f.GetColWidth(sheet, col)
}

// SetColWidth sets the width of the columns first to last of sheet.
func (b *Book) SetColWidth(sheet, first, last string, width float64) error {
	return b.f.SetColWidth(sheet, first, last, width)
}

// RowHeight is the height of row of sheet.
func (b *Book) RowHeight(sheet string, row int) (float64, error) {
	return b.f.GetRowHeight(sheet, row)
}
