package sheetread

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
)

// checkRowOrder fails when row n does not come after the previous row.
func (rr *RowReader) checkRowOrder(n int) error {
	prev := rr.lastRow
	rr.lastRow, rr.lastCol = n, 0
	if prev == 0 || n > prev {
		return nil
	}
	return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the rows of sheet %q are out of order (row %d comes after row %d); Excel refuses such a file too: open and save it again in a spreadsheet program to repair it", rr.sheet, n, prev), nil)
}

// checkCell fails when the finished cell does not come after the previous
// cell of its row, or when its text is longer than the per-cell bound.
func (rr *RowReader) checkCell() error {
	c := rr.W.Cell
	prev := rr.lastCol
	rr.lastCol = c.Col
	if prev != 0 && c.Col <= prev {
		return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: the cells of row %d of sheet %q are out of order (%s comes after %s); Excel refuses such a file too: open and save it again in a spreadsheet program to repair it",
			c.Row, rr.sheet, grid.CellName(c.Col, c.Row), grid.CellName(prev, c.Row)), nil)
	}
	if rr.maxText > 0 && len(c.Value) > rr.maxText {
		where := fmt.Sprintf("cell %s of sheet %q", grid.CellName(c.Col, c.Row), rr.sheet)
		return limits.Limits{MaxCellTextBytes: int64(rr.maxText)}.CellTextErr(where)
	}
	return nil
}
