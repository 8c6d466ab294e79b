package sheetread

import (
	"math"
)

// The style ids of a row walk: compare_excel compares the styles of the
// cells it matches by their ids first, so it keeps them beside the values.

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
