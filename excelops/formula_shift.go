package excelops

import (
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"
)

// shiftFormula moves the relative cell references of formula by dRow rows
// and dCol columns, as Excel derives a shared formula's cell from the
// formula of its first cell (<f t="shared" si="0"/>): "$" parts stay, text
// in double quotes, quoted sheet names, function names and defined names are
// copied as they are, and a reference pushed off the sheet becomes #REF!.
// Whole-row and whole-column references (1:3, A:C) are copied as they are.
func shiftFormula(formula string, dRow, dCol int) string {
	if dRow == 0 && dCol == 0 {
		return formula
	}
	var out strings.Builder
	n := len(formula)
	for i := 0; i < n; {
		c := formula[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < n {
				if formula[j] == c {
					if j+1 < n && formula[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, n)
			out.WriteString(formula[i:j])
			i = j
		case isRefChar(c):
			j := i
			for j < n && isRefChar(formula[j]) {
				j++
			}
			run := formula[i:j]
			next := byte(0)
			if j < n {
				next = formula[j]
			}
			if next == '(' || next == '!' {
				out.WriteString(run)
			} else {
				out.WriteString(shiftCellRef(run, dRow, dCol))
			}
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	return out.String()
}

// isRefChar reports whether c can be part of a reference or a name.
func isRefChar(c byte) bool {
	return c == '$' || c == '_' || c == '.' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// shiftCellRef shifts run when it is one cell reference ($A$1, B2, $C3),
// else returns it unchanged.
func shiftCellRef(run string, dRow, dCol int) string {
	i := 0
	colAbs := i < len(run) && run[i] == '$'
	if colAbs {
		i++
	}
	start := i
	for i < len(run) && (run[i] >= 'A' && run[i] <= 'Z' || run[i] >= 'a' && run[i] <= 'z') {
		i++
	}
	letters := run[start:i]
	if len(letters) == 0 || len(letters) > 3 {
		return run
	}
	rowAbs := i < len(run) && run[i] == '$'
	if rowAbs {
		i++
	}
	digits := run[i:]
	if digits == "" || strings.TrimLeft(digits, "0123456789") != "" {
		return run
	}
	col, err := excelize.ColumnNameToNumber(letters)
	if err != nil {
		return run
	}
	row, err := strconv.Atoi(digits)
	if err != nil || row < 1 || row > excelize.TotalRows {
		return run
	}
	if !colAbs {
		col += dCol
	}
	if !rowAbs {
		row += dRow
	}
	if col < 1 || col > excelize.MaxColumns || row < 1 || row > excelize.TotalRows {
		return "#REF!"
	}
	var b strings.Builder
	if colAbs {
		b.WriteByte('$')
	}
	b.WriteString(columnName(col))
	if rowAbs {
		b.WriteByte('$')
	}
	b.WriteString(strconv.Itoa(row))
	return b.String()
}
