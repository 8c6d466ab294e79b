// Package formularef rewrites the cell references inside spreadsheet
// formulas the way Excel and LibreOffice do when a sheet changes shape:
// rows or columns inserted or deleted (references move, ranges grow or
// shrink, a reference to a deleted cell becomes #REF!), a sheet renamed or
// deleted, and a formula copied to another cell (relative references move by
// the copy's offset, absolute ones stay, as openpyxl's Translator does).
//
// Formulas are tokenized with github.com/xuri/efp, so text inside string
// literals (="A1") is never taken for a reference. A formula none of whose
// references change is returned byte for byte; a changed formula is
// rendered back from its tokens, which drops insignificant whitespace.
// Everything here is pure: no workbook, no I/O.
package formularef

import (
	"strconv"
	"strings"
	"unicode"
)

// Grid limits of an xlsx sheet.
const (
	// MaxRows is the last row number of a sheet (Excel 2007+).
	MaxRows = 1048576
	// MaxCols is the last column number of a sheet (XFD).
	MaxCols = 16384
)

// RefError is the text Excel stores for a reference that no longer exists.
const RefError = "#REF!"

// areaKind says which coordinates an area has.
type areaKind int

const (
	kindCells areaKind = iota // A1 or A1:B2
	kindCols                  // A:C
	kindRows                  // 3:5
)

// coord is one row or column number with its $ flag.
type coord struct {
	n   int
	abs bool
}

// area is the part of a reference after the sheet: a cell, a rectangle, a
// span of whole columns or of whole rows. For a single cell c2/r2 equal
// c1/r1 and single is true.
type area struct {
	kind           areaKind
	c1, r1, c2, r2 coord
	single         bool
}

// parseArea parses A1, $A$1, A1:B2, A:C, $3:$5 (case-insensitive). ok is
// false for anything else (names, structured or external references).
func parseArea(s string) (area, bool) {
	left, right, isRange := strings.Cut(s, ":")
	if !isRange {
		c, r, ok := parseCell(left)
		if !ok {
			return area{}, false
		}
		return area{kind: kindCells, c1: c, r1: r, c2: c, r2: r, single: true}, true
	}
	if c1, r1, ok := parseCell(left); ok {
		c2, r2, ok := parseCell(right)
		if !ok {
			return area{}, false
		}
		return area{kind: kindCells, c1: c1, r1: r1, c2: c2, r2: r2}, true
	}
	if c1, ok := parseCol(left); ok {
		c2, ok := parseCol(right)
		if !ok {
			return area{}, false
		}
		return area{kind: kindCols, c1: c1, c2: c2}, true
	}
	if r1, ok := parseRow(left); ok {
		r2, ok := parseRow(right)
		if !ok {
			return area{}, false
		}
		return area{kind: kindRows, r1: r1, r2: r2}, true
	}
	return area{}, false
}

// parseCell parses [$]COL[$]ROW.
func parseCell(s string) (coord, coord, bool) {
	i := 0
	for i < len(s) && (s[i] == '$' || isLetter(s[i])) {
		if s[i] == '$' && i > 0 {
			break
		}
		i++
	}
	c, ok := parseCol(s[:i])
	if !ok {
		return coord{}, coord{}, false
	}
	r, ok := parseRow(s[i:])
	if !ok {
		return coord{}, coord{}, false
	}
	return c, r, true
}

// parseCol parses [$]COL (A..XFD).
func parseCol(s string) (coord, bool) {
	abs := strings.HasPrefix(s, "$")
	s = strings.TrimPrefix(s, "$")
	if s == "" || len(s) > 3 {
		return coord{}, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		if !isLetter(s[i]) {
			return coord{}, false
		}
		n = n*26 + int(s[i]|0x20-'a'+1)
	}
	if n > MaxCols {
		return coord{}, false
	}
	return coord{n, abs}, true
}

// parseRow parses [$]ROW (1..MaxRows).
func parseRow(s string) (coord, bool) {
	abs := strings.HasPrefix(s, "$")
	s = strings.TrimPrefix(s, "$")
	if s == "" || len(s) > 7 || s[0] == '0' {
		return coord{}, false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return coord{}, false
		}
	}
	n, _ := strconv.Atoi(s)
	if n > MaxRows {
		return coord{}, false
	}
	return coord{n, abs}, true
}

func isLetter(b byte) bool { return b|0x20 >= 'a' && b|0x20 <= 'z' }

// colName is the column letters of n (1-based).
func colName(n int) string {
	var b [3]byte
	i := len(b)
	for n > 0 {
		n--
		i--
		b[i] = byte('A' + n%26)
		n /= 26
	}
	return string(b[i:])
}

func (c coord) col() string {
	if c.abs {
		return "$" + colName(c.n)
	}
	return colName(c.n)
}

func (c coord) row() string {
	if c.abs {
		return "$" + strconv.Itoa(c.n)
	}
	return strconv.Itoa(c.n)
}

// ordered returns the area with its corners top-left then bottom-right, as
// Excel stores A5:A1 (each coordinate keeps its $ flag).
func (a area) ordered() area {
	if a.c1.n > a.c2.n {
		a.c1, a.c2 = a.c2, a.c1
	}
	if a.r1.n > a.r2.n {
		a.r1, a.r2 = a.r2, a.r1
	}
	return a
}

// String renders the area in A1 notation.
func (a area) String() string {
	switch a.kind {
	case kindCols:
		return a.c1.col() + ":" + a.c2.col()
	case kindRows:
		return a.r1.row() + ":" + a.r2.row()
	}
	s := a.c1.col() + a.r1.row()
	if a.single {
		return s
	}
	return s + ":" + a.c2.col() + a.r2.row()
}

// QuoteSheet returns name as it must appear before "!" in a formula:
// quoted (with ' doubled) unless it is a plain identifier that cannot be
// mistaken for a cell reference, a boolean or a number.
func QuoteSheet(name string) string {
	if name == "" || needsQuotes(name) {
		return "'" + strings.ReplaceAll(name, "'", "''") + "'"
	}
	return name
}

func needsQuotes(name string) bool {
	for i, r := range name {
		if r > unicode.MaxASCII || !(r == '_' || r == '.' || unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return true
		}
		if i == 0 && (unicode.IsDigit(r) || r == '.') {
			return true
		}
	}
	if _, ok := parseArea(name); ok {
		return true
	}
	if _, _, ok := parseCell(strings.ToUpper(name)); ok {
		return true
	}
	up := strings.ToUpper(name)
	if up == "TRUE" || up == "FALSE" || looksR1C1(up) {
		return true
	}
	return false
}

// looksR1C1 reports names like R1C1, R, C, R2 or C3 that Excel reads as R1C1
// references.
func looksR1C1(up string) bool {
	if up == "" {
		return false
	}
	rest := up
	if rest[0] == 'R' {
		rest = strings.TrimLeft(rest[1:], "0123456789")
		if rest == "" {
			return true
		}
	}
	if rest[0] == 'C' {
		return strings.TrimLeft(rest[1:], "0123456789") == ""
	}
	return false
}
