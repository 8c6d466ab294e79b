package engine

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// The book's drawings: charts and pictures anchored at a cell.

// AddChart adds chart to sheet, anchored at the cell ref.
func (b *Book) AddChart(sheet, ref string, chart *excelize.Chart) error {
	return b.f.AddChart(sheet, ref, chart)
}

// AddPicture adds the picture pic to sheet, anchored at the cell ref.
func (b *Book) AddPicture(sheet, ref string, pic *excelize.Picture) error {
	return b.f.AddPictureFromBytes(sheet, ref, pic)
}
