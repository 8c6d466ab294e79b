package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mergeBook writes m.xlsx: A1:D2 filled with text and numbers, B1 holds a
// formula, C4 alone below.
func mergeBook(e *env) {
	e.workbook("m.xlsx", [][]any{{"top", "b1", "c1", "d1"}, {"a2", 2, nil, nil}, {}, {nil, nil, "c4"}})
	f := e.open("m.xlsx")
	require.NoError(e.t, f.SetCellFormula("Sheet1", "B1", "1+1"))
	require.NoError(e.t, f.Save())
}

func TestMergeRefusesToDiscardValues(t *testing.T) {
	e := newEnv(t)
	mergeBook(e)
	got := e.fail("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1:C2"})
	assert.Equal(t, "ValueError", got["exception"])
	msg := got["message"].(string)
	assert.Contains(t, msg, "4 cell(s) besides the top-left cell A1")
	assert.Contains(t, msg, `B1="=1+1", C1="c1", A2="a2", B2=2`)
	assert.Contains(t, msg, "discard_values: true")
	assert.Equal(t, "c1", e.value("m.xlsx", "Sheet1", "C1"), "nothing written")
	merged, err := e.open("m.xlsx").GetMergeCells("Sheet1")
	require.NoError(t, err)
	assert.Empty(t, merged)
}

func TestMergeDiscardValuesListsWhatWasDiscarded(t *testing.T) {
	e := newEnv(t)
	mergeBook(e)
	got := e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1:B2", "discard_values": true})
	assert.Equal(t, "A1:B2", got["merged_range"])
	assert.Equal(t, float64(3), got["discarded_count"])
	assert.Equal(t, []any{
		map[string]any{"cell": "B1", "value": "=1+1"},
		map[string]any{"cell": "A2", "value": "a2"},
		map[string]any{"cell": "B2", "value": float64(2)},
	}, got["discarded"])
	// What an unmerge would reveal: nothing, the contents are gone.
	f := e.open("m.xlsx")
	require.NoError(t, f.UnmergeCell("Sheet1", "A1", "B2"))
	for _, c := range []string{"B1", "A2", "B2"} {
		v, _ := f.GetCellValue("Sheet1", c)
		fm, _ := f.GetCellFormula("Sheet1", c)
		assert.Empty(t, v+fm, c)
	}
	assert.Equal(t, "top", e.value("m.xlsx", "Sheet1", "A1"))
}

func TestMergeEmptyCellsAndStylesOnly(t *testing.T) {
	e := newEnv(t)
	mergeBook(e)
	got := e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A3:D3"})
	assert.Equal(t, "A3:D3", got["merged_range"])
	assert.NotContains(t, got, "discarded")
	// Far outside the used range: nothing to inspect.
	got = e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "H100:K200"})
	assert.Equal(t, "H100:K200", got["merged_range"])
	// A value in the top-left cell alone is kept.
	got = e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "C4:D5"})
	assert.Equal(t, "C4:D5", got["merged_range"])
	assert.Equal(t, "c4", e.value("m.xlsx", "Sheet1", "C4"))
}

func TestMergeOverExistingMerges(t *testing.T) {
	e := newEnv(t)
	e.workbook("m.xlsx", [][]any{{"x", "b"}})
	e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "B1:C2"})

	t.Run("partial overlap is refused", func(t *testing.T) {
		got := e.fail("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "C2:E3"})
		assert.Equal(t, "ValueError", got["exception"])
		assert.Contains(t, got["message"], "partly overlaps the merged range(s) B1:C2")
		assert.Contains(t, got["message"], "unmerge_cells")
		assert.Equal(t, []string{"B1:C2"}, mergedRefs(t, e, "m.xlsx"))
	})
	t.Run("same range again", func(t *testing.T) {
		got := e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "B1:C2"})
		assert.Equal(t, true, got["already_merged"])
		assert.Equal(t, []string{"B1:C2"}, mergedRefs(t, e, "m.xlsx"))
	})
	// The case: A1:D2 over B1:C2. The old merge's top-left value
	// is data; the cells hidden under it are not.
	t.Run("containing range", func(t *testing.T) {
		got := e.fail("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1:D2"})
		assert.Contains(t, got["message"], `1 cell(s) besides the top-left cell A1: B1="b"`)
		got = e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "D2:A1", "discard_values": true})
		assert.Equal(t, "A1:D2", got["merged_range"])
		assert.NotContains(t, got, "requested_range")
		assert.Equal(t, []any{"B1:C2"}, got["replaced_merges"])
		assert.Equal(t, []any{map[string]any{"cell": "B1", "value": "b"}}, got["discarded"])
		assert.Equal(t, []string{"A1:D2"}, mergedRefs(t, e, "m.xlsx"))
		assert.Equal(t, "x", e.value("m.xlsx", "Sheet1", "A1"))
	})
}

func TestMergeContainingAnOldMergeWithEmptyTopLeft(t *testing.T) {
	e := newEnv(t)
	e.workbook("m.xlsx", [][]any{{"x"}})
	e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "B1:C2"})
	got := e.ok("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1:D2"})
	assert.Equal(t, "A1:D2", got["merged_range"])
	assert.Equal(t, []any{"B1:C2"}, got["replaced_merges"])
	assert.Equal(t, []string{"A1:D2"}, mergedRefs(t, e, "m.xlsx"))
	assert.Equal(t, "x", e.value("m.xlsx", "Sheet1", "A1"))
}

func TestMergeRangeErrorsAndLimits(t *testing.T) {
	e := newEnv(t, WithLimits(limits.Limits{MaxWriteCells: 100}))
	e.workbook("m.xlsx", [][]any{{"x"}})
	got := e.fail("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1:Z10"})
	assert.Equal(t, "MemoryError", got["exception"])
	assert.Contains(t, got["message"], "260 cells")
	got = e.fail("merge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1"})
	assert.Contains(t, got["message"], "at least two cells")
	got = e.fail("unmerge_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A1:B1"})
	assert.Contains(t, got["message"], "Cell range A1:B1 is not merged")
}

// mergedRefs lists the merged ranges of Sheet1 as stored.
func mergedRefs(t *testing.T, e *env, name string) []string {
	t.Helper()
	merged, err := e.open(name).GetMergeCells("Sheet1", true)
	require.NoError(t, err)
	out := []string{}
	for _, m := range merged {
		out = append(out, m.GetStartAxis()+":"+m.GetEndAxis())
	}
	return out
}
