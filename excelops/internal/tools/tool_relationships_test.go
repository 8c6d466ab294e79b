package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// relBooks writes three related workbooks: customers (unique ids under
// 客户ID, a date column), orders (customer_id repeating, one id missing
// from customers; an "id" column disjoint from products' "id"), products
// (产品名称, a generic name that must match nothing), and notes.xlsx with
// no shared header.
func relBooks(e *env) {
	day := func(d int) time.Time { return time.Date(2024, 1, d, 0, 0, 0, 0, time.UTC) }
	e.workbook("customers.xlsx", [][]any{
		{"客户ID", "客户姓名", "since"},
		{"C001", "Ann", day(1)}, {"C002", "Bob", day(2)}, {"C003", "Cid", day(3)}, {"C004", "Dan", day(4)},
	})
	e.workbook("orders.xlsx", [][]any{
		{"id", "customer_id", "amount", "since", "Unnamed: 4"},
		{1, "C001", 10, "2024-01-01", "x"}, {2, "C001", 20, "2024-01-02", "x"}, {3, "C002", 30, "2024-01-03", "x"},
		{4, "C002", 40, "2024-01-04", "x"}, {5, "C009", 50, "2024-01-05", "x"}, {6, "C003", 60, nil, "x"},
	})
	e.workbook("products.xlsx", [][]any{
		{"id", "产品名称", "Unnamed: 4"},
		{101, "Widget", "x"}, {102, "Gadget", "x"},
	})
	e.workbook("notes.xlsx", [][]any{{"memo"}, {"hello"}})
}

// TestDiscoverFileRelationshipsGolden pins the whole answer on relBooks.
func TestDiscoverFileRelationshipsGolden(t *testing.T) {
	e := newEnv(t)
	relBooks(e)
	res := e.call("discover_file_relationships", map[string]any{"max_files": 10})
	require.False(t, res.IsError, res.Text)
	path := filepath.Join("testdata", "relationships.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(res.Text+"\n"), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), res.Text+"\n")
}

func TestDiscoverFileRelationshipsAnswers(t *testing.T) {
	cases := []struct {
		name     string
		args     map[string]any
		analyzed float64
		pairs    int
		hints    int
		leftOut  any
	}{
		{"one file", map[string]any{"file_paths": []any{"orders.xlsx"}}, 1, 0, 0, nil},
		{"the same file twice", map[string]any{"file_paths": []any{"orders.xlsx", "./orders.xlsx"}}, 1, 0, 0, nil},
		{"two files", map[string]any{"file_paths": []any{"orders.xlsx", "customers.xlsx"}}, 2, 1, 1, nil},
		{"max_files cuts file_paths", map[string]any{"file_paths": []any{"orders.xlsx", "customers.xlsx", "products.xlsx"}, "max_files": 2}, 2, 1, 1, 1.0},
		{"directory, default max_files", map[string]any{}, 4, 2, 1, nil},
		{"directory cut by max_files", map[string]any{"directory": ".", "max_files": 2}, 2, 0, 0, 2.0},
		{"no relation", map[string]any{"file_paths": []any{"notes.xlsx", "products.xlsx"}}, 2, 0, 0, nil},
		{"sample of one row", map[string]any{"file_paths": []any{"orders.xlsx", "customers.xlsx"}, "sample_rows": 1}, 2, 1, 1, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			relBooks(e)
			got := e.ok("discover_file_relationships", c.args)
			assert.Equal(t, c.analyzed, got["files_analyzed"])
			assert.Len(t, got["file_pairs"], c.pairs)
			assert.Len(t, got["merge_hints"], c.hints)
			assert.Equal(t, c.leftOut, got["files_left_out"])
			assert.NotEmpty(t, got["summary"])
			assert.Equal(t, false, got["partial"])
		})
	}
}

func TestDiscoverFileRelationshipsRefusesBadArguments(t *testing.T) {
	many := make([]string, maxRelPaths+1)
	for i := range many {
		many[i] = "a.xlsx"
	}
	n := func(v int) *int { return &v }
	cases := []struct {
		name string
		args discoverRelationshipsArgs
		kind failure.Kind
	}{
		{"max_files 0", discoverRelationshipsArgs{MaxFiles: n(0)}, failure.KindInvalidArgument},
		{"max_files over the cap", discoverRelationshipsArgs{MaxFiles: n(maxRelFiles + 1)}, failure.KindInvalidArgument},
		{"sample_rows 0", discoverRelationshipsArgs{SampleRows: n(0)}, failure.KindInvalidArgument},
		{"sample_rows over the cap", discoverRelationshipsArgs{SampleRows: n(maxRelSampleRows + 1)}, failure.KindInvalidArgument},
		{"too many file_paths", discoverRelationshipsArgs{FilePaths: many}, failure.KindInvalidArgument},
		{"an empty path", discoverRelationshipsArgs{FilePaths: []string{"a.xlsx", ""}}, failure.KindInvalidArgument},
		{"file_paths and directory", discoverRelationshipsArgs{FilePaths: []string{"a.xlsx"}, Directory: "sub"}, failure.KindInvalidArgument},
	}
	e := newEnv(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.svc.discoverRelationships(context.Background(), c.args)
			require.Error(t, err)
			assert.True(t, errors.Is(err, c.kind), "%v", err)
		})
	}
}

