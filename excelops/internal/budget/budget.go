// Package budget holds the two bounds a parser of workbook parts keeps, as
// one small value: the call's memory budget and the bound of one text run
// (a cell or a shared string). It builds the KindLimit errors a tool
// reports when either is passed, and bounds the text runs of an XML stream
// before any parser holds one whole. excelops.Limits carries the values
// (Limits.CallMemoryBudget, Limits.MaxCellTextBytes) and hands internal
// packages a Budget instead of the whole Limits.
//
//	b := budget.Budget{Memory: 1 << 30, MaxText: 1 << 20}
//	if err := b.Within("loading the shared strings", need); err != nil { ... }
//	r = b.RunBound(r, "the shared strings")
//
// ARCHITECTURE.md at the repository root places it in the package map.
package budget

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// Budget is what one call may hold while it parses.
type Budget struct {
	// Memory caps what one call may allocate (bytes, estimated).
	Memory int64
	// MaxText caps the inflated text of one cell or shared string (bytes).
	MaxText int64
}

// Within fails with a KindLimit error, before anything is allocated, when
// an estimated allocation of need bytes for what exceeds the memory budget.
func (b Budget) Within(what string, need int64) error {
	if need <= b.Memory {
		return nil
	}
	return TooLarge(fmt.Sprintf("%s needs about %s, more than the per-call memory budget of %s (--call-memory-budget)",
		what, HumanBytes(need), HumanBytes(b.Memory)))
}

// CellText is the error for one cell (or shared string) whose text
// inflates past MaxText: where is "cell B2 of sheet \"Data\"" or "shared
// string 17".
func (b Budget) CellText(where string) error {
	return TooLarge(fmt.Sprintf("%s holds more than %s of text (Excel's own limit is 32,767 characters); the file is damaged or was not written by a spreadsheet program",
		where, HumanBytes(b.MaxText)))
}

// HumanBytes formats n bytes for a message ("1.5 GiB", "312 KiB").
func HumanBytes(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d bytes", n)
	}
	f, i := float64(n), -1
	for f >= unit && i < 3 {
		f /= unit
		i++
	}
	return fmt.Sprintf("%.1f %ciB", f, "KMGT"[i])
}

// ErrRunTooLong is the cause of a RunBound reader's error, so a reader
// that knows which cell it was in can say so.
var ErrRunTooLong = errors.New("a text run is longer than the per-cell bound")

// RunBound wraps the XML stream r and fails once a run of bytes without a
// '<' (one text node, or one tag) is longer than MaxText: a single cell or
// shared string that inflates to hundreds of MB is refused while it
// streams, before any parser (ours, encoding/xml or excelize) holds it in
// one piece. where names the stream in the error ("sheet \"Data\"" or
// "the shared strings").
func (b Budget) RunBound(r io.Reader, where string) io.Reader {
	return &runBound{r: r, max: b.MaxText, where: where}
}

// runBound is the reader RunBound returns.
type runBound struct {
	r     io.Reader
	max   int64
	run   int64
	where string
}

// Read implements io.Reader.
func (b *runBound) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	chunk := p[:n]
	if int64(len(chunk)) <= b.max {
		// No run can fit inside the chunk past the bound: only the run
		// going on from the last read (to the first '<') and the one left
		// open (after the last '<') need counting.
		if first := bytes.IndexByte(chunk, '<'); first >= 0 {
			if b.run += int64(first); b.run <= b.max {
				b.run = int64(len(chunk) - 1 - bytes.LastIndexByte(chunk, '<'))
			}
		} else {
			b.run += int64(len(chunk))
		}
		chunk = nil
	}
	for len(chunk) > 0 {
		i := bytes.IndexByte(chunk, '<')
		if i < 0 {
			b.run += int64(len(chunk))
			break
		}
		b.run += int64(i)
		if b.run > b.max {
			break
		}
		b.run, chunk = 0, chunk[i+1:]
	}
	if b.run > b.max {
		return n, &failure.Error{Kind: failure.KindLimit, Msg: Budget{MaxText: b.max}.CellText("a cell or string in " + b.where).Error(), Err: ErrRunTooLong}
	}
	return n, err
}

// TooLarge is the KindLimit error of a workbook past one of the bounds
// a call keeps (rows, cells, formulas, parts), what says which.
func TooLarge(what string) error {
	return failure.New(failure.KindLimit, "workbook too large: "+what, nil)
}
