package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Invalid builds a ValueError-class error.
func Invalid(format string, a ...any) error {
	return newError(failure.KindInvalidArgument, fmt.Sprintf(format, a...), nil)
}

// CellRange is a rectangle of cells, 1-based and inclusive.
//
// Transitional: an alias of cellarea.Range, kept so that the files of this
// Package compile unchanged while the engine moves into internal packages;
// new code names cellarea.Range.
type CellRange = cellarea.Range

// ParseCell parses "B7" (also "$B$7"); the error says what is accepted,
// or which edge of Excel's grid the cell is past.
func ParseCell(ref string) (col, row int, err error) {
	col, row, problem, syntax := cellCoords(ref)
	switch {
	case syntax:
		return 0, 0, Invalid("invalid cell reference %q: %s", ref, RangeForms)
	case problem != "":
		return 0, 0, Invalid("cell %q %s", ref, problem)
	}
	return col, row, nil
}

// ParseRange parses "A1:C3" or "A1" into a normalised rectangle; the error
// says which forms are accepted, or which edge of the grid a corner is past.
func ParseRange(ref string) (CellRange, error) {
	parts := strings.Split(ref, ":")
	if len(parts) > 2 {
		return CellRange{}, Invalid("invalid cell range %q: %s", ref, RangeForms)
	}
	var corners [2][2]int
	for i, p := range parts {
		col, row, problem, syntax := cellCoords(p)
		switch {
		case syntax:
			return CellRange{}, Invalid("invalid cell range %q: %s%s", ref, RangeForms, wholeLineHint(parts))
		case problem != "":
			return CellRange{}, Invalid("invalid cell range %q: cell %q %s", ref, strings.TrimSpace(p), problem)
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
	return CellRange{C1: c1, R1: r1, C2: c2, R2: r2}, nil
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

// ColumnRef is a column argument: a letter ("C") or a number (3) (schema
// in typeSchemas).
type ColumnRef any

// ParseColumn accepts a column as letters ("C"), a numeric string or a number.
func ParseColumn(v any) (int, error) {
	switch t := v.(type) {
	case json.Number:
		n, err := strconv.Atoi(t.String())
		if err != nil || n < 1 || n > excelize.MaxColumns {
			return 0, Invalid("column must be between 1 and %d, got %s", excelize.MaxColumns, t)
		}
		return n, nil
	case string:
		s := strings.TrimSpace(t)
		if n, err := strconv.Atoi(s); err == nil {
			return ParseColumn(json.Number(strconv.Itoa(n)))
		}
		n, err := excelize.ColumnNameToNumber(strings.ToUpper(s))
		if err != nil {
			return 0, newError(failure.KindInvalidArgument, fmt.Sprintf("invalid column %q: use letters like \"C\" or a number", t), err)
		}
		return n, nil
	}
	return 0, Invalid("column must be letters or a number")
}

// CellInput is one cell value as an argument: a string ("=..." a
// formula), a number, a boolean or null, each branch typed, as every model
// provider wants (schema in typeSchemas).
type CellInput any

// CellValue converts one JSON value to what excelize stores, as
// excelmanus does: strings starting with "=" are formulas, numeric strings
// become numbers, null clears the cell. isFormula reports a formula.
func CellValue(v any) (val any, formula string, err error) {
	switch t := v.(type) {
	case nil:
		return nil, "", nil
	case bool:
		return t, "", nil
	case json.Number:
		return number(t.String())
	case string:
		s := strings.TrimSpace(t)
		if strings.HasPrefix(s, "=") && len(s) > 1 {
			return nil, s[1:], nil
		}
		if s != "" && LooksNumeric(s) {
			if n, _, err := number(s); err == nil {
				return n, "", nil
			}
		}
		return t, "", nil
	}
	return nil, "", Invalid("cell values must be strings, numbers, booleans or null, got %T", v)
}

// number parses a JSON number as int when integral and exact, else float64.
func number(s string) (any, string, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, "", nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, "", Invalid("invalid number %q", s)
	}
	return f, "", nil
}

// LooksNumeric reports whether s is a plain decimal number ("12", "-3.5",
// "1e3"), not a code with leading zeros like "007".
func LooksNumeric(s string) bool {
	digits := strings.TrimLeft(s, "+-")
	if len(digits) > 1 && digits[0] == '0' && digits[1] != '.' {
		return false
	}
	_, err := strconv.ParseFloat(s, 64)
	return err == nil && !strings.ContainsAny(s, "xXnNiI_")
}

// setCell writes one converted value (or formula) into sheet.
func setCell(f *excelize.File, sheet string, col, row int, v any) error {
	val, formula, err := CellValue(v)
	if err != nil {
		return err
	}
	ref := CellName(col, row)
	if formula != "" {
		if err := f.SetCellFormula(sheet, ref, WithFilePrefixes(formula)); err != nil {
			return newError(failure.KindInvalidArgument, fmt.Sprintf("cannot set formula in %s: %v", ref, err), err)
		}
		return nil
	}
	if err := f.SetCellValue(sheet, ref, val); err != nil {
		return newError(failure.KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
	}
	return nil
}

// JsonCell converts a raw cell text read from a sheet to a JSON value: ""
// is null, text that round-trips as a number is a number, the rest stays text.
func JsonCell(s string) any {
	if s == "" {
		return nil
	}
	if LooksNumeric(s) {
		if i, err := strconv.ParseInt(s, 10, 64); err == nil && strconv.FormatInt(i, 10) == s {
			return i
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) {
			return f
		}
	}
	return s
}
