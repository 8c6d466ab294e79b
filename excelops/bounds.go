package excelops

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
)

// This file holds the bounds every tool keeps before it touches a file or
// allocates for one: only regular files are opened (and the open never
// blocks), one cell's text is bounded while it streams, and estimated
// allocations are checked against the per-call memory budget. The sheet
// readers call these functions; they hold no reading logic themselves.

// notRegular is the error for a path that is not a regular file.
func notRegular(name string, mode fs.FileMode) error {
	what := "not a regular file"
	switch {
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO), not a workbook file"
	case mode&fs.ModeSocket != 0:
		what = "a socket, not a workbook file"
	case mode&fs.ModeDevice != 0:
		what = "a device, not a workbook file"
	case mode.IsDir():
		what = "a folder, not a workbook file"
	case mode&fs.ModeSymlink != 0:
		what = "a link, not a workbook file"
	}
	return newError(KindInvalidArgument, fmt.Sprintf("%q is %s; only regular files are opened", name, what), nil)
}

// readRegular reads the whole regular file at path (see sandbox.openRegular),
// refusing it when it is larger than max bytes or than the call's memory
// budget allows.
func (s *Service) readRegular(path string) ([]byte, fs.FileInfo, error) {
	fh, st, err := s.box.openRegular(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if st.Size() > s.limits.MaxFileSize {
		return nil, nil, limitErr(fmt.Sprintf("the file is %d bytes, more than the limit of %d", st.Size(), s.limits.MaxFileSize))
	}
	if err := s.limits.within("reading the workbook file", st.Size()); err != nil {
		return nil, nil, err
	}
	raw := make([]byte, st.Size())
	if _, err := fh.ReadAt(raw, 0); err != nil {
		return nil, nil, newError(KindIO, "cannot read the workbook: "+err.Error(), err)
	}
	return raw, st, nil
}

// within fails with a KindLimit error, before anything is allocated, when
// an estimated allocation of need bytes for what exceeds the per-call
// memory budget.
func (l Limits) within(what string, need int64) error {
	if need <= l.CallMemoryBudget {
		return nil
	}
	return newError(KindLimit, fmt.Sprintf("workbook too large: %s needs about %s, more than the per-call memory budget of %s (--call-memory-budget)",
		what, humanBytes(need), humanBytes(l.CallMemoryBudget)), nil)
}

// humanBytes formats n bytes for a message ("1.5 GiB", "312 KiB").
func humanBytes(n int64) string {
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

// cellTextErr is the error for one cell (or shared string) whose text
// inflates past the per-cell bound: where is "cell B2 of sheet \"Data\""
// or "shared string 17".
func (l Limits) cellTextErr(where string) error {
	return newError(KindLimit, fmt.Sprintf("workbook too large: %s holds more than %s of text (Excel's own limit is 32,767 characters); the file is damaged or was not written by a spreadsheet program",
		where, humanBytes(l.MaxCellTextBytes)), nil)
}

// runBound wraps an XML stream and fails once a run of bytes without a '<'
// (one text node, or one tag) is longer than max: a single cell or shared
// string that inflates to hundreds of MB is refused while it streams, before
// any parser (ours, encoding/xml or excelize) holds it in one piece.
type runBound struct {
	r     io.Reader
	max   int64
	run   int64
	where string // "sheet \"Data\"" or "the shared strings"
}

// errRunTooLong is the cause of runBound's error, so a reader that knows
// which cell it was in can say so (see rowReader.walk).
var errRunTooLong = errors.New("a text run is longer than the per-cell bound")

// newRunBound bounds the text runs of r (see runBound).
func (l Limits) newRunBound(r io.Reader, where string) io.Reader {
	return &runBound{r: r, max: l.MaxCellTextBytes, where: where}
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
		return n, &Error{Kind: KindLimit, Msg: Limits{MaxCellTextBytes: b.max}.cellTextErr("a cell or string in " + b.where).Error(), Err: errRunTooLong}
	}
	return n, err
}

// parsedCellBytes is what excelize holds per cell of a sheet parsed for
// editing, with room for the parse's transient peak: measured (heap after
// GC, excelize v2.11.1, numbers) 304 B a cell on 100,000 x 2 and 482 B on
// 100,000 x 10. It refuses a parse that would exceed the per-call memory
// budget before it starts.
const parsedCellBytes = 600

// guardParse refuses to let excelize parse sheet when the parsed sheet
// would exceed the call's memory budget, and checks once per book that no
// shared string inflates past the per-cell bound (excelize loads the whole
// table as soon as a sheet is read or written).
func (b *book) guardParse(sheet string, ext sheetExtent) error {
	lim := b.svc.limits
	if err := lim.within(fmt.Sprintf("parsing sheet %q for editing (%d cells)", sheet, ext.padded), ext.padded*parsedCellBytes); err != nil {
		return err
	}
	if b.sstChecked || b.zr == nil {
		return nil
	}
	zf := findPart(b.zr, "xl/sharedStrings.xml")
	if zf == nil {
		b.sstChecked = true
		return nil
	}
	if err := lim.within("parsing the shared strings", int64(zf.UncompressedSize64)*parsedBytesPerXMLByte); err != nil {
		return err
	}
	rc, err := zf.Open()
	if err != nil {
		return newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	defer rc.Close()
	if _, err := io.Copy(io.Discard, lim.newRunBound(rc, "the shared strings")); err != nil {
		if kindOf(err) != "" {
			return err
		}
		return newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	b.sstChecked = true
	return nil
}

// guardAllSheets bounds-checks, as edit does, every worksheet but skip that
// this call has not edited yet. Call it before an excelize operation that
// parses every sheet of the workbook (inserting or deleting rows or columns
// adjusts formulas in all sheets; deleting or moving a sheet rewrites every
// sheet's view), so a bomb in a sheet the call does not name is refused
// before excelize expands it. Chart sheets are not scanned.
func (b *book) guardAllSheets(skip string) error {
	list, _ := b.sheetList()
	for _, name := range list {
		if _, edited := b.extents[name]; edited || name == skip {
			continue
		}
		zf, err := b.part(name)
		if err != nil {
			return err
		}
		kind, err := b.sheetKindOf(name)
		if err != nil {
			return err
		}
		if zf != nil && kind != kindWorksheet && strings.Contains(strings.ToLower(zf.Name), "worksheets/") {
			// excelize parses every part under worksheets/ as a worksheet.
			return newError(KindInvalidArgument, fmt.Sprintf("sheet %q is %s stored where worksheets live; an edit that rewrites every sheet (inserting or deleting rows or columns, deleting or moving a sheet) cannot keep it", name, kindDescription(kind)), nil)
		}
		if zf == nil || kind != kindWorksheet {
			continue
		}
		if _, err := b.scan(name); err != nil {
			return err
		}
	}
	return nil
}
