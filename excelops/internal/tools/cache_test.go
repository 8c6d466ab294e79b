package tools

import (
	"archive/zip"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/pathlock"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// cached returns the book the cache holds for a workspace file, or nil.
func (e *env) cached(name string) *engine.Book {
	e.t.Helper()
	c := e.svc.engine.Cache
	require.True(e.t, c.Enabled(), "cache enabled")
	b, _ := c.Peek(e.path(name))
	return b
}

// cachedNames lists the workspace files the cache holds, most recent first.
func (e *env) cachedNames() []string {
	e.t.Helper()
	var out []string
	for _, b := range e.svc.engine.Cache.Held() {
		out = append(out, b.Name())
	}
	return out
}

func TestCacheTenthEditDoesNotReparse(t *testing.T) {
	e := newEnv(t, withoutSplice())
	// Blank rows 3-4 and 7: excelize trims them when writing, which must
	// not disturb the workbook kept parsed in memory.
	orig := [][]any{{"h1", "h2"}, {1, 2}, {}, {}, {5, 6}, {7, 8}, {}, {9, 10}}
	e.workbook("book.xlsx", orig)
	held := map[[2]int]string{} // {row, col} -> text, what the file must hold
	for r, row := range orig {
		for c, v := range row {
			held[[2]int{r + 1, c + 1}] = fmt.Sprint(v)
		}
	}
	for i := 1; i <= 10; i++ {
		col, row := 3+i%3, 2+i
		cell, value := grid.CellName(col, row), fmt.Sprintf("edit%d", i)
		held[[2]int{row, col}] = value
		e.ok("write_cells", map[string]any{"file_path": "book.xlsx", "cell": cell, "value": value})
		// A streaming read after a cached write sees the saved file.
		got := e.ok("read_excel", map[string]any{"file_path": "book.xlsx", "range": cell})
		assert.Equal(t, []any{[]any{value}}, got["values"], "read after edit %d", i)
	}
	assert.Equal(t, int64(1), e.svc.engine.Opens.Load(), "one parse for ten edits")
	require.NotNil(t, e.cached("book.xlsx"))

	f := e.open("book.xlsx")
	rows, err := f.GetRows("Sheet1")
	require.NoError(t, err)
	maxRow, maxCol := 0, 0
	for k := range held {
		maxRow, maxCol = max(maxRow, k[0]), max(maxCol, k[1])
	}
	want := make([][]string, maxRow)
	for r := range want {
		for c := 1; c <= maxCol; c++ {
			if v, ok := held[[2]int{r + 1, c}]; ok {
				for len(want[r]) < c-1 {
					want[r] = append(want[r], "")
				}
				want[r] = append(want[r], v)
			}
		}
	}
	assert.Equal(t, want, rows)
	dim, err := f.GetSheetDimension("Sheet1")
	require.NoError(t, err)
	assert.Equal(t, "A1:"+grid.CellName(maxCol, maxRow), dim)
}

// storedZip rewrites an xlsx package with every part stored uncompressed
// and fixed timestamps, so two packages whose parts have the same lengths
// have the same size.
func storedZip(t *testing.T, pkg []byte) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(pkg), int64(len(pkg)))
	require.NoError(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		rc, err := f.Open()
		require.NoError(t, err)
		w, err := zw.CreateHeader(&zip.FileHeader{Name: f.Name, Method: zip.Store, Modified: time.Unix(1e9, 0)})
		require.NoError(t, err)
		_, err = io.Copy(w, rc)
		require.NoError(t, err)
		require.NoError(t, rc.Close())
	}
	require.NoError(t, zw.Close())
	return out.Bytes()
}

// workbookBytes returns a one-sheet package with B2 = marker.
func workbookBytes(t *testing.T, marker string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "head"))
	require.NoError(t, f.SetCellValue("Sheet1", "B2", marker))
	buf, err := f.WriteToBuffer()
	require.NoError(t, err)
	return storedZip(t, buf.Bytes())
}

