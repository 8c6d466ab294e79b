package excelops

// The book's rows and columns as a whole: inserting and removing them,
// their widths and heights.

// insertRows inserts n rows before row of sheet.
func (b *book) insertRows(sheet string, row, n int) error {
	return b.f.InsertRows(sheet, row, n)
}

// removeRow removes row of sheet.
func (b *book) removeRow(sheet string, row int) error {
	return b.f.RemoveRow(sheet, row)
}

// insertCols inserts n columns before the column named col of sheet.
func (b *book) insertCols(sheet, col string, n int) error {
	return b.f.InsertCols(sheet, col, n)
}

// removeCol removes the column named col of sheet.
func (b *book) removeCol(sheet, col string) error {
	return b.f.RemoveCol(sheet, col)
}

// colWidth is the width of the column named col of sheet.
func (b *book) colWidth(sheet, col string) (float64, error) {
	return b.f.GetColWidth(sheet, col)
}

// setColWidth sets the width of the columns first to last of sheet.
func (b *book) setColWidth(sheet, first, last string, width float64) error {
	return b.f.SetColWidth(sheet, first, last, width)
}

// rowHeight is the height of row of sheet.
func (b *book) rowHeight(sheet string, row int) (float64, error) {
	return b.f.GetRowHeight(sheet, row)
}
