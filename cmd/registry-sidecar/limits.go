package main

import (
	"flag"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops"
)

// byteUnits are the suffixes a byte size may carry, longest first so that
// "MiB" is tried before "B". Single letters are binary, as in docker's
// --memory and ulimit; KB/MB/GB/TB are decimal.
var byteUnits = []struct {
	suffix string
	factor int64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// byteSize is a flag.Value holding a positive number of bytes, written as
// an integer with an optional unit: 1048576, 1MiB, 512m, 2GB.
type byteSize int64

// parseByteSize parses a positive byte size (see byteSize).
func parseByteSize(s string) (int64, error) {
	t := strings.ToLower(strings.TrimSpace(s))
	factor := int64(1)
	for _, u := range byteUnits {
		if strings.HasSuffix(t, u.suffix) {
			t, factor = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.factor
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: want bytes as an integer with an optional unit (KiB, MiB, GiB, TiB, KB, MB, GB, TB)", s)
	}
	if n <= 0 {
		return 0, fmt.Errorf("%q: a size must be positive", s)
	}
	if n > math.MaxInt64/factor {
		return 0, fmt.Errorf("%q: too large", s)
	}
	return n * factor, nil
}

// Set implements flag.Value.
func (b *byteSize) Set(s string) error {
	n, err := parseByteSize(s)
	if err != nil {
		return err
	}
	*b = byteSize(n)
	return nil
}

// String implements flag.Value: the exact size in the largest binary unit
// that divides it ("512MiB", "1500").
func (b *byteSize) String() string {
	n := int64(*b)
	for _, u := range []struct {
		name   string
		factor int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if n != 0 && n%u.factor == 0 {
			return strconv.FormatInt(n/u.factor, 10) + u.name
		}
	}
	return strconv.FormatInt(n, 10)
}

// budgetSize is a byteSize that may also be 0 (meaning "off").
type budgetSize int64

// Set implements flag.Value.
func (b *budgetSize) Set(s string) error {
	if strings.TrimSpace(s) == "0" {
		*b = 0
		return nil
	}
	var n byteSize
	if err := n.Set(s); err != nil {
		return err
	}
	*b = budgetSize(n)
	return nil
}

// String implements flag.Value.
func (b *budgetSize) String() string {
	n := byteSize(*b)
	return n.String()
}

// positiveInt is a flag.Value holding an int greater than zero.
type positiveInt int

// Set implements flag.Value.
func (p *positiveInt) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("%q is not an integer", s)
	}
	if n <= 0 {
		return fmt.Errorf("%q: must be positive", s)
	}
	*p = positiveInt(n)
	return nil
}

// String implements flag.Value.
func (p *positiveInt) String() string { return strconv.Itoa(int(*p)) }

// sheetLimits are the spreadsheet limits a user may tune from the command
// line; the rest of excelops.Limits keeps its defaults.
type sheetLimits struct {
	maxFileSize       byteSize
	unzipSizeLimit    byteSize
	unzipXMLSizeLimit byteSize
	maxCells          positiveInt
	maxReadCells      positiveInt
	maxWriteCells     positiveInt
	callMemoryBudget  byteSize
	maxCellText       byteSize
	cacheBudget       budgetSize
	defined           bool // limitFlags ran: the subcommand has these flags
}

// limitFlags defines the spreadsheet limit flags, defaulting to
// excelops.DefaultLimits.
func (l *sheetLimits) limitFlags(fs *flag.FlagSet) {
	d := excelops.DefaultLimits()
	l.defined = true
	l.maxFileSize, l.unzipSizeLimit, l.unzipXMLSizeLimit = byteSize(d.MaxFileSize), byteSize(d.UnzipSizeLimit), byteSize(d.UnzipXMLSizeLimit)
	l.maxCells, l.maxReadCells, l.maxWriteCells = positiveInt(d.MaxCells), positiveInt(d.MaxReadCells), positiveInt(d.MaxWriteCells)
	fs.Var(&l.maxFileSize, "max-file-size", "largest workbook file the spreadsheet tools open; a `size` is bytes with an optional unit: KiB, MiB, GiB, TiB (or KB, MB, GB, TB)")
	fs.Var(&l.unzipSizeLimit, "unzip-size-limit", "largest total uncompressed `size` of a workbook's parts; a zip bomb over it is refused before it is inflated")
	fs.Var(&l.unzipXMLSizeLimit, "unzip-xml-size-limit", "worksheets and shared strings inflating to more than this `size` spill to a temporary file instead of memory (capped at --unzip-size-limit)")
	fs.Var(&l.maxCells, "max-cells", "most `cells` a sheet may expand to when parsed for editing (bounds memory per call)")
	fs.Var(&l.maxReadCells, "max-read-cells", "most `cells` one read_excel page returns")
	fs.Var(&l.maxWriteCells, "max-write-cells", "most `cells` one write_cells call writes")
	l.callMemoryBudget, l.maxCellText = byteSize(d.CallMemoryBudget), byteSize(d.MaxCellTextBytes)
	fs.Var(&l.callMemoryBudget, "call-memory-budget", "memory `size` one spreadsheet call may allocate (estimated before it allocates: file, sheet parse, shared strings, a read page); a call over it gets a MemoryError payload (default: a quarter of RAM or of ulimit -v, 256MiB-8GiB)")
	fs.Var(&l.maxCellText, "max-cell-text", "largest inflated text `size` of one cell or shared string; a bigger one is reported, never loaded")
	l.cacheBudget = budgetSize(excelops.DefaultCacheBudget)
	fs.Var(&l.cacheBudget, "cache-budget", "estimated memory `size` parsed workbooks may keep between calls (least recently used are dropped first), plus an eighth of it for the shared strings reads remember; 0 turns both off")
}

// excelopsOptions returns the spreadsheet options the limit flags set.
func (l *sheetLimits) excelopsOptions() []excelops.Option {
	opts := []excelops.Option{excelops.WithLimits(l.excelopsLimits())}
	if l.defined {
		opts = append(opts, excelops.WithCacheBudget(int64(l.cacheBudget)))
	}
	return opts
}

// excelopsLimits returns the limits to give excelops.WithLimits.
func (l *sheetLimits) excelopsLimits() excelops.Limits {
	lim := excelops.DefaultLimits()
	if l.defined {
		lim.MaxFileSize = int64(l.maxFileSize)
		lim.UnzipSizeLimit = int64(l.unzipSizeLimit)
		lim.UnzipXMLSizeLimit = int64(l.unzipXMLSizeLimit)
		lim.MaxCells = int64(l.maxCells)
		lim.MaxReadCells = int(l.maxReadCells)
		lim.MaxWriteCells = int(l.maxWriteCells)
		lim.CallMemoryBudget = int64(l.callMemoryBudget)
		lim.MaxCellTextBytes = int64(l.maxCellText)
	}
	return lim
}
