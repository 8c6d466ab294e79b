package engine

import (
	"archive/zip"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// Cache sizing.
const (
	// DefaultCacheBudget is the memory the workbook cache may hold by
	// default (estimated, see ParsedBytesPerXMLByte): 2 GiB, a twelfth of
	// a 24 GiB machine, enough for about eight 50,000 x 10 workbooks kept
	// parsed between calls.
	DefaultCacheBudget = 2 << 30
	// ParsedBytesPerXMLByte estimates the heap a parsed workbook takes per
	// byte of its unzipped parts: excelize holds the XML bytes and the
	// parsed cells (measured: ~14.5 on a 50,000 x 10 sheet, rounded up).
	ParsedBytesPerXMLByte = 16
	// newBookCost is the estimate for a workbook created by a call before
	// its first save is measured.
	newBookCost = 64 << 10
	// LightBudgetShare sets the shared strings' budget of the light cache
	// (internal/lightcache): the workbook cache's budget divided by it
	// (256 MiB by default; none when the workbook cache is off).
	LightBudgetShare = 8
)

// fileID is the identity of a file version on disk (workspace.FileID).
type fileID = workspace.FileID

// unzippedSize sums the uncompressed sizes of the parts of the package at
// path; only the zip's central directory is read.
func (s *Engine) unzippedSize(path string) (int64, error) {
	fh, st, err := s.Box.OpenRegular(path) // never blocks on a FIFO swapped in
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	zr, err := zip.NewReader(fh, st.Size())
	if err != nil {
		return 0, err
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
	}
	return int64(total), nil
}

// lightKey returns the light cache's key for b: its file identity, when b
// is a book read on the light path (it holds the open file) whose identity
// is known.
func (b *Book) lightKey() (fileID, bool) {
	return b.id, b.file != nil && b.id != fileID{}
}
