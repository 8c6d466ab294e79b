package excelops

import (
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sharedstrings"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// sheetExtent is what a fast pass over a worksheet's XML learns without
// parsing it: how far it reaches and how big excelize would make it.
type sheetExtent struct {
	rows           int   // <row> elements
	minRow, maxRow int   // row numbers of the used range (0 when empty)
	minCol, maxCol int   // column numbers of the used range (0 when empty)
	padded         int64 // cells excelize materialises: each row padded to its last column, plus empty rows
	closed         bool  // </sheetData> (or <sheetData/>) was seen: the XML is not truncated
}

// empty reports whether no cell was seen.
func (e sheetExtent) empty() bool { return e.maxCol == 0 }

// scanSheet reads worksheet XML as a stream of rows and cells (the shared
// sheetxml layer) and measures it. It stops early with a KindLimit error
// once the sheet is larger than lim allows, so a bomb costs one pass over
// the bytes and no allocations. Broken XML ends the scan with closed false.
// When strings is not nil, a cell pointing at a shared string that does
// not exist is damage, as a read reports it; strings gives the size of the
// table, asked once, at the first shared string cell.
func scanSheet(r io.Reader, lim Limits, strings func() (int, error)) (sheetExtent, error) {
	refs := sharedstrings.Refs{Count: strings}
	var (
		ext            sheetExtent
		w              = sheetxml.NewWalker(failingReader{r})
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
		ext.padded += int64(rowMaxCol)
		if gap := w.Row - lastCountedRow - 1; gap > 0 {
			ext.padded += int64(gap)
		}
		lastCountedRow = w.Row
	}
	errLimitCells := func() error {
		return limitErr(fmt.Sprintf("the sheet would expand to more than %d cells in memory (cells far to the right pad every row)", lim.MaxCells))
	}
	for {
		ev, err := w.Next()
		if err != nil {
			if kindOf(err) != "" {
				return ext, err // a bound (see runBound)
			}
			if errors.Is(err, sheetxml.ErrTextTooLong) {
				return ext, lim.cellTextErr(fmt.Sprintf("cell %s", cellName(max(w.Cell.Col, 1), max(w.Cell.Row, 1))))
			}
			var rerr readError
			if errors.As(err, &rerr) {
				return ext, newError(KindDamaged, "file is damaged: cannot read the sheet: "+err.Error(), err)
			}
			break // end of data, or broken XML: ext.closed says which
		}
		switch ev {
		case sheetxml.RowStart:
			closeRow()
			if w.Row > lim.MaxRows {
				return ext, limitErr(fmt.Sprintf("the sheet declares row %d, more than the limit of %d rows", w.Row, lim.MaxRows))
			}
			rowMaxCol, inRow = 0, true
			ext.rows++
		case sheetxml.RowEnd:
			closeRow()
		case sheetxml.CellDone:
			if col := w.Cell.Col; col > rowMaxCol {
				rowMaxCol = col
				if ext.padded+int64(rowMaxCol) > lim.MaxCells {
					return ext, errLimitCells()
				}
			}
			ext.widen(w.Row, w.Cell.Col)
			if err := refs.Check(&w.Cell); err != nil {
				return ext, err
			}
		}
	}
	closeRow()
	ext.closed = w.Closed
	if ext.padded > lim.MaxCells {
		return ext, errLimitCells()
	}
	return ext, nil
}

// readError marks a failure of the underlying reader (inflate), as opposed
// to broken XML.
type readError struct{ error }

// Unwrap returns the reader's error.
func (e readError) Unwrap() error { return e.error }

// failingReader wraps r so its errors (other than io.EOF) are readErrors.
type failingReader struct{ r io.Reader }

// Read reads from the wrapped reader.
func (f failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		err = readError{err}
	}
	return n, err
}

// widen grows the used range to include (row, col).
func (e *sheetExtent) widen(row, col int) {
	if row <= 0 || col <= 0 {
		return
	}
	if e.minRow == 0 || row < e.minRow {
		e.minRow = row
	}
	if row > e.maxRow {
		e.maxRow = row
	}
	if e.minCol == 0 || col < e.minCol {
		e.minCol = col
	}
	if col > e.maxCol {
		e.maxCol = col
	}
}

// limitErr builds a KindLimit error.
func limitErr(msg string) error { return newError(KindLimit, "workbook too large: "+msg, nil) }
