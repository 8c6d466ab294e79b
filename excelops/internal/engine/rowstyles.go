package engine

import (
	"context"
	"math"
)

// The style ids of a row walk: compare_excel compares the styles of the
// cells it matches by their ids first, so it keeps them beside the values.

// RowsStyled is rows with, beside each row's values, the style ids of its
// cells in the window by index from c1 (empty cells included; nil when
// none names a style). Rows holding only empty cells are skipped as rows
// skips them.
func (b *Book) RowsStyled(ctx context.Context, sheet string, first, last, c1, c2 int, fn func(row int, vals []any, styles []int32) bool) error {
	return b.WalkRows(ctx, sheet, first, last, c1, c2, RowOpts{styles: true}, func(row int, rr *RowReader) bool { return fn(row, rr.Vals, rr.styles) })
}

// putStyle stores the style id of the cell in column col, when in the
// window; a repeated column keeps its first cell's, as its value does.
func (rr *RowReader) putStyle(col, style int) {
	if col < rr.c1 || (rr.c2 > 0 && col > rr.c2) || style <= 0 || style > math.MaxInt32 {
		return
	}
	idx := col - rr.c1
	if idx < len(rr.styles) {
		return
	}
	for len(rr.styles) < idx {
		rr.styles = append(rr.styles, 0)
	}
	rr.styles = append(rr.styles, int32(style))
}
