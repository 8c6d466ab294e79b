package formularef

import "strings"

// mover moves the areas of one sheet for an edit (a Shift or a Band):
// move returns ok false when every cell of the area is deleted.
type mover struct {
	sheet string
	move  func(area) (area, bool)
}

// formula rewrites the references of formula, which lives on sheet host,
// that point into the mover's sheet; changed is false (and the text
// returned as is) when no reference moves.
func (m mover) formula(formula, host string) (string, bool) {
	return rewrite(formula, func(r *reference) bool {
		if !r.parsed || !r.onSheet(m.sheet, host) {
			return false
		}
		moved, ok := m.move(r.area)
		if !ok {
			r.broken = true
			return true
		}
		if moved == r.area {
			return false
		}
		r.area = moved
		return true
	})
}

// areaRef moves one A1 area: ok is false when all its cells are deleted;
// an area left with one cell is written as that cell.
func (m mover) areaRef(ref string) (string, bool) {
	a, ok := parseArea(ref)
	if !ok {
		return ref, true
	}
	moved, ok := m.move(a)
	if !ok {
		return "", false
	}
	if moved.kind == kindCells && moved.c1.n == moved.c2.n && moved.r1.n == moved.r2.n {
		moved.single = true
	}
	return moved.String(), true
}

// sqref moves a space-separated list of areas, dropping the areas deleted
// entirely; "" when nothing is left.
func (m mover) sqref(sqref string) string {
	var out []string
	for _, part := range strings.Fields(sqref) {
		if moved, ok := m.areaRef(part); ok {
			out = append(out, moved)
		}
	}
	return strings.Join(out, " ")
}
