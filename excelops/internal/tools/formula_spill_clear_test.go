package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestClearRangeThroughASpill clears values in and around a spill (C3
// =SEQUENCE(3) over C3:C5, A1 =SUM(C3:C5)) as Excel's Clear Contents
// does: clearing the anchor takes its spilled values along, wherever they
// are; a spilled cell cleared without its anchor keeps the anchor's value
// (nothing of its own is there), and the anchor keeps spilling; the cells
// beside are cleared as asked.
func TestClearRangeThroughASpill(t *testing.T) {
	cases := []struct {
		rng     string
		want    map[string]string
		spill   string // C3's spill after the clear ("" no anchor)
		sum     string
		cleared float64 // values_cleared
	}{
		{"C3", map[string]string{"C3": "", "C4": "", "C5": ""}, "", "0", 1},
		{"B2:C3", map[string]string{"B3": "", "C3": "", "C4": "", "C5": ""}, "", "0", 2},
		{"C4", map[string]string{"C3": "1", "C4": "2", "C5": "3"}, "C3:C5", "6", 0},
		{"B4:C5", map[string]string{"B4": "", "C3": "1", "C4": "2", "C5": "3"}, "C3:C5", "6", 1},
		{"C3:C5", map[string]string{"C3": "", "C4": "", "C5": ""}, "", "0", 3},
	}
	for _, tc := range cases {
		t.Run(tc.rng, func(t *testing.T) {
			e := newEnv(t)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell_range": "A1",
				"values": [][]any{{"=SUM(C3:C5)", nil}, {nil, nil}, {nil, "b3"}, {nil, "b4"}}})
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
			got := e.ok("clear_range", map[string]any{"file_path": "s.xlsx", "cell_range": tc.rng})
			assert.Equal(t, tc.cleared, got["values_cleared"])
			for cell, want := range tc.want {
				assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cell), cell)
			}
			assert.Equal(t, tc.spill, spillAt(e, "s.xlsx", "Sheet1", "C3"))
			assert.Equal(t, tc.sum, e.value("s.xlsx", "Sheet1", "A1"))
		})
	}
}
