package excelops

import "fmt"

// The checks rowReader makes while it streams a sheet: they bound what one
// cell may make it hold and refuse rows or cells out of order, which would
// otherwise make a read stop early (a sheet whose first <row> is the last
// row would read as empty) or drop cells. Excel itself refuses such files.

// checkText fails once the current cell's text is longer than the bound.
func (rr *rowReader) checkText() error {
	if rr.maxText <= 0 || len(rr.text) <= rr.maxText {
		return nil
	}
	where := fmt.Sprintf("cell %s of sheet %q", cellName(max(rr.col, 1), max(rr.row, 1)), rr.sheet)
	return Limits{MaxCellTextBytes: int64(rr.maxText)}.cellTextErr(where)
}

// checkRowOrder fails when row n does not come after the previous row.
func (rr *rowReader) checkRowOrder(n int) error {
	prev := rr.lastRow
	rr.lastRow = n
	if prev == 0 || n > prev {
		return nil
	}
	return newError(KindDamaged, fmt.Sprintf("file is damaged: the rows of sheet %q are out of order (row %d comes after row %d); Excel refuses such a file too: open and save it again in a spreadsheet program to repair it", rr.sheet, n, prev), nil)
}

// checkCellOrder fails when column col does not come after the previous
// cell of the row.
func (rr *rowReader) checkCellOrder(col int) error {
	if rr.col == 0 || col > rr.col {
		return nil
	}
	return newError(KindDamaged, fmt.Sprintf("file is damaged: the cells of row %d of sheet %q are out of order (%s comes after %s); Excel refuses such a file too: open and save it again in a spreadsheet program to repair it",
		rr.row, rr.sheet, cellName(col, rr.row), cellName(rr.col, rr.row)), nil)
}
