package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/assert"
)

// TestSortRangeRefusesPartOfASpill sorts ranges holding cells of a spill
// (C3 =SEQUENCE(3) over C3:C5): all of it, its anchor, its spilled cells
// alone. Excel does not change part of an array, and a sort would scatter
// what only the anchor places: each is refused, naming the spill and its
// anchor, and the file is left as it was.
func TestSortRangeRefusesPartOfASpill(t *testing.T) {
	for rng, by := range map[string]string{"C3:C5": "C", "A1:C9": "B", "A3:C4": "B", "C4:D6": "D", "B1:C3": "B"} {
		t.Run(rng, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("s.xlsx", [][]any{{5, "e"}, {4, "d"}, {3, "c"}, {2, "b"}, {1, "a"}, {0, "z"}})
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
			before := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
			p := e.fail("sort_range", map[string]any{"file_path": "s.xlsx", "cell_range": rng,
				"sort_by": []any{map[string]any{"column": by, "order": "ascending"}}})
			assert.Equal(t, "ValueError", p["exception"])
			assert.Contains(t, p["message"], "the spill C3:C5 of the dynamic array formula in C3")
			assert.Equal(t, before, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), "unchanged")
		})
	}
}

// TestSortRangeBesideASpill sorts the data a spill beside it reads (D1
// =TRANSPOSE(A1:A5) over D1:H1): the spill shows the sorted order.
func TestSortRangeBesideASpill(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{3}, {1}, {5}, {2}, {4}})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=TRANSPOSE(A1:A5)"})
	e.ok("sort_range", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:A5",
		"sort_by": []any{map[string]any{"column": "A", "order": "descending"}}})
	for i, cell := range []string{"D1", "E1", "F1", "G1", "H1"} {
		assert.Equal(t, e.value("s.xlsx", "Sheet1", grid.CellName(1, i+1)), e.value("s.xlsx", "Sheet1", cell), cell)
	}
	assert.Equal(t, "5", e.value("s.xlsx", "Sheet1", "D1"))
	assert.Equal(t, "D1:H1", spillAt(e, "s.xlsx", "Sheet1", "D1"))
}
