package excelops

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's notes (excelize's comments), one per cell.

// comments are the notes of sheet.
func (b *book) comments(sheet string) ([]excelize.Comment, error) {
	return b.f.GetComments(sheet)
}

// addComment adds the note c to sheet.
func (b *book) addComment(sheet string, c excelize.Comment) error {
	return b.f.AddComment(sheet, c)
}

// deleteComment removes the note of the cell ref of sheet.
func (b *book) deleteComment(sheet, ref string) error {
	return b.f.DeleteComment(sheet, ref)
}
