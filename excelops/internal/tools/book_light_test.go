package tools

import (
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLightReadsCloseTheirFile: streaming reads go through the open file
// (not a copy in memory) and close it when the call ends, also when the
// call fails.
func TestLightReadsCloseTheirFile(t *testing.T) {
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{"a", 1}, {"b", 2}})
	require.NoError(t, os.WriteFile(e.path("bad.xlsx"), []byte("not a zip"), 0o644))
	e.ok("read_excel", map[string]any{"file_path": "r.xlsx", "range": "A1:B2"}) // warm up
	before := openFDs(t)
	for range 20 {
		got := e.ok("read_excel", map[string]any{"file_path": "r.xlsx", "range": "A1:B2"})
		assert.Equal(t, []any{[]any{"a", float64(1)}, []any{"b", float64(2)}}, got["values"])
		p := e.fail("read_excel", map[string]any{"file_path": "bad.xlsx", "range": "A1:B2"})
		assert.Contains(t, p["message"], "damaged")
	}
	assert.LessOrEqual(t, openFDs(t), before, "no file left open")
}
