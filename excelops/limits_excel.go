package excelops

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/xuri/efp"
)

// Excel's own limits ("Excel specifications and limits"). Past them excelize
// truncates silently (text) or writes what Excel then refuses to open
// (formulas, cells past the grid), so every write checks them first and a
// value past one is a ValueError naming the limit and the cell, with
// nothing written.
const (
	// maxCellChars is the most characters a cell holds. Excel counts
	// UTF-16 code units, so a character outside the Basic Multilingual
	// Plane (an emoji) counts twice.
	maxCellChars = excelize.TotalCellChars
	// maxFormulaChars is the longest formula, counted with its leading
	// "=" in UTF-16 code units like maxCellChars.
	maxFormulaChars = 8192
	// maxFunctionNesting is how deep Excel lets functions nest in one
	// formula: IF(A1,SUM(B1:B2),0) nests 2 levels.
	maxFunctionNesting = 64
	// lastRow and lastCol are the grid's edges: row 1,048,576 and column
	// XFD (16,384).
	lastRow = excelize.TotalRows
	lastCol = excelize.MaxColumns
)

// excelLen is the length of s as Excel counts it (UTF-16 code units).
func excelLen(s string) int {
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

// checkText refuses text longer than a cell holds.
func checkText(ref, s string) error {
	if len(s) <= maxCellChars { // bytes >= UTF-16 units: certainly fits
		return nil
	}
	if n := excelLen(s); n > maxCellChars {
		return invalid("%s: text of %s characters is longer than Excel's limit of %s characters per cell; nothing was written",
			ref, thousands(n), thousands(maxCellChars))
	}
	return nil
}

// checkFormula refuses a formula (given without its "=") longer than Excel
// accepts, or nesting functions deeper.
func checkFormula(ref, formula string) error {
	if len(formula)+1 > maxFormulaChars {
		if n := excelLen(formula) + 1; n > maxFormulaChars {
			return invalid("%s: formula of %s characters is longer than Excel's limit of %s characters; nothing was written",
				ref, thousands(n), thousands(maxFormulaChars))
		}
	}
	// Each level opens a parenthesis: few of them cannot nest too deep.
	if strings.Count(formula, "(") > maxFunctionNesting {
		if n := functionNesting(formula); n > maxFunctionNesting {
			return invalid("%s: formula nests functions %d levels deep, more than Excel's limit of %d levels; nothing was written",
				ref, n, maxFunctionNesting)
		}
	}
	return nil
}

// functionNesting is how deep the functions of formula (without its "=")
// nest; parentheses that only group and array constants are no level.
func functionNesting(formula string) int {
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

// checkBlockFits refuses a block anchored at (col, row) of rows x cols
// cells that would cross the grid's edge, naming the cell past it.
func checkBlockFits(what string, col, row, rows, cols int) error {
	endRow, endCol := row+rows-1, col+cols-1
	switch {
	case endRow > lastRow:
		return invalid("%s starting at %s is %s rows tall and would end at row %s, past Excel's last row %s; nothing was written",
			what, cellName(col, row), thousands(rows), thousands(endRow), thousands(lastRow))
	case endCol > lastCol:
		return invalid("%s starting at %s is %s columns wide and would end at column %s, past Excel's last column %s (%s); nothing was written",
			what, cellName(col, row), thousands(cols), thousands(endCol), columnName(lastCol), thousands(lastCol))
	}
	return nil
}

// rangeForms is the sentence every range error ends with.
const rangeForms = `use a cell such as "A1" or a rectangle such as "A1:C3"`

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
	pastCol := fmt.Sprintf("is past Excel's last column %s (%s columns)", columnName(lastCol), thousands(lastCol))
	if len(letters) > 3 {
		return 0, 0, pastCol, false
	}
	for _, c := range letters {
		col = col*26 + int(c-'A'+1)
	}
	if col > lastCol {
		return 0, 0, pastCol, false
	}
	pastRow := fmt.Sprintf("is past Excel's last row %s", thousands(lastRow))
	if len(digits) > 7 {
		return 0, 0, pastRow, false
	}
	row, _ = strconv.Atoi(digits)
	if row > lastRow {
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

// thousands renders n with comma separators, as the limits are quoted.
func thousands(n int) string {
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
