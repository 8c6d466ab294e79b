package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's notes (excelize's comments), one per cell.

// Comments are the notes of sheet.
func (b *Book) Comments(sheet string) ([]excelize.Comment, error) {
	return b.f.GetComments(sheet)
}

// AddComment adds the note c to sheet.
func (b *Book) AddComment(sheet string, c excelize.Comment) error {
	return b.f.AddComment(sheet, c)
}

// DeleteComment removes the note of the cell ref of sheet.
func (b *Book) DeleteComment(sheet, ref string) error {
	return b.f.DeleteComment(sheet, ref)
}
