package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCacheWithMergesAndWidths: structural edits (merges) keep the parsed
// workbook in the cache, accounted in bytes; a splice edit (column widths)
// replaces the file and drops the cached copy, so the next structural edit
// parses the new version and nothing either path wrote is lost.
func TestCacheWithMergesAndWidths(t *testing.T) {
	e := newEnv(t)
	e.workbook("m.xlsx", [][]any{{"a", "b", "c", "d"}, {1, 2, 3, 4}})
	e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A5:B5"})
	n, bytes := e.svc.engine.Cache.Stats()
	require.Equal(t, 1, n)
	assert.Positive(t, bytes, "the cached workbook is accounted in bytes")
	e.ok("adjust_column_width", map[string]any{"file_path": "m.xlsx", "columns": map[string]any{"C": 25}})
	n, bytes = e.svc.engine.Cache.Stats()
	assert.Equal(t, 0, n, "a splice write drops the stale parsed copy")
	assert.Zero(t, bytes)
	opens := e.svc.engine.Opens.Load()
	e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "C7:D8"})
	assert.Equal(t, opens+1, e.svc.engine.Opens.Load(), "the new version is parsed")
	e.ok("adjust_column_width", map[string]any{"file_path": "m.xlsx", "columns": map[string]any{"A": 12}})
	e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A10:C10"})

	f := e.open("m.xlsx")
	merged, err := f.GetMergeCells("Sheet1")
	require.NoError(t, err)
	var refs []string
	for _, m := range merged {
		refs = append(refs, m.GetStartAxis()+":"+m.GetEndAxis())
	}
	assert.ElementsMatch(t, []string{"A5:B5", "C7:D8", "A10:C10"}, refs)
	for col, want := range map[string]float64{"A": 12, "C": 25} {
		w, err := f.GetColWidth("Sheet1", col)
		require.NoError(t, err)
		assert.Equal(t, want, w, col)
	}
}
