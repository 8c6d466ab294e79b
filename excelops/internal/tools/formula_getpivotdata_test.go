package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestGetPivotDataFollowsItsSource checks that a GETPIVOTDATA formula is
// computed from the pivot table's source range and computed again when
// that range is edited: no argument names the range, so the formula
// depends on every edit (formuladeps.Volatile).
func TestGetPivotDataFollowsItsSource(t *testing.T) {
	e := newEnv(t)
	salesBook(e)
	e.ok("create_pivot_table", map[string]any{
		"file_path": "sales.xlsx", "sheet_name": "Data", "source_range": "A1:D6",
		"target_sheet": "Summary", "create": true, "rows": []string{"region"},
		"values": []map[string]any{{"field": "qty"}},
	})
	e.ok("write_cells", map[string]any{"file_path": "sales.xlsx", "sheet_name": "Data", "cell_range": "H1",
		"values": [][]any{{`=GETPIVOTDATA("qty",Summary!A3,"region","east")`}, {`=GETPIVOTDATA("qty",Summary!A3)`},
			{`=GETPIVOTDATA("qty",Data!A1)`}}})
	assert.Equal(t, "8", e.value("sales.xlsx", "Data", "H1"))
	assert.Equal(t, "25", e.value("sales.xlsx", "Data", "H2"))
	assert.Equal(t, "#REF!", e.value("sales.xlsx", "Data", "H3"), "no pivot table at Data!A1")
	e.ok("write_cells", map[string]any{"file_path": "sales.xlsx", "sheet_name": "Data", "cell": "C2", "value": 10})
	assert.Equal(t, "15", e.value("sales.xlsx", "Data", "H1"))
	assert.Equal(t, "32", e.value("sales.xlsx", "Data", "H2"))
}
