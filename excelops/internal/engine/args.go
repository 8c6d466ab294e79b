package engine

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// ColumnRef is a column argument: a letter ("C") or a number (3) (schema
// in typeSchemas).
type ColumnRef any

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
	return nil, "", failure.Invalid("cell values must be strings, numbers, booleans or null, got %T", v)
}

// number parses a JSON number as int when integral and exact, else float64.
func number(s string) (any, string, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, "", nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, "", failure.Invalid("invalid number %q", s)
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
	ref := grid.CellName(col, row)
	if formula != "" {
		if err := f.SetCellFormula(sheet, ref, recalc.WithFilePrefixes(formula)); err != nil {
			return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot set formula in %s: %v", ref, err), err)
		}
		return nil
	}
	if err := f.SetCellValue(sheet, ref, val); err != nil {
		return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot write %s: %v", ref, err), err)
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
