package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpillsThroughDeleteRange deletes cells through and beside a spill
// (C3 =SEQUENCE(3) over C3:C5, A1 =SUM(C3#)), shifting up and left, as
// Excel 365 shows the result: the anchor moves with its cell, its spill
// fills its range again from there (no gap, no stray value), a cell moved
// into the new range makes it #SPILL!, and a deleted anchor takes its
// spilled values along; the spill reference follows the anchor.
func TestSpillsThroughDeleteRange(t *testing.T) {
	cases := []struct {
		name  string
		setup map[string]any // more cells written before the edit
		rng   string
		shift string
		want  map[string]string // cell -> value ("" empty)
		sum   string            // A1 after the edit ("" not checked)
	}{
		{"inside, up", nil, "C4", "up",
			map[string]string{"C3": "1", "C4": "2", "C5": "3", "C6": ""}, "6"},
		{"inside, a value moves into the way", map[string]any{"C6": "x"}, "C4", "up",
			map[string]string{"C3": "#SPILL!", "C4": "", "C5": "x", "C6": ""}, ""},
		{"inside, a value moves below", map[string]any{"C8": "x"}, "C4:C5", "up",
			map[string]string{"C3": "1", "C4": "2", "C5": "3", "C6": "x", "C7": ""}, "6"},
		{"the anchor, up", nil, "C3", "up",
			map[string]string{"C3": "", "C4": "", "C5": "", "C2": ""}, "#REF!"},
		{"the anchor and more, up", map[string]any{"C7": 9}, "C2:C4", "up",
			map[string]string{"C2": "", "C3": "", "C4": "9", "C5": ""}, "#REF!"},
		{"above, up: moves whole", nil, "C1:C2", "up",
			map[string]string{"C1": "1", "C2": "2", "C3": "3", "C4": "", "C5": ""}, "6"},
		{"the anchor's row, left", nil, "A3", "left",
			map[string]string{"B3": "1", "B4": "2", "B5": "3", "C3": "", "C4": "", "C5": ""}, "6"},
		{"a spilled row, left", map[string]any{"D4": "y"}, "B4", "left",
			map[string]string{"B4": "", "C3": "#SPILL!", "C4": "y", "C5": "", "D4": ""}, ""},
		{"a spilled row, left, nothing in the way", nil, "B4", "left",
			map[string]string{"B4": "", "C3": "1", "C4": "2", "C5": "3", "D4": ""}, "6"},
		{"beside, up", map[string]any{"D4": "z"}, "D3", "up",
			map[string]string{"C3": "1", "C4": "2", "C5": "3", "D3": "z"}, "6"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "A1", "value": "=SUM(C3#)"})
			for cell, v := range tc.setup {
				e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": cell, "value": v})
			}
			e.ok("delete_range", map[string]any{"file_path": "s.xlsx", "cell_range": tc.rng, "shift": tc.shift})
			for cell, want := range tc.want {
				assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cell), cell)
			}
			if tc.sum != "" {
				assert.Equal(t, tc.sum, e.value("s.xlsx", "Sheet1", "A1"))
			}
		})
	}
}

// TestDeleteRangeRefusesASpillItCannotRedo: an anchor whose formula the
// calculator cannot compute (arithmetic on a range inside ISREF, which the
// engine does not lift over the elements of an array) keeps its spill as
// Excel stored it; a delete that would split that spill is refused and the
// file left as it was, while deleting the anchor with its cells is not.
func TestDeleteRangeRefusesASpillItCannotRedo(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	for i, v := range []int{1, 5, 7} {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(2, i+1), v))
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "C1", "_xlfn._xlws.FILTER(B1:B3,ISREF(B1:B3-4)>2)"))
	require.NoError(t, f.SetDynamicArrayFormula("Sheet1", "C1", "C1:C2"))
	require.NoError(t, f.SetCellValue("Sheet1", "C2", 7))
	require.NoError(t, f.SaveAs(e.path("u.xlsx")))
	require.NoError(t, f.Close())
	before := part(t, e.path("u.xlsx"), "xl/worksheets/sheet1.xml")

	p := e.fail("delete_range", map[string]any{"file_path": "u.xlsx", "cell_range": "C2", "shift": "up"})
	assert.Contains(t, p["message"], "split the spill C1:C2 of the dynamic array formula in C1")
	assert.Equal(t, before, part(t, e.path("u.xlsx"), "xl/worksheets/sheet1.xml"), "refused: unchanged")

	e.ok("delete_range", map[string]any{"file_path": "u.xlsx", "cell_range": "C1", "shift": "up"})
	for _, c := range []string{"C1", "C2"} {
		assert.Equal(t, "", e.value("u.xlsx", "Sheet1", c), c)
	}
}
