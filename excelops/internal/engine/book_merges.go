package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's merged ranges.

// MergeCells are the merged ranges of sheet, without the values of their
// top-left cells when withoutValues says so.
func (b *Book) MergeCells(sheet string, withoutValues ...bool) ([]excelize.MergeCell, error) {
	return b.f.GetMergeCells(sheet, withoutValues...)
}

// MergeCell merges the range from top-left to bottom-right of sheet.
func (b *Book) MergeCell(sheet, topLeft, bottomRight string) error {
	return b.f.MergeCell(sheet, topLeft, bottomRight)
}

// UnmergeCell unmerges the range from top-left to bottom-right of sheet.
func (b *Book) UnmergeCell(sheet, topLeft, bottomRight string) error {
	return b.f.UnmergeCell(sheet, topLeft, bottomRight)
}
