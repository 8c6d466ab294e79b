package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFindReplaceLeavesSpilledCells replaces text shown both by a value
// and by the spill of a formula reading it (C1 =SORT(A1:A2) over C1:C2):
// only the value is replaced, as Excel's Replace does, and the spill
// follows it; a spilled cell is never written, so the anchor does not
// turn #SPILL!.
func TestFindReplaceLeavesSpilledCells(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{"pen"}, {"ink"}})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C1", "value": "=SORT(A1:A2)"})
	got := e.ok("find_replace", map[string]any{"file_path": "s.xlsx", "find": "pen", "replace": "pad"})
	assert.Equal(t, float64(1), got["cells_changed"])
	for cell, want := range map[string]string{"A1": "pad", "C1": "ink", "C2": "pad"} {
		assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cell), cell)
	}
	assert.Equal(t, "C1:C2", spillAt(e, "s.xlsx", "Sheet1", "C1"))
}
