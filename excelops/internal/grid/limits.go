package grid

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
)

// Excel's own limits ("Excel specifications and limits"). Past them excelize
// truncates silently (text) or writes what Excel then refuses to open
// (formulas, cells past the grid), so every write checks them first and a
// value past one is a ValueError naming the limit and the cell, with
// nothing written.
const (
	// MaxCellChars is the most characters a cell holds. Excel counts
	// UTF-16 code units, so a character outside the Basic Multilingual
	// Plane (an emoji) counts twice.
	MaxCellChars = excelize.TotalCellChars
	// MaxFormulaChars is the longest formula, counted with its leading
	// "=" in UTF-16 code units like maxCellChars.
	MaxFormulaChars = 8192
	// MaxFunctionNesting is how deep Excel lets functions nest in one
	// formula: IF(A1,SUM(B1:B2),0) nests 2 levels.
	MaxFunctionNesting = 64
	// LastRow and lastCol are the grid's edges: row 1,048,576 and column
	// XFD (16,384).
	LastRow = excelize.TotalRows
	LastCol = excelize.MaxColumns
)

// ExcelLen is the length of s as Excel counts it (UTF-16 code units).
func ExcelLen(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// CheckText refuses text longer than a cell holds.
func CheckText(ref, s string) error {
	if len(s) <= MaxCellChars { // bytes >= UTF-16 units: certainly fits
		return nil
	}
	if n := ExcelLen(s); n > MaxCellChars {
		return failure.Invalid("%s: text of %s characters is longer than Excel's limit of %s characters per cell; nothing was written",
			ref, Thousands(n), Thousands(MaxCellChars))
	}
	return nil
}

// CheckFormula refuses a formula (given without its "=") longer than Excel
// accepts, or nesting functions deeper.
func CheckFormula(ref, formula string) error {
	if len(formula)+1 > MaxFormulaChars {
		if n := ExcelLen(formula) + 1; n > MaxFormulaChars {
			return failure.Invalid("%s: formula of %s characters is longer than Excel's limit of %s characters; nothing was written",
				ref, Thousands(n), Thousands(MaxFormulaChars))
		}
	}
	// Each level opens a parenthesis: few of them cannot nest too deep.
	if strings.Count(formula, "(") > MaxFunctionNesting {
		if n := FunctionNesting(formula); n > MaxFunctionNesting {
			return failure.Invalid("%s: formula nests functions %d levels deep, more than Excel's limit of %d levels; nothing was written",
				ref, n, MaxFunctionNesting)
		}
	}
	return nil
}

// FunctionNesting is how deep the functions of formula (without its "=")
// nest; parentheses that only group and array constants are no level.
func FunctionNesting(formula string) int {
	ps := efp.ExcelParser()
	var open []bool // per open parenthesis or array: whether a function's
	depth, deepest := 0, 0
	for _, tk := range ps.Parse("=" + formula) {
		switch {
		case tk.TSubType == efp.TokenSubTypeStart && (tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression):
			fn := tk.TType == efp.TokenTypeFunction && tk.TValue != "ARRAY" && tk.TValue != "ARRAYROW"
			open = append(open, fn)
			if fn {
				depth++
				deepest = max(deepest, depth)
			}
		case tk.TSubType == efp.TokenSubTypeStop && len(open) > 0:
			if open[len(open)-1] {
				depth--
			}
			open = open[:len(open)-1]
		}
	}
	return deepest
}

// CheckBlockFits refuses a block anchored at (col, row) of rows x cols
// cells that would cross the grid's edge, naming the cell past it.
func CheckBlockFits(what string, col, row, rows, cols int) error {
	endRow, endCol := row+rows-1, col+cols-1
	switch {
	case endRow > LastRow:
		return failure.Invalid("%s starting at %s is %s rows tall and would end at row %s, past Excel's last row %s; nothing was written",
			what, CellName(col, row), Thousands(rows), Thousands(endRow), Thousands(LastRow))
	case endCol > LastCol:
		return failure.Invalid("%s starting at %s is %s columns wide and would end at column %s, past Excel's last column %s (%s); nothing was written",
			what, CellName(col, row), Thousands(cols), Thousands(endCol), ColumnName(LastCol), Thousands(LastCol))
	}
	return nil
}

// RangeForms is the sentence every range error ends with.
const RangeForms = `use a cell such as "A1" or a rectangle such as "A1:C3"`

// cellCoords parses "B7" (also "$B$7", lower case). When ref is not a
// cell of Excel's grid, problem says why: syntax is true when ref is no
// cell reference at all, false when it lies past the grid's edge.
func cellCoords(ref string) (col, row int, problem string, syntax bool) {
	clean := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(ref), "$", ""))
	i := 0
	for i < len(clean) && clean[i] >= 'A' && clean[i] <= 'Z' {
		i++
	}
	letters, digits := clean[:i], clean[i:]
	if letters == "" || digits == "" || strings.TrimLeft(digits, "0123456789") != "" || digits[0] == '0' {
		return 0, 0, "is not a cell reference", true
	}
	pastCol := fmt.Sprintf("is past Excel's last column %s (%s columns)", ColumnName(LastCol), Thousands(LastCol))
	if len(letters) > 3 {
		return 0, 0, pastCol, false
	}
	for _, c := range letters {
		col = col*26 + int(c-'A'+1)
	}
	if col > LastCol {
		return 0, 0, pastCol, false
	}
	pastRow := fmt.Sprintf("is past Excel's last row %s", Thousands(LastRow))
	if len(digits) > 7 {
		return 0, 0, pastRow, false
	}
	row, _ = strconv.Atoi(digits)
	if row > LastRow {
		return 0, 0, pastRow, false
	}
	return col, row, "", false
}

// wholeLineHint explains, for a range like "A:A" or "1:3", that whole
// columns and rows are not accepted ("" for other ranges).
func wholeLineHint(parts []string) string {
	if len(parts) != 2 {
		return ""
	}
	letters := func(s string) bool {
		return s != "" && strings.Trim(strings.ToUpper(s), "$ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
	}
	digits := func(s string) bool { return s != "" && strings.Trim(s, "$0123456789") == "" }
	a, b := strings.TrimSpace(parts[0]), strings.TrimSpace(parts[1])
	if letters(a) && letters(b) || digits(a) && digits(b) {
		return `; whole columns or rows are not accepted: name the cells, e.g. "A1:A100"`
	}
	return ""
}

// Thousands renders n with comma separators, as the limits are quoted.
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
