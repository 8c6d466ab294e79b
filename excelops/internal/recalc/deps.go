package recalc

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

// EditSet is what one call changed, when the tool can say exactly (a block
// of written cells, rows inserted or deleted). A nil *editSet means
// anything may have changed (sheets deleted, copies).
type EditSet struct {
	Areas []cellarea.Area
	// moved says cells changed place (rows or columns inserted or
	// deleted): a formula reading a position rather than a value (ROW,
	// COLUMN, ADDRESS, CELL, ...) may change without reading a changed cell.
	moved bool
	// cut says references may have been cut (rows or columns deleted): a
	// formula holding #REF! may have a new value.
	cut bool
	// Fresh are cells whose dynamic array formulas the call spilled
	// itself (write_cells' block): the refresh does not spill them again.
	Fresh []cellarea.Area
}

// written returns the areas whose cells the edit wrote: its areas, unless
// cells moved (then the areas are where they moved, not new content).
func (e *EditSet) written() []cellarea.Area {
	if e.moved {
		return nil
	}
	return e.Areas
}

// MaxDepChecks bounds the overlap checks dirtyFormulas makes; past it (a
// long chain of formulas) every formula counts as dirty, which is never
// wrong, only slower.
const MaxDepChecks = 4_000_000

// DepCell is one formula cell as dirtyFormulas sees it.
type DepCell struct {
	At   cellarea.Area   // the cell itself
	Deps []cellarea.Area // what it reads
	Wide bool            // it may read anything
	// fills, when set, is every cell its value fills (a legacy array
	// formula's range): a formula reading any of them reads it.
	fills *cellarea.Area
}

// filled is the area whose formulas read c's value: its fills, else itself.
func (c DepCell) filled() cellarea.Area {
	if c.fills != nil {
		return *c.fills
	}
	return c.At
}

// DirtyFormulas marks the formula cells whose value an edit may have
// changed: those written by the edit (when wrote: the areas are cells the
// edit wrote, not cells that moved), those reading an edited cell, and, in
// turn, those reading a dirty formula cell, on every sheet.
func DirtyFormulas(cells []DepCell, edits []cellarea.Area, wrote bool) []bool {
	dirty := make([]bool, len(cells))
	frontier := edits
	checks := 0
	for first := true; len(frontier) > 0; first = false {
		var next []cellarea.Area
		for i, c := range cells {
			if dirty[i] {
				continue
			}
			hit := c.Wide
			if first && wrote {
				for _, e := range edits {
					hit = hit || e.Overlaps(c.At)
				}
			}
			for _, d := range c.Deps {
				if hit {
					break
				}
				for _, f := range frontier {
					if checks++; d.Overlaps(f) {
						hit = true
						break
					}
				}
			}
			if hit {
				dirty[i] = true
				next = append(next, c.filled())
			}
		}
		if checks > MaxDepChecks {
			for i := range dirty {
				dirty[i] = true
			}
			return dirty
		}
		frontier = next
	}
	return dirty
}
