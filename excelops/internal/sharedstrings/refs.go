package sharedstrings

import (
	"fmt"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// A cell of type "s" holds the index of a shared string. A read of a cell
// whose index has no string reports the file damaged; every write checks
// the sheets it rewrites the same way (Refs here for the excelize path,
// splice.Plan.SharedStrings for the splice path), so a workbook a read
// calls damaged is never saved as if it were whole.

// Index parses the value of a shared string cell (entities decoded)
// and reports whether it is an index below count.
func Index(text []byte, count int) (int, bool) {
	i, err := strconv.Atoi(string(text))
	if err != nil || i < 0 || i >= count {
		return 0, false
	}
	return i, true
}

// Missing is the damage of the cell at col, row whose value
// text points to no shared string.
func Missing(col, row int, text []byte) error {
	ref, _ := excelize.CoordinatesToCellName(col, row)
	return failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cell %s points to shared string %q that does not exist", ref, text), nil)
}

// Refs checks the shared string cells of a sheet as they stream by.
type Refs struct {
	// Count gives the table's size, asked once, at the first shared
	// string cell; nil: no check.
	Count func() (int, error)
	n     int
	known bool
}

// Check fails with Missing when c (a finished cell) points to
// a shared string the table does not hold, as a read of it would.
func (r *Refs) Check(c *sheetxml.Cell) error {
	if r.Count == nil || string(c.Type) != "s" || len(c.Value) == 0 {
		return nil
	}
	if !r.known {
		n, err := r.Count()
		if err != nil {
			return err
		}
		r.n, r.known = n, true
	}
	text := sheetxml.Unescape(c.Value)
	if _, ok := Index(text, r.n); !ok {
		return Missing(c.Col, c.Row, text)
	}
	return nil
}