func TestCacheReparsesFileChangedOnDisk(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, path string, next []byte)
	}{
		{"rewritten in place, same size and mtime", func(t *testing.T, path string, next []byte) {
			st, err := os.Stat(path)
			require.NoError(t, err)
			// Let the clock pass the file system's timestamp granularity,
			// so the rewrite gets a new ctime (the only thing it changes).
			time.Sleep(20 * time.Millisecond)
			require.NoError(t, os.WriteFile(path, next, 0o644))
			require.NoError(t, os.Chtimes(path, st.ModTime(), st.ModTime()))
			st2, err := os.Stat(path)
			require.NoError(t, err)
			require.Equal(t, st.Size(), st2.Size(), "the change keeps the size")
			require.Equal(t, st.ModTime(), st2.ModTime(), "the change keeps the mtime")
		}},
		{"rewritten in place, mtime touched", func(t *testing.T, path string, next []byte) {
			require.NoError(t, os.WriteFile(path, next, 0o644))
			later := time.Now().Add(time.Hour)
			require.NoError(t, os.Chtimes(path, later, later))
		}},
		{"replaced by rename (new inode)", func(t *testing.T, path string, next []byte) {
			require.NoError(t, os.WriteFile(path+".new", next, 0o644))
			require.NoError(t, os.Rename(path+".new", path))
		}},
		{"rewritten by excelize, other size", func(t *testing.T, path string, _ []byte) {
			f := excelize.NewFile()
			defer f.Close()
			require.NoError(t, f.SetCellValue("Sheet1", "A1", "head"))
			require.NoError(t, f.SetCellValue("Sheet1", "B2", "other program wrote this"))
			require.NoError(t, f.SaveAs(path))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, withoutSplice())
			path := e.path("a.xlsx")
			require.NoError(t, os.WriteFile(path, workbookBytes(t, "old1"), 0o644))
			// A full read parses and caches the file as it is on disk
			// (no tool reads that way today; the edits share its path).
			_, err := e.parsedRead("a.xlsx", func(*engine.Book) (any, error) { return nil, nil })
			require.NoError(t, err)
			require.NotNil(t, e.cached("a.xlsx"))
			require.Equal(t, int64(1), e.svc.engine.Opens.Load())

			c.change(t, path, workbookBytes(t, "new2"))
			want := e.value("a.xlsx", "Sheet1", "B2")
			require.NotEqual(t, "old1", want)

			e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "C3", "value": "ours"})
			assert.Equal(t, int64(2), e.svc.engine.Opens.Load(), "the changed file is parsed again")
			assert.Equal(t, want, e.value("a.xlsx", "Sheet1", "B2"), "the other program's change survives")
			assert.Equal(t, "ours", e.value("a.xlsx", "Sheet1", "C3"))
		})
	}
}

func TestCacheDropsWorkbookOfFailedMutation(t *testing.T) {
	cases := []struct {
		name string
		run  func(e *env) // a mutation of a.xlsx that fails after changing the workbook in memory
	}{
		{"valid data bar then invalid rule", func(e *env) {
			e.fail("add_conditional_rule", map[string]any{"file_path": "a.xlsx", "rules": []any{
				map[string]any{"cell_range": "A1:A5", "rule_type": "data_bar"},
				map[string]any{"cell_range": "A1:A5", "rule_type": "cell_is", "operator": "between", "values": []any{1}},
			}})
		}},
		{"save fails midway", func(e *env) {
			e.svc.engine.WrapSave = func(w io.Writer) io.Writer { return &failingWriter{w: w, budget: 100, err: errors.New("disk full")} }
			defer func() { e.svc.engine.WrapSave = nil }()
			e.fail("add_conditional_rule", map[string]any{"file_path": "a.xlsx", "cell_range": "A1:A5", "rule_type": "data_bar"})
		}},
		{"cancelled during the save", func(e *env) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			e.svc.engine.WrapSave = func(w io.Writer) io.Writer { cancel(); return w }
			defer func() { e.svc.engine.WrapSave = nil }()
			res := e.reg.CallTool(ctx, "add_conditional_rule",
				[]byte(`{"file_path": "a.xlsx", "cell_range": "A1:A5", "rule_type": "data_bar"}`))
			require.True(e.t, res.IsError, res.Text)
			// The registry answers as soon as the context ends; the tool
			// still holds the file's lock until it has cleaned up.
			unlock, err := e.svc.engine.Locks.LockAll(context.Background(), e.svc.engine.Box, pathlock.Spec{Path: e.path("a.xlsx"), Write: true})
			require.NoError(e.t, err)
			unlock()
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, withoutSplice())
			e.workbook("a.xlsx", [][]any{{1}, {2}, {3}, {4}, {5}})
			e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "B1", "value": "cached"})
			require.NotNil(t, e.cached("a.xlsx"))
			orig, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)

			c.run(e)
			assert.Nil(t, e.cached("a.xlsx"), "the possibly half-mutated workbook is dropped")
			got, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(orig, got), "the file on disk is unchanged")
			assert.Empty(t, tempFiles(t, e.dir))

			// The next call parses the file again: the rule never appears.
			e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "B2", "value": "after"})
			assert.Equal(t, int64(2), e.svc.engine.Opens.Load())
			cf, err := e.open("a.xlsx").GetConditionalFormats("Sheet1")
			require.NoError(t, err)
			assert.Empty(t, cf)
			assert.Equal(t, "cached", e.value("a.xlsx", "Sheet1", "B1"))
		})
	}
}

