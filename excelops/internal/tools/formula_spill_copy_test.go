package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spillAt returns the spill range of the dynamic array anchored at cell of
// sheet in the workspace file name ("" when the cell is no anchor).
func spillAt(e *env, name, sheet, cell string) string {
	e.t.Helper()
	ws, err := e.open(name).Worksheet(sheet)
	require.NoError(e.t, err)
	col, row, err := grid.ParseCell(cell)
	require.NoError(e.t, err)
	if spill, ok := recalc.DynamicAnchor(recalc.SheetCell(ws, col, row)); ok {
		return spill.String()
	}
	return ""
}

// TestSpillsThroughCopyRange copies cells of a spill (C3 =SEQUENCE(3) over
// C3:C5) as Excel 365 pastes them: a copied anchor is a dynamic array
// formula spilling at its destination, or #SPILL! when a cell there is in
// the way; the spilled cells copied with it are pasted empty (it fills them
// again), those copied without it as the values they show; a paste over an
// anchor takes its spill away; values_only pastes what every cell shows.
func TestSpillsThroughCopyRange(t *testing.T) {
	cases := []struct {
		name   string
		setup  map[string]any // cells of Sheet1 written before the copy
		src    string
		sheet  string // target sheet ("" Sheet1)
		start  string
		values bool
		want   map[string]string // cell of the target sheet -> value
		spills map[string]string // cell of the target sheet -> its spill range ("" no anchor)
	}{
		{"the whole spill", nil, "C3:C5", "", "E3", false,
			map[string]string{"E3": "1", "E4": "2", "E5": "3", "E6": ""}, map[string]string{"E3": "E3:E5", "E4": ""}},
		{"the anchor alone", nil, "C3", "", "E3", false,
			map[string]string{"E3": "1", "E4": "2", "E5": "3"}, map[string]string{"E3": "E3:E5"}},
		{"the anchor, blocked there", map[string]any{"E4": "x"}, "C3", "", "E3", false,
			map[string]string{"E3": "#SPILL!", "E4": "x", "E5": ""}, map[string]string{"E3": "E3"}},
		{"the anchor and part of its spill, blocked past it", map[string]any{"E5": "y"}, "C3:C4", "", "E3", false,
			map[string]string{"E3": "#SPILL!", "E4": "", "E5": "y"}, map[string]string{"E3": "E3"}},
		{"spilled cells without their anchor", nil, "C4:C5", "", "E4", false,
			map[string]string{"E3": "", "E4": "2", "E5": "3"}, map[string]string{"E4": ""}},
		{"over an anchor", map[string]any{"E3": "=SEQUENCE(4)", "A1": "v"}, "A1", "", "E3", false,
			map[string]string{"E3": "v", "E4": "", "E5": "", "E6": ""}, map[string]string{"E3": ""}},
		{"to another sheet", nil, "B3:C5", "Other", "A1", false,
			map[string]string{"B1": "1", "B2": "2", "B3": "3", "A1": ""}, map[string]string{"B1": "B1:B3"}},
		{"into its own spill: the old anchor is in the way", nil, "C3:C5", "", "C4", false,
			map[string]string{"C3": "#SPILL!", "C4": "1", "C5": "2", "C6": "3"}, map[string]string{"C4": "C4:C6"}},
		{"values only", nil, "C3:C5", "", "E3", true,
			map[string]string{"E3": "1", "E4": "2", "E5": "3"}, map[string]string{"E3": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
			for cell, v := range tc.setup {
				e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": cell, "value": v})
			}
			target := tc.sheet
			if target == "" {
				target = "Sheet1"
			}
			e.ok("copy_range_between_sheets", map[string]any{"source_file": "s.xlsx", "source_sheet": "Sheet1",
				"source_range": tc.src, "target_sheet": target, "target_start": tc.start, "create": true, "values_only": tc.values})
			for cell, want := range tc.want {
				assert.Equal(t, want, e.value("s.xlsx", target, cell), cell)
			}
			for cell, want := range tc.spills {
				assert.Equal(t, want, spillAt(e, "s.xlsx", target, cell), cell)
			}
			if tc.start != "C4" {
				assert.Equal(t, "C3:C5", spillAt(e, "s.xlsx", "Sheet1", "C3"), "the source spills as before")
			}
		})
	}
}

// TestCopySheetKeepsSpills copies a sheet holding a spill (C1 =SORT(A1:A3)
// over C1:C3, E1 =SUM(C1#)): the copy holds the same anchor, spill and
// values, and spills again on its own when its data changes, leaving the
// original as it was.
func TestCopySheetKeepsSpills(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{3}, {1}, {2}})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C1", "value": "=SORT(A1:A3)"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "E1", "value": "=SUM(C1#)"})
	e.ok("copy_sheet", map[string]any{"file_path": "s.xlsx", "sheet_name": "Sheet1", "new_name": "Copy"})
	assert.Equal(t, "C1:C3", spillAt(e, "s.xlsx", "Copy", "C1"))
	for cell, want := range map[string]string{"C1": "1", "C2": "2", "C3": "3", "E1": "6"} {
		assert.Equal(t, want, e.value("s.xlsx", "Copy", cell), cell)
	}
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "sheet_name": "Copy", "cell_range": "A4", "values": [][]any{{0}}})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "sheet_name": "Copy", "cell": "C1", "value": "=SORT(A1:A4)"})
	assert.Equal(t, "C1:C4", spillAt(e, "s.xlsx", "Copy", "C1"))
	for cell, want := range map[string]string{"C1": "0", "C4": "3", "E1": "6"} {
		assert.Equal(t, want, e.value("s.xlsx", "Copy", cell), cell)
	}
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "sheet_name": "Copy", "cell": "A1", "value": 10})
	for cell, want := range map[string]string{"C1": "0", "C4": "10", "E1": "13"} {
		assert.Equal(t, want, e.value("s.xlsx", "Copy", cell), cell)
	}
	assert.Equal(t, "C1:C3", spillAt(e, "s.xlsx", "Sheet1", "C1"))
	assert.Equal(t, "3", e.value("s.xlsx", "Sheet1", "C3"))
}
