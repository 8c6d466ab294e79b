package excelops

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's merged ranges.

// mergeCells are the merged ranges of sheet, without the values of their
// top-left cells when withoutValues says so.
func (b *book) mergeCells(sheet string, withoutValues ...bool) ([]excelize.MergeCell, error) {
	return b.f.GetMergeCells(sheet, withoutValues...)
}

// mergeCell merges the range from top-left to bottom-right of sheet.
func (b *book) mergeCell(sheet, topLeft, bottomRight string) error {
	return b.f.MergeCell(sheet, topLeft, bottomRight)
}

// unmergeCell unmerges the range from top-left to bottom-right of sheet.
func (b *book) unmergeCell(sheet, topLeft, bottomRight string) error {
	return b.f.UnmergeCell(sheet, topLeft, bottomRight)
}