func TestCacheBudgetEvictsLeastRecentlyUsed(t *testing.T) {
	// Measure what one of the test workbooks costs in the cache.
	probe := newEnv(t, withoutSplice())
	probe.workbook("p.xlsx", [][]any{{1, 2}, {3, 4}})
	probe.ok("write_cells", map[string]any{"file_path": "p.xlsx", "cell": "C1", "value": 1})
	_, one := probe.svc.engine.Cache.Stats()
	require.Positive(t, one)

	spill := t.TempDir()
	// Room for two books; every part spills to a private temp folder, so
	// closing a book is visible as its folder disappearing.
	e := newEnv(t, withoutSplice(), WithCacheBudget(one*5/2), WithTempDir(spill), WithLimits(limits.Limits{UnzipXMLSizeLimit: 1}))
	for _, n := range []string{"a.xlsx", "b.xlsx", "c.xlsx"} {
		e.workbook(n, [][]any{{1, 2}, {3, 4}})
	}
	spillDirs := func() int {
		ents, err := os.ReadDir(spill)
		require.NoError(t, err)
		return len(ents)
	}
	steps := []struct {
		file string
		want []string // cache content afterwards, most recent first
	}{
		{"a.xlsx", []string{"a.xlsx"}},
		{"b.xlsx", []string{"b.xlsx", "a.xlsx"}},
		{"a.xlsx", []string{"a.xlsx", "b.xlsx"}},
		{"c.xlsx", []string{"c.xlsx", "a.xlsx"}}, // b is least recently used
		{"b.xlsx", []string{"b.xlsx", "c.xlsx"}},
	}
	for i, s := range steps {
		e.ok("write_cells", map[string]any{"file_path": s.file, "cell": "C1", "value": i})
		assert.Equal(t, s.want, e.cachedNames(), "after step %d", i)
		assert.Equal(t, len(s.want), spillDirs(), "evicted books are closed (step %d)", i)
		_, used := e.svc.engine.Cache.Stats()
		assert.LessOrEqual(t, used, one*5/2)
	}
	for i, n := range []string{"a.xlsx", "c.xlsx", "b.xlsx"} {
		assert.Equal(t, fmt.Sprint([]int{2, 3, 4}[i]), e.value(n, "Sheet1", "C1"), n)
	}

	require.NoError(t, e.svc.Close())
	assert.Empty(t, e.cachedNames())
	assert.Zero(t, spillDirs(), "Close closes every cached book")
	// Still usable after Close, without caching.
	e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "D1", "value": "late"})
	assert.Empty(t, e.cachedNames())
	assert.Zero(t, spillDirs())
}

func TestCacheDisabled(t *testing.T) {
	e := newEnv(t, withoutSplice(), WithCacheBudget(0))
	e.workbook("a.xlsx", [][]any{{1}})
	for i := 0; i < 3; i++ {
		e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "B1", "value": i})
	}
	assert.False(t, e.svc.engine.Cache.Enabled())
	assert.Equal(t, int64(3), e.svc.engine.Opens.Load(), "every call parses")
	assert.Equal(t, "2", e.value("a.xlsx", "Sheet1", "B1"))
	assert.NoError(t, e.svc.Close())
}
