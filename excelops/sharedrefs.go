package excelops

import (
	"fmt"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// A cell of type "s" holds the index of a shared string. A read of a cell
// whose index has no string reports the file damaged; every write checks
// the sheets it rewrites the same way (sharedRefs here for the excelize
// path, splice.Plan.SharedStrings for the splice path), so a workbook a
// read calls damaged is never saved as if it were whole.

// sharedIndex parses the value of a shared string cell (entities decoded)
// and reports whether it is an index below count.
func sharedIndex(text []byte, count int) (int, bool) {
	i, err := strconv.Atoi(string(text))
	if err != nil || i < 0 || i >= count {
		return 0, false
	}
	return i, true
}

// missingSharedString is the damage of the cell at col, row whose value
// text points to no shared string.
func missingSharedString(col, row int, text []byte) error {
	return newError(KindDamaged, fmt.Sprintf("file is damaged: cell %s points to shared string %q that does not exist", cellName(col, row), text), nil)
}

// sharedRefs checks the shared string cells of a sheet as they stream by.
type sharedRefs struct {
	count func() (int, error) // the table's size; nil: no check
	n     int
	known bool
}

// check fails with missingSharedString when c (a finished cell) points to
// a shared string the table does not hold, as a read of it would.
func (r *sharedRefs) check(c *sheetxml.Cell) error {
	if r.count == nil || string(c.Type) != "s" || len(c.Value) == 0 {
		return nil
	}
	if !r.known {
		n, err := r.count()
		if err != nil {
			return err
		}
		r.n, r.known = n, true
	}
	text := sheetxml.Unescape(c.Value)
	if _, ok := sharedIndex(text, r.n); !ok {
		return missingSharedString(c.Col, c.Row, text)
	}
	return nil
}

// sharedStringCount is the size of the shared string table on disk, loaded
// as a read loads it (so a table a read calls damaged is damage here too).
func (b *book) sharedStringCount() (int, error) {
	sst, err := b.sharedStrings()
	return len(sst), err
}
