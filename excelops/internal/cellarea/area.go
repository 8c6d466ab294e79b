package cellarea

import (
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Area is a rectangle of cells on one sheet (1-based, inclusive). Its
// fields are a Range's and the sheet's name, flat rather than an embedded
// Range, so that an Area is written {sheet, c1, r1, c2, r2}.
type Area struct {
	Sheet          string
	C1, R1, C2, R2 int
}

// Overlaps reports whether a and o share a cell (sheet names compare as
// Excel compares them, case-insensitively).
func (a Area) Overlaps(o Area) bool {
	return a.C1 <= o.C2 && o.C1 <= a.C2 && a.R1 <= o.R2 && o.R1 <= a.R2 && strings.EqualFold(a.Sheet, o.Sheet)
}

// Widen grows a by rows and cols on every side (clamped at row and
// column 1).
func (a Area) Widen(rows, cols int) Area {
	a.R1, a.R2 = max(1, a.R1-rows), a.R2+rows
	a.C1, a.C2 = max(1, a.C1-cols), a.C2+cols
	return a
}

// ParseArea reads a reference operand of a formula: [sheet!]cell,
// cell:cell, col:col or row:row, with or without $, on sheet host unless it
// names one; a whole column or row spans the grid. ok is false for
// anything else (names, structured, external and 3-D references).
func ParseArea(ref, host string) (Area, bool) {
	a := Area{Sheet: host}
	if i := strings.LastIndex(ref, "!"); i >= 0 {
		sheet := ref[:i]
		if strings.HasPrefix(sheet, "'") && strings.HasSuffix(sheet, "'") && len(sheet) >= 2 {
			sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
		}
		if sheet == "" || strings.ContainsAny(sheet, "[]:") {
			return a, false
		}
		a.Sheet, ref = sheet, ref[i+1:]
	}
	ref = strings.ReplaceAll(ref, "$", "")
	lo, hi, isRange := strings.Cut(ref, ":")
	if !isRange {
		hi = lo
	}
	c1, r1, ok1 := parseEnd(lo)
	c2, r2, ok2 := parseEnd(hi)
	if !ok1 || !ok2 || (c1 == 0) != (c2 == 0) || (r1 == 0) != (r2 == 0) || (!isRange && (c1 == 0 || r1 == 0)) {
		return a, false
	}
	if c1 == 0 { // whole rows
		c1, c2 = 1, excelize.MaxColumns
	}
	if r1 == 0 { // whole columns
		r1, r2 = 1, excelize.TotalRows
	}
	a.C1, a.C2 = min(c1, c2), max(c1, c2)
	a.R1, a.R2 = min(r1, r2), max(r1, r2)
	return a, true
}

// parseEnd reads one end of a reference: a cell (col, row), a column
// (col, 0) or a row (0, row).
func parseEnd(s string) (col, row int, ok bool) {
	i := 0
	for i < len(s) && (s[i] >= 'A' && s[i] <= 'Z' || s[i] >= 'a' && s[i] <= 'z') {
		i++
	}
	letters, digits := s[:i], s[i:]
	if letters == "" && digits == "" || len(letters) > 3 {
		return 0, 0, false
	}
	if letters != "" {
		c, err := excelize.ColumnNameToNumber(letters)
		if err != nil {
			return 0, 0, false
		}
		col = c
	}
	if digits != "" {
		r, err := strconv.Atoi(digits)
		if err != nil || r < 1 || r > excelize.TotalRows {
			return 0, 0, false
		}
		row = r
	}
	return col, row, true
}
