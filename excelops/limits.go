package excelops

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
)

// Limits bounds what one call may make the process read, hold or write (see
// its fields for what each bounds). The defaults are sized for a 24 GiB
// machine running a handful of concurrent calls.
type Limits = limits.Limits

// DefaultLimits returns the limits New uses unless WithLimits overrides them.
func DefaultLimits() Limits { return limits.DefaultLimits() }

// DefaultCallMemoryBudget sizes Limits.CallMemoryBudget for this machine:
// a quarter of the memory the process may use (physical memory, or the
// address-space limit of ulimit -v when that is lower), between 256 MiB
// and 8 GiB.
func DefaultCallMemoryBudget() int64 { return limits.DefaultCallMemoryBudget() }

// Default limits (see Limits for what each bounds).
const (
	// DefaultMaxFileSize: 512 MiB on disk.
	DefaultMaxFileSize = limits.DefaultMaxFileSize
	// DefaultUnzipSizeLimit: 4 GiB of XML in total.
	DefaultUnzipSizeLimit = limits.DefaultUnzipSizeLimit
	// DefaultUnzipXMLSizeLimit: parts above 16 MiB stream from disk.
	DefaultUnzipXMLSizeLimit = limits.DefaultUnzipXMLSizeLimit
	// DefaultMaxRows is Excel's own row limit.
	DefaultMaxRows = limits.DefaultMaxRows
	// DefaultMaxCells: about 2-3 GiB of parsed cells in excelize.
	DefaultMaxCells = limits.DefaultMaxCells
	// DefaultMaxReadCells: one page of read_excel returns at most 4M cells.
	DefaultMaxReadCells = limits.DefaultMaxReadCells
	// DefaultMaxWriteCells: one write_cells call writes at most 1M cells.
	DefaultMaxWriteCells = limits.DefaultMaxWriteCells
	// DefaultMaxCellTextBytes: 1 MiB per cell text.
	DefaultMaxCellTextBytes = limits.DefaultMaxCellTextBytes
	// DefaultCacheBudget is the memory the workbook cache may hold by
	// default (estimated): 2 GiB.
	DefaultCacheBudget = engine.DefaultCacheBudget
)
