package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's cell styles: the style index a cell carries and the style
// table behind it.

// CellStyle is the style index of the cell ref of sheet.
func (b *Book) CellStyle(sheet, ref string) (int, error) {
	return b.f.GetCellStyle(sheet, ref)
}

// SetCellStyle gives every cell of the range from top-left to bottom-right
// of sheet the style index id.
func (b *Book) SetCellStyle(sheet, topLeft, bottomRight string, id int) error {
	return b.f.SetCellStyle(sheet, topLeft, bottomRight, id)
}

// StyleByID is the style of index id in the style table.
func (b *Book) StyleByID(id int) (*excelize.Style, error) {
	return b.f.GetStyle(id)
}

// NewStyle adds st to the style table (or finds it there) and returns its
// index.
func (b *Book) NewStyle(st *excelize.Style) (int, error) {
	return b.f.NewStyle(st)
}
