package sheetread

import (
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sharedstrings"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// SheetExtent is what a fast pass over a worksheet's XML learns without
// parsing it: how far it reaches and how big excelize would make it.
type SheetExtent struct {
	rows           int   // <row> elements
	MinRow, MaxRow int   // row numbers of the used range (0 when empty)
	MinCol, MaxCol int   // column numbers of the used range (0 when empty)
	Padded         int64 // cells excelize materialises: each row padded to its last column, plus empty rows
	Closed         bool  // </sheetData> (or <sheetData/>) was seen: the XML is not truncated
}

// Empty reports whether no cell was seen.
func (e SheetExtent) Empty() bool { return e.MaxCol == 0 }

// ScanSheet reads worksheet XML as a stream of rows and cells (the shared
// sheetxml layer) and measures it. It stops early with a KindLimit error
// once the sheet is larger than lim allows, so a bomb costs one pass over
// the bytes and no allocations. Broken XML ends the scan with closed false.
// When strings is not nil, a cell pointing at a shared string that does
// not exist is damage, as a read reports it; strings gives the size of the
// table, asked once, at the first shared string cell.
func ScanSheet(r io.Reader, lim limits.Limits, strings func() (int, error)) (SheetExtent, error) {
	refs := sharedstrings.Refs{Count: strings}
	var (
		ext            SheetExtent
		w              = sheetxml.NewWalker(FailingReader{r})
		rowMaxCol      int
		inRow          bool
		lastCountedRow int
	)
	w.MaxText = int(lim.MaxCellTextBytes)
	closeRow := func() {
		if !inRow {
			return
		}
		inRow = false
		ext.Padded += int64(rowMaxCol)
		if gap := w.Row - lastCountedRow - 1; gap > 0 {
			ext.Padded += int64(gap)
		}
		lastCountedRow = w.Row
	}
	errLimitCells := func() error {
		return budget.TooLarge(fmt.Sprintf("the sheet would expand to more than %d cells in memory (cells far to the right pad every row)", lim.MaxCells))
	}
	for {
		ev, err := w.Next()
		if err != nil {
			if failure.KindOf(err) != "" {
				return ext, err // a bound (see runBound)
			}
			if errors.Is(err, sheetxml.ErrTextTooLong) {
				return ext, lim.CellTextErr(fmt.Sprintf("cell %s", grid.CellName(max(w.Cell.Col, 1), max(w.Cell.Row, 1))))
			}
			var rerr ReadError
			if errors.As(err, &rerr) {
				return ext, failure.New(failure.KindDamaged, "file is damaged: cannot read the sheet: "+err.Error(), err)
			}
			break // end of data, or broken XML: ext.closed says which
		}
		switch ev {
		case sheetxml.RowStart:
			closeRow()
			if w.Row > lim.MaxRows {
				return ext, budget.TooLarge(fmt.Sprintf("the sheet declares row %d, more than the limit of %d rows", w.Row, lim.MaxRows))
			}
			rowMaxCol, inRow = 0, true
			ext.rows++
		case sheetxml.RowEnd:
			closeRow()
		case sheetxml.CellDone:
			if col := w.Cell.Col; col > rowMaxCol {
				rowMaxCol = col
				if ext.Padded+int64(rowMaxCol) > lim.MaxCells {
					return ext, errLimitCells()
				}
			}
			ext.Widen(w.Row, w.Cell.Col)
			if err := refs.Check(&w.Cell); err != nil {
				return ext, err
			}
		}
	}
	closeRow()
	ext.Closed = w.Closed
	if ext.Padded > lim.MaxCells {
		return ext, errLimitCells()
	}
	return ext, nil
}

// ReadError marks a failure of the underlying reader (inflate), as opposed
// to broken XML.
type ReadError struct{ error }

// Unwrap returns the reader's error.
func (e ReadError) Unwrap() error { return e.error }

// FailingReader wraps r so its errors (other than io.EOF) are readErrors.
type FailingReader struct{ Reader io.Reader }

// Read reads from the wrapped reader.
func (f FailingReader) Read(p []byte) (int, error) {
	n, err := f.Reader.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = ReadError{err}
	}
	return n, err
}

// Widen grows the used range to include (row, col).
func (e *SheetExtent) Widen(row, col int) {
	if row <= 0 || col <= 0 {
		return
	}
	if e.MinRow == 0 || row < e.MinRow {
		e.MinRow = row
	}
	if row > e.MaxRow {
		e.MaxRow = row
	}
	if e.MinCol == 0 || col < e.MinCol {
		e.MinCol = col
	}
	if col > e.MaxCol {
		e.MaxCol = col
	}
}
