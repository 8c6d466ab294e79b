package excelops

import "fmt"

// The checks rowReader makes while it streams a sheet: they bound what one
// cell may make it hold and refuse rows or cells out of order, which would
// otherwise make a read stop early (a sheet whose first <row> is the last
// row would read as empty) or drop cells. Excel itself refuses such files.
// (The runBound reader under the walker bounds each text run while it
// streams; checkCell bounds a cell made of many runs.)

// checkRowOrder fails when row n does not come after the previous row.
func (rr *rowReader) checkRowOrder(n int) error {
	prev := rr.lastRow
	rr.lastRow, rr.lastCol = n, 0
	if prev == 0 || n > prev {
		return nil
	}
	return newError(KindDamaged, fmt.Sprintf("file is damaged: the rows of sheet %q are out of order (row %d comes after row %d); Excel refuses such a file too: open and save it again in a spreadsheet program to repair it", rr.sheet, n, prev), nil)
}

// checkCell fails when the finished cell does not come after the previous
// cell of its row, or when its text is longer than the per-cell bound.
func (rr *rowReader) checkCell() error {
	c := rr.w.Cell
	prev := rr.lastCol
	rr.lastCol = c.Col
	if prev != 0 && c.Col <= prev {
		return newError(KindDamaged, fmt.Sprintf("file is damaged: the cells of row %d of sheet %q are out of order (%s comes after %s); Excel refuses such a file too: open and save it again in a spreadsheet program to repair it",
			c.Row, rr.sheet, cellName(c.Col, c.Row), cellName(prev, c.Row)), nil)
	}
	if rr.maxText > 0 && len(c.Value) > rr.maxText {
		where := fmt.Sprintf("cell %s of sheet %q", cellName(c.Col, c.Row), rr.sheet)
		return Limits{MaxCellTextBytes: int64(rr.maxText)}.cellTextErr(where)
	}
	return nil
}
