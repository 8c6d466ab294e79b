package grid

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// ParseCell parses "B7" (also "$B$7"); the error says what is accepted,
// or which edge of Excel's grid the cell is past.
func ParseCell(ref string) (col, row int, err error) {
	col, row, problem, syntax := cellCoords(ref)
	switch {
	case syntax:
		return 0, 0, failure.Invalid("invalid cell reference %q: %s", ref, RangeForms)
	case problem != "":
		return 0, 0, failure.Invalid("cell %q %s", ref, problem)
	}
	return col, row, nil
}

// ParseRange parses "A1:C3" or "A1" into a normalised rectangle; the error
// says which forms are accepted, or which edge of the grid a corner is past.
func ParseRange(ref string) (cellarea.Range, error) {
	parts := strings.Split(ref, ":")
	if len(parts) > 2 {
		return cellarea.Range{}, failure.Invalid("invalid cell range %q: %s", ref, RangeForms)
	}
	var corners [2][2]int
	for i, p := range parts {
		col, row, problem, syntax := cellCoords(p)
		switch {
		case syntax:
			return cellarea.Range{}, failure.Invalid("invalid cell range %q: %s%s", ref, RangeForms, wholeLineHint(parts))
		case problem != "":
			return cellarea.Range{}, failure.Invalid("invalid cell range %q: cell %q %s", ref, strings.TrimSpace(p), problem)
		}
		corners[i] = [2]int{col, row}
	}
	if len(parts) == 1 {
		corners[1] = corners[0]
	}
	c1, r1, c2, r2 := corners[0][0], corners[0][1], corners[1][0], corners[1][1]
	if c1 > c2 {
		c1, c2 = c2, c1
	}
	if r1 > r2 {
		r1, r2 = r2, r1
	}
	return cellarea.Range{C1: c1, R1: r1, C2: c2, R2: r2}, nil
}

// CellName renders (col, row) as "B7"; inputs are always in range.
func CellName(col, row int) string {
	n, _ := excelize.CoordinatesToCellName(col, row)
	return n
}

// RangeRef renders a rectangle as "A1:C3".
func RangeRef(c1, r1, c2, r2 int) string { return CellName(c1, r1) + ":" + CellName(c2, r2) }

// ColumnName renders a column number as letters.
func ColumnName(col int) string {
	n, _ := excelize.ColumnNumberToName(col)
	return n
}

// ParseColumn accepts a column as letters ("C"), a numeric string or a number.
func ParseColumn(v any) (int, error) {
	switch t := v.(type) {
	case json.Number:
		n, err := strconv.Atoi(t.String())
		if err != nil || n < 1 || n > excelize.MaxColumns {
			return 0, failure.Invalid("column must be between 1 and %d, got %s", excelize.MaxColumns, t)
		}
		return n, nil
	case string:
		s := strings.TrimSpace(t)
		if n, err := strconv.Atoi(s); err == nil {
			return ParseColumn(json.Number(strconv.Itoa(n)))
		}
		n, err := excelize.ColumnNameToNumber(strings.ToUpper(s))
		if err != nil {
			return 0, failure.New(failure.KindInvalidArgument, fmt.Sprintf("invalid column %q: use letters like \"C\" or a number", t), err)
		}
		return n, nil
	}
	return 0, failure.Invalid("column must be letters or a number")
}