func TestDiscoverFileRelationshipsFileErrors(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		exc  string
	}{
		{"a path outside the workspace", map[string]any{"file_paths": []any{"orders.xlsx", "../x.xlsx"}}, "PermissionError"},
		{"a missing file", map[string]any{"file_paths": []any{"orders.xlsx", "missing.xlsx"}}, "FileNotFoundError"},
		{"a folder outside the workspace", map[string]any{"directory": ".."}, "PermissionError"},
		{"a missing folder", map[string]any{"directory": "nope"}, "FileNotFoundError"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			relBooks(e)
			p := e.fail("discover_file_relationships", c.args)
			assert.Equal(t, c.exc, p["exception"], p)
		})
	}
}

// TestDiscoverFileRelationshipsSkipsBrokenFolderFiles: a damaged workbook
// found in the folder is listed in skipped; the others are related.
func TestDiscoverFileRelationshipsSkipsBrokenFolderFiles(t *testing.T) {
	e := newEnv(t)
	relBooks(e)
	require.NoError(t, writeFile(e.path("broken.xlsx"), "not a zip"))
	got := e.ok("discover_file_relationships", map[string]any{"max_files": 10})
	assert.Equal(t, 4.0, got["files_analyzed"])
	skipped := got["skipped"].([]any)
	require.Len(t, skipped, 1)
	assert.Equal(t, "broken.xlsx", skipped[0].(map[string]any)["file"])
}

// TestDiscoverFileRelationshipsDeadline: a call whose deadline is already
// near answers partial instead of failing.
func TestDiscoverFileRelationshipsDeadline(t *testing.T) {
	e := newEnv(t)
	relBooks(e)
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(inspectReserve-5*time.Millisecond))
	defer cancel()
	raw, err := json.Marshal(map[string]any{})
	require.NoError(t, err)
	res := e.reg.CallTool(ctx, "discover_file_relationships", raw)
	require.False(t, res.IsError, res.Text)
	var got map[string]any
	require.NoError(t, json.Unmarshal([]byte(res.Text), &got))
	assert.Equal(t, true, got["partial"])
	assert.NotEmpty(t, got["partial_reason"])
	assert.Equal(t, 0.0, got["files_analyzed"])
}

// TestDiscoverFileRelationshipsPagesNeverSkip: under a small result size
// limit every page fits, and the pages together give the shared columns
// and merge hints of the answer without a limit, each once, in order.
func TestDiscoverFileRelationshipsPagesNeverSkip(t *testing.T) {
	e := newEnv(t)
	relBooks(e)
	e.workbook("more.xlsx", [][]any{{"customer-id", "id", "since"}, {"C001", 1, "x"}, {"C002", 101, "y"}})
	args := map[string]any{"max_files": 10}
	whole := e.ok("discover_file_relationships", args)
	flat := func(page map[string]any) (cols []any) {
		for _, p := range page["file_pairs"].([]any) {
			pair := p.(map[string]any)
			for _, c := range pair["shared_columns"].([]any) {
				cols = append(cols, []any{pair["file_a"], pair["file_b"], c})
			}
		}
		return cols
	}
	const limit = 1500
	small := registry.New(registry.WithMaxResultChars(limit))
	require.NoError(t, e.svc.Register(small))
	var cols, hints []any
	pages := 0
	for offset := 0.0; ; pages++ {
		require.Less(t, pages, 50)
		args["offset"] = offset
		raw, err := json.Marshal(args)
		require.NoError(t, err)
		res := small.CallTool(context.Background(), "discover_file_relationships", raw)
		require.False(t, res.IsError, res.Text)
		assert.LessOrEqual(t, utf8.RuneCountInString(res.Text), limit)
		var page map[string]any
		require.NoError(t, json.Unmarshal([]byte(res.Text), &page))
		assert.Equal(t, whole["summary"], page["summary"])
		cols = append(cols, flat(page)...)
		hints = append(hints, page["merge_hints"].([]any)...)
		if page["has_more"] == false {
			break
		}
		offset = page["next_offset"].(float64)
	}
	assert.Greater(t, pages, 1, "the limit makes several pages")
	assert.Equal(t, flat(whole), cols)
	assert.Equal(t, whole["merge_hints"], hints)
	assert.Equal(t, whole["shared_columns_total"], float64(len(cols)))
}
