package formularef

import "strings"

// Axis says whether a Shift moves rows or columns.
type Axis int

const (
	// Rows is an edit of whole rows.
	Rows Axis = iota
	// Cols is an edit of whole columns.
	Cols
)

// Shift is rows or columns inserted into or deleted from one sheet.
type Shift struct {
	Sheet  string // the sheet edited (matched case-insensitively, as Excel)
	Axis   Axis
	At     int  // first row or column inserted or deleted (1-based)
	Count  int  // how many (> 0)
	Delete bool // delete instead of insert
}

// limit is the last row or column number along the shift's axis.
func (e Shift) limit() int {
	if e.Axis == Rows {
		return MaxRows
	}
	return MaxCols
}

// point moves one cell coordinate; ok is false when the cell was deleted
// or pushed off the grid.
func (e Shift) point(n int) (int, bool) {
	switch {
	case n < e.At:
		return n, true
	case e.Delete && n < e.At+e.Count:
		return 0, false
	case e.Delete:
		return n - e.Count, true
	case n+e.Count > e.limit():
		return 0, false
	default:
		return n + e.Count, true
	}
}

// span moves the span [a, b] of a range: it grows when rows are inserted
// inside it, shrinks when some of its rows are deleted and is gone (ok
// false) when all of them are.
func (e Shift) span(a, b int) (int, int, bool) {
	if a > b {
		a, b = b, a
	}
	if a == 1 && b == e.limit() {
		// A1:A1048576 is the whole column to Excel and LibreOffice: it
		// neither moves nor shrinks.
		return a, b, true
	}
	if !e.Delete {
		if a >= e.At {
			a += e.Count
		}
		if b >= e.At {
			b += e.Count
		}
		if a > e.limit() {
			return 0, 0, false
		}
		return a, min(b, e.limit()), true
	}
	last := e.At + e.Count - 1
	switch {
	case a >= e.At && b <= last:
		return 0, 0, false
	case a > last:
		a -= e.Count
	case a >= e.At:
		a = e.At
	}
	switch {
	case b > last:
		b -= e.Count
	case b >= e.At:
		b = e.At - 1
	}
	return a, b, true
}

// moveArea applies the shift to an area; ok is false when it is gone.
func (e Shift) moveArea(a area) (area, bool) {
	if a.single {
		p := &a.r1
		if e.Axis == Cols {
			p = &a.c1
		}
		n, ok := e.point(p.n)
		if !ok {
			return a, false
		}
		p.n = n
		a.c2, a.r2 = a.c1, a.r1
		return a, true
	}
	a = a.ordered()
	lo, hi := &a.r1, &a.r2
	if e.Axis == Cols {
		if a.kind == kindRows {
			return a, true
		}
		lo, hi = &a.c1, &a.c2
	} else if a.kind == kindCols {
		return a, true
	}
	x, y, ok := e.span(lo.n, hi.n)
	if !ok {
		return a, false
	}
	lo.n, hi.n = x, y
	return a, true
}

// mover is the shift as a mover of its sheet's areas.
func (e Shift) mover() mover { return mover{sheet: e.Sheet, move: e.moveArea} }

// Formula rewrites the references of formula (with or without its leading
// "="), which lives on sheet host, for the shift. changed is false (and
// the text returned as is) when no reference moves.
func (e Shift) Formula(formula, host string) (string, bool) { return e.mover().formula(formula, host) }

// Area moves one A1 area on the edited sheet (a cell, a rule's range): ok
// is false when all its cells are deleted; an area left with one cell is
// written as that cell.
func (e Shift) Area(ref string) (string, bool) { return e.mover().areaRef(ref) }

// Sqref moves a space-separated list of areas on the edited sheet (the
// sqref of a conditional format or data validation), dropping the areas
// deleted entirely. It returns "" when nothing is left.
func (e Shift) Sqref(sqref string) string { return e.mover().sqref(sqref) }

// RenameSheet rewrites every reference to sheet old (matched
// case-insensitively) to name sheet new, quoting it where needed.
func RenameSheet(formula, old, new string) (string, bool) {
	return rewrite(formula, func(r *reference) bool {
		if !r.hasSheet || r.book != "" {
			return false
		}
		changed := false
		if strings.EqualFold(r.sheet1, old) {
			r.sheet1, changed = new, true
		}
		if r.sheet2 != "" && strings.EqualFold(r.sheet2, old) {
			r.sheet2, changed = new, true
		}
		return changed
	})
}

// DeleteSheet turns every reference into sheet into #REF!.
func DeleteSheet(formula, sheet string) (string, bool) {
	return rewrite(formula, func(r *reference) bool {
		if !r.hasSheet || r.book != "" {
			return false
		}
		if strings.EqualFold(r.sheet1, sheet) || (r.sheet2 != "" && strings.EqualFold(r.sheet2, sheet)) {
			r.broken = true
			return true
		}
		return false
	})
}

// Translate moves the relative references of formula by rows and cols, as
// a copy from one cell to another does (openpyxl's Translator): absolute
// ($) coordinates stay, whole-column and whole-row spans move along their
// own axis only, and a reference moved off the grid becomes #REF!.
func Translate(formula string, rows, cols int) (string, bool) {
	if rows == 0 && cols == 0 {
		return formula, false
	}
	return rewrite(formula, func(r *reference) bool {
		if !r.parsed || r.book != "" {
			return false
		}
		a := r.area
		ok := true
		move := func(c *coord, d, limit int) {
			if !c.abs {
				c.n += d
				ok = ok && c.n >= 1 && c.n <= limit
			}
		}
		if a.kind != kindRows {
			move(&a.c1, cols, MaxCols)
			move(&a.c2, cols, MaxCols)
		}
		if a.kind != kindCols {
			move(&a.r1, rows, MaxRows)
			move(&a.r2, rows, MaxRows)
		}
		if !ok {
			r.broken = true
			return true
		}
		if a == r.area {
			return false
		}
		r.area = a
		return true
	})
}
