package formularef

// Band is a rectangle of cells deleted from one sheet while the cells
// beside it move in to fill it, as Excel's Delete > Shift cells up (or
// left): with Up, the cells below the rectangle in its columns move up by
// its height; otherwise the cells right of it in its rows move left by its
// width. Nothing outside those columns (rows) moves.
//
// References follow Excel and LibreOffice: a reference to a deleted cell
// becomes #REF!; a reference whose cells lie within the band's columns
// (rows) moves, shrinks or breaks as with deleted rows (columns); a range
// reaching outside the band keeps its address, since its cells no longer
// move as one block.
type Band struct {
	Sheet          string // the sheet edited (matched case-insensitively)
	Up             bool   // shift cells up; false: shift cells left
	C1, R1, C2, R2 int    // the deleted rectangle, 1-based and inclusive
}

// shift is the band as a deletion of whole rows (Up) or columns.
func (b Band) shift() Shift {
	if b.Up {
		return Shift{Sheet: b.Sheet, Axis: Rows, At: b.R1, Count: b.R2 - b.R1 + 1, Delete: true}
	}
	return Shift{Sheet: b.Sheet, Axis: Cols, At: b.C1, Count: b.C2 - b.C1 + 1, Delete: true}
}

// inBand reports whether the area lies within the band's columns (Up) or
// rows (left): only such an area follows the shift.
func (b Band) inBand(a area) bool {
	a = a.ordered()
	switch {
	case b.Up && a.kind == kindCells:
		return a.c1.n >= b.C1 && a.c2.n <= b.C2
	case !b.Up && a.kind == kindCells:
		return a.r1.n >= b.R1 && a.r2.n <= b.R2
	}
	// Whole rows or columns: they either run along the shift (and do not
	// move: Shift leaves them) or reach outside the band.
	return false
}

// move applies the band to an area; ok is false when it is gone.
func (b Band) move(a area) (area, bool) {
	if !b.inBand(a) {
		return a, true
	}
	return b.shift().moveArea(a)
}

// mover is the band as a mover of its sheet's areas.
func (b Band) mover() mover { return mover{sheet: b.Sheet, move: b.move} }

// Formula rewrites the references of formula (with or without its leading
// "="), which lives on sheet host, for the band. changed is false (and the
// text returned as is) when no reference moves.
func (b Band) Formula(formula, host string) (string, bool) { return b.mover().formula(formula, host) }

// Area moves one A1 area of the edited sheet (a cell, a rule's range): ok
// is false when all its cells are deleted.
func (b Band) Area(ref string) (string, bool) { return b.mover().areaRef(ref) }

// Sqref moves a space-separated list of areas of the edited sheet,
// dropping the areas deleted entirely; "" when nothing is left.
func (b Band) Sqref(sqref string) string { return b.mover().sqref(sqref) }
