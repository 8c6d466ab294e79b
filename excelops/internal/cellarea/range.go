package cellarea

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// Range is a rectangle of cells, 1-based and inclusive: columns C1 to C2,
// rows R1 to R2, with C1 <= C2 and R1 <= R2.
type Range struct{ C1, R1, C2, R2 int }

// String renders the range as "A1:C3" (or "A1" for one cell); its corners
// must lie on Excel's grid.
func (r Range) String() string {
	if r.C1 == r.C2 && r.R1 == r.R2 {
		return cellName(r.C1, r.R1)
	}
	return cellName(r.C1, r.R1) + ":" + cellName(r.C2, r.R2)
}

// Cells is the number of cells in r.
func (r Range) Cells() int64 { return int64(r.C2-r.C1+1) * int64(r.R2-r.R1+1) }

// Overlaps reports whether r and o share a cell.
func (r Range) Overlaps(o Range) bool {
	return r.C1 <= o.C2 && o.C1 <= r.C2 && r.R1 <= o.R2 && o.R1 <= r.R2
}

// Contains reports whether o lies wholly inside r.
func (r Range) Contains(o Range) bool {
	return r.C1 <= o.C1 && o.C2 <= r.C2 && r.R1 <= o.R1 && o.R2 <= r.R2
}

// Has reports whether the cell (col, row) lies inside r.
func (r Range) Has(col, row int) bool {
	return r.C1 <= col && col <= r.C2 && r.R1 <= row && row <= r.R2
}

// cellName renders (col, row) as "B7"; inputs are always on the grid.
func cellName(col, row int) string {
	n, _ := excelize.CoordinatesToCellName(col, row)
	return n
}
