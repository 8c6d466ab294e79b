package limits

import (
	"io"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/internal/defaults"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Limits bounds what one call may make the process read, hold or write. The
// defaults are sized for a 24 GiB machine running a handful of concurrent
// calls: no single call should be able to claim more than a few GiB.
type Limits struct {
	// MaxFileSize caps the size of a workbook file on disk (bytes).
	MaxFileSize int64
	// UnzipSizeLimit caps the total uncompressed size of all parts of a
	// workbook (bytes); a zip bomb is refused before it is inflated.
	UnzipSizeLimit int64
	// UnzipXMLSizeLimit is the size above which a worksheet or the shared
	// string table is inflated to a private temporary file and streamed
	// from disk instead of held in memory (bytes).
	UnzipXMLSizeLimit int64
	// MaxRows caps the rows of a sheet that is parsed for editing, counting
	// empty rows up to the highest row number it declares.
	MaxRows int
	// MaxCells caps the cells a sheet expands to when parsed for editing:
	// each row is padded up to its highest column, so a few cells at
	// column XFD cost 16,384 cells per row.
	MaxCells int64
	// MaxReadCells caps the cells one read_excel page returns.
	MaxReadCells int
	// MaxWriteCells caps the cells one write_cells call writes.
	MaxWriteCells int
	// CallMemoryBudget caps what one call may allocate (bytes, estimated
	// before allocating): reading the file, parsing a sheet for editing,
	// the shared string table, the cells a format or a read page holds.
	// A call that would exceed it gets a MemoryError payload instead.
	CallMemoryBudget int64
	// MaxCellTextBytes caps the inflated text of one cell or shared
	// string (bytes of XML text); a bigger one is reported, not loaded.
	MaxCellTextBytes int64
}

// Default limits (see Limits for what each bounds).
const (
	// DefaultMaxFileSize: 512 MiB on disk is far above any workbook Excel
	// itself opens comfortably.
	DefaultMaxFileSize = 512 << 20
	// DefaultUnzipSizeLimit: 4 GiB of XML in total.
	DefaultUnzipSizeLimit = 4 << 30
	// DefaultUnzipXMLSizeLimit: parts above 16 MiB stream from disk (keeps
	// reads of big sheets lean; excelize uses the same default).
	DefaultUnzipXMLSizeLimit = 16 << 20
	// DefaultMaxRows is Excel's own row limit.
	DefaultMaxRows = 1 << 20
	// DefaultMaxCells: about 2-3 GiB of parsed cells in excelize.
	DefaultMaxCells = 20_000_000
	// DefaultMaxReadCells: one page of read_excel returns at most 4M cells.
	DefaultMaxReadCells = 4_000_000
	// DefaultMaxWriteCells: one write_cells call writes at most 1M cells.
	DefaultMaxWriteCells = 1_000_000
	// DefaultMaxCellTextBytes: 1 MiB, 32 times Excel's 32,767 characters
	// even at 8 bytes each (UTF-8 plus XML escapes).
	DefaultMaxCellTextBytes = 1 << 20
)

// DefaultLimits returns the limits New uses unless WithLimits overrides them.
func DefaultLimits() Limits {
	return Limits{
		MaxFileSize:       DefaultMaxFileSize,
		UnzipSizeLimit:    DefaultUnzipSizeLimit,
		UnzipXMLSizeLimit: DefaultUnzipXMLSizeLimit,
		MaxRows:           DefaultMaxRows,
		MaxCells:          DefaultMaxCells,
		MaxReadCells:      DefaultMaxReadCells,
		MaxWriteCells:     DefaultMaxWriteCells,
		CallMemoryBudget:  DefaultCallMemoryBudget(),
		MaxCellTextBytes:  DefaultMaxCellTextBytes,
	}
}

// WithDefaults fills every unset field of l from DefaultLimits.
func (l Limits) WithDefaults() Limits {
	d := DefaultLimits()
	defaults.Positive(&l.MaxFileSize, d.MaxFileSize)
	defaults.Positive(&l.UnzipSizeLimit, d.UnzipSizeLimit)
	defaults.Positive(&l.UnzipXMLSizeLimit, d.UnzipXMLSizeLimit)
	l.UnzipXMLSizeLimit = min(l.UnzipXMLSizeLimit, l.UnzipSizeLimit)
	defaults.Positive(&l.MaxRows, d.MaxRows)
	defaults.Positive(&l.MaxCells, d.MaxCells)
	defaults.Positive(&l.MaxReadCells, d.MaxReadCells)
	defaults.Positive(&l.MaxWriteCells, d.MaxWriteCells)
	defaults.Positive(&l.CallMemoryBudget, d.CallMemoryBudget)
	defaults.Positive(&l.MaxCellTextBytes, d.MaxCellTextBytes)
	return l
}

// Tool timeouts.
const (
	// ReadTimeout is the default deadline of read tools.
	ReadTimeout = 2 * time.Minute
	// WriteTimeout is the default deadline of tools that parse and save a
	// workbook; a 50k-row sheet takes a few seconds.
	WriteTimeout = 5 * time.Minute
)

// Formula calculation limits: what excelize's calculator (patched, see
// third_party/excelize/PATCHES.md) may spend on one formula. A formula past
// one is left uncomputed (no cached value; Excel computes it on open); the
// call's own deadline still fails the whole call.
const (
	// FormulaBudgetShare: one formula may allocate a quarter of the call's
	// memory budget for ranges, arrays and text; the parsed workbook and
	// the save need the rest.
	FormulaBudgetShare = 4
	// MaxCalcSteps bounds one formula's evaluation steps (tokens, cell
	// reads, function calls, loop iterations a function argument sets):
	// a few seconds of work at most.
	MaxCalcSteps = 100_000_000
	// MaxCalcDepth bounds how deep formula cells reading formula cells
	// nest on the stack: each level costs a few KiB (4,096 levels: about
	// 16 MiB), and a goroutine stack past Go's maximum kills the process.
	// A longer chain is computed in pieces (excelize's calcInPieces).
	MaxCalcDepth = 4096
	// MaxFormulaTime bounds the time one formula may compute.
	MaxFormulaTime = 10 * time.Second
)

// Calc is what excelize's calculator may spend on one formula of a call
// bounded by l.
func (l Limits) Calc() excelize.CalcLimits {
	return excelize.CalcLimits{
		MaxBytes: l.CallMemoryBudget / FormulaBudgetShare,
		MaxSteps: MaxCalcSteps,
		MaxDepth: MaxCalcDepth,
	}
}

// Bounds of the default per-call memory budget.
const (
	MinCallMemoryBudget = 256 << 20
	MaxCallMemoryBudget = 8 << 30
	// callBudgetShare: one call may take a quarter of the memory the
	// process can have, so a few large calls run side by side.
	callBudgetShare = 4
)

// DefaultCallMemoryBudget sizes Limits.CallMemoryBudget for this machine:
// a quarter of the memory the process may use (physical memory, or the
// address-space limit of ulimit -v when that is lower), between 256 MiB
// and 8 GiB.
func DefaultCallMemoryBudget() int64 {
	avail := physicalMemory()
	if lim := addressSpaceLimit(); lim > 0 && (avail == 0 || lim < avail) {
		avail = lim
	}
	b := avail / callBudgetShare
	return min(max(b, MinCallMemoryBudget), MaxCallMemoryBudget)
}

// Budget is the part of l a parser keeps: the memory budget and the
// bound of one text run.
func (l Limits) Budget() budget.Budget {
	return budget.Budget{Memory: l.CallMemoryBudget, MaxText: l.MaxCellTextBytes}
}

// Within fails with a KindLimit error, before anything is allocated, when
// an estimated allocation of need bytes for what exceeds the per-call
// memory budget.
func (l Limits) Within(what string, need int64) error { return l.Budget().Within(what, need) }

// HumanBytes formats n bytes for a message ("1.5 GiB", "312 KiB").
func HumanBytes(n int64) string { return budget.HumanBytes(n) }

// CellTextErr is the error for one cell (or shared string) whose text
// inflates past the per-cell bound: where is "cell B2 of sheet \"Data\""
// or "shared string 17".
func (l Limits) CellTextErr(where string) error { return l.Budget().CellText(where) }

// NewRunBound bounds the text runs of r (budget.Budget.RunBound).
func (l Limits) NewRunBound(r io.Reader, where string) io.Reader {
	return l.Budget().RunBound(r, where)
}
