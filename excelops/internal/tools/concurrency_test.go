package tools

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestConcurrentWritersLoseNoWrite: 16 goroutines write disjoint cells of
// one file through CallTool, on the splice path and on the excelize path
// with the workbook cache on and off; every write is in the saved file.
func TestConcurrentWritersLoseNoWrite(t *testing.T) {
	cases := []struct {
		name string
		opts []Option
	}{
		{"splice", nil},
		{"excelize, cache on", []Option{withoutSplice(), WithCacheBudget(engine.DefaultCacheBudget)}},
		{"excelize, cache off", []Option{withoutSplice(), WithCacheBudget(0)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, c.opts...)
			e.workbook("shared.xlsx", [][]any{{"header"}})
			const writers, perWriter = 16, 4
			var wg sync.WaitGroup
			for w := 0; w < writers; w++ {
				wg.Add(1)
				go func(w int) {
					defer wg.Done()
					for i := 0; i < perWriter; i++ {
						cell := grid.CellName(w+1, i+2)
						res := e.reg.CallTool(context.Background(), "write_cells",
							[]byte(fmt.Sprintf(`{"file_path": "shared.xlsx", "cell": %q, "value": "w%d-%d"}`, cell, w, i)))
						assert.False(t, res.IsError, res.Text)
					}
				}(w)
			}
			wg.Wait()
			f := e.open("shared.xlsx")
			for w := 0; w < writers; w++ {
				for i := 0; i < perWriter; i++ {
					v, err := f.GetCellValue("Sheet1", grid.CellName(w+1, i+2))
					require.NoError(t, err)
					assert.Equal(t, fmt.Sprintf("w%d-%d", w, i), v)
				}
			}
			assert.Equal(t, 0, e.svc.engine.Locks.Count(), "every path lock is released")
			assert.Empty(t, tempFiles(t, e.dir))
		})
	}
}

func TestConcurrentIconSetsOnDifferentWorkbooks(t *testing.T) {
	e := newEnv(t)
	styles := []string{"3Arrows", "3TrafficLights1", "5Rating", "4Arrows", "3Stars", "5Boxes"}
	const books = 12
	for i := 0; i < books; i++ {
		e.workbook(fmt.Sprintf("b%d.xlsx", i), [][]any{{1}, {2}, {3}, {4}, {5}})
	}
	var wg sync.WaitGroup
	for i := 0; i < books; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 2; j++ {
				style := styles[(i+j)%len(styles)]
				res := e.reg.CallTool(context.Background(), "add_conditional_rule", []byte(fmt.Sprintf(
					`{"file_path": "b%d.xlsx", "cell_range": "A1:A5", "rule_type": "icon_set", "icon_style": %q}`, i, style)))
				assert.False(t, res.IsError, res.Text)
			}
		}(i)
	}
	wg.Wait()
	// Each workbook holds exactly its own two icon sets.
	for i := 0; i < books; i++ {
		f := e.open(fmt.Sprintf("b%d.xlsx", i))
		cf, err := f.GetConditionalFormats("Sheet1")
		require.NoError(t, err)
		var got []string
		for _, opts := range cf {
			for _, o := range opts {
				got = append(got, o.IconStyle)
			}
		}
		assert.ElementsMatch(t, []string{styles[i%len(styles)], styles[(i+1)%len(styles)]}, got, "book %d", i)
	}
}

// openFDs counts this process's open file descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	require.NoError(t, err)
	return len(ents)
}

func TestManyFailingCallsLeakNothing(t *testing.T) {
	tmp := t.TempDir()
	e := newEnv(t, withoutSplice(), WithTempDir(tmp))
	e.workbook("ok.xlsx", [][]any{{1, 2}, {3, 4}})
	require.NoError(t, os.WriteFile(e.path("broken.xlsx"), []byte("PK\x03\x04 not really a zip"), 0o644))
	calls := []struct{ tool, args string }{
		{"read_excel", `{"file_path": "../escape.xlsx"}`},
		{"read_excel", `{"file_path": "missing.xlsx"}`},
		{"read_excel", `{"file_path": "broken.xlsx"}`},
		{"read_excel", `{"file_path": "ok.xlsx", "sheet_name": "NoSuchSheet"}`},
		{"write_cells", `{"file_path": "ok.xlsx", "cell": "NOT_A_CELL", "value": 1}`},
		{"write_cells", `{"file_path": "ok.xlsx", "sheet_name": "Nope", "cell": "A1", "value": 1}`},
		{"add_conditional_rule", `{"file_path": "ok.xlsx", "cell_range": "A1:A2", "rule_type": "icon_set", "icon_style": "bad"}`},
		{"delete_sheet", `{"file_path": "ok.xlsx", "sheet_name": "Sheet1", "confirm": true}`},
	}
	// The workbook starts in the cache: failing calls must drop it, never
	// grow the cache nor keep descriptors.
	e.ok("write_cells", map[string]any{"file_path": "ok.xlsx", "cell": "C1", "value": "cached"})
	require.NotNil(t, e.cached("ok.xlsx"))
	// Warm up so lazily opened descriptors (e.g. /dev/urandom) are counted.
	for _, c := range calls {
		e.reg.CallTool(context.Background(), c.tool, []byte(c.args))
	}
	orig, err := os.ReadFile(e.path("ok.xlsx"))
	require.NoError(t, err)
	before := openFDs(t)
	// 2,400 failing calls from 4 goroutines, each failure path 200 times or
	// more: one descriptor, temporary or cache entry kept per call would show
	// as hundreds; the cheap refusals (sandbox, missing file) are most of
	// them, every failure path is in the mix.
	mix := []int{0, 1, 0, 1, 0, 1, 2, 3, 4, 5, 6, 7}
	const n, workers = 2400, 4
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			for i := w; i < n; i += workers {
				c := calls[mix[i%len(mix)]]
				res := e.reg.CallTool(context.Background(), c.tool, []byte(c.args))
				assert.True(t, res.IsError, "%s %s: %s", c.tool, c.args, res.Text)
			}
		}(w)
	}
	wg.Wait()
	after := openFDs(t)
	cachedBooks, _ := e.svc.engine.Cache.Stats()
	assert.Zero(t, cachedBooks, "failed calls drop the cached workbook and add none")
	assert.LessOrEqual(t, after, before, "open descriptors grew from %d to %d", before, after)
	assert.Empty(t, tempFiles(t, e.dir), "no save temporaries left")
	left, err := os.ReadDir(tmp)
	require.NoError(t, err)
	assert.Empty(t, left, "no private temp folders left")
	got, err := os.ReadFile(e.path("ok.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, orig, got, "failed calls never touch the file")
	ents, err := os.ReadDir(e.dir)
	require.NoError(t, err)
	var names []string
	for _, d := range ents {
		names = append(names, d.Name())
	}
	// Mutations take the cross-process lock file beside the workbook; it
	// is kept (removing it would race with a waiter), empty and hidden.
	assert.Subset(t, []string{"ok.xlsx", "broken.xlsx", ".~ok.xlsx.lock", ".~broken.xlsx.lock"}, names)
	assert.Contains(t, names, "ok.xlsx")
	assert.Contains(t, names, "broken.xlsx")
}

func TestConcurrentCallsOnSeveralFilesWithCacheChurn(t *testing.T) {
	probe := newEnv(t, withoutSplice())
	probe.workbook("p.xlsx", [][]any{{"header"}})
	probe.ok("write_cells", map[string]any{"file_path": "p.xlsx", "cell": "A2", "value": "w0-0"})
	_, one := probe.svc.engine.Cache.Stats()
	// Room for about two of the four workbooks: evictions interleave with
	// checkouts of the others.
	e := newEnv(t, withoutSplice(), WithCacheBudget(one*5/2))
	const files, writers, perWriter = 4, 16, 4
	for f := 0; f < files; f++ {
		e.workbook(fmt.Sprintf("f%d.xlsx", f), [][]any{{"header"}})
	}
	var wg sync.WaitGroup
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			file := fmt.Sprintf("f%d.xlsx", w%files)
			for i := 0; i < perWriter; i++ {
				cell := grid.CellName(w/files+1, i+2)
				res := e.reg.CallTool(context.Background(), "write_cells",
					[]byte(fmt.Sprintf(`{"file_path": %q, "cell": %q, "value": "w%d-%d"}`, file, cell, w, i)))
				assert.False(t, res.IsError, res.Text)
				// A style read and a value read (both streamed) of what was just written.
				res = e.reg.CallTool(context.Background(), "read_cell_styles",
					[]byte(fmt.Sprintf(`{"file_path": %q, "cell_range": %q}`, file, cell)))
				assert.False(t, res.IsError, res.Text)
				res = e.reg.CallTool(context.Background(), "read_excel",
					[]byte(fmt.Sprintf(`{"file_path": %q, "range": %q}`, file, cell)))
				assert.Contains(t, res.Text, fmt.Sprintf("w%d-%d", w, i))
			}
		}(w)
	}
	wg.Wait()
	for w := 0; w < writers; w++ {
		f := e.open(fmt.Sprintf("f%d.xlsx", w%files))
		for i := 0; i < perWriter; i++ {
			v, err := f.GetCellValue("Sheet1", grid.CellName(w/files+1, i+2))
			require.NoError(t, err)
			assert.Equal(t, fmt.Sprintf("w%d-%d", w, i), v)
		}
	}
	_, used := e.svc.engine.Cache.Stats()
	assert.LessOrEqual(t, used, one*5/2)
	assert.Equal(t, 0, e.svc.engine.Locks.Count(), "every path lock is released")
}

// copyDeadline bounds TestOppositeCopiesBetweenFiles: opposite copies that
// deadlocked would never finish.
const copyDeadline = 60 * time.Second

func TestOppositeCopiesBetweenFiles(t *testing.T) {
	e := newEnv(t)
	e.workbook("a.xlsx", [][]any{{"from-a"}})
	e.workbook("b.xlsx", [][]any{{"from-b"}})
	const workers, perWorker = 4, 6 // per direction
	done := make(chan struct{})
	go func() {
		defer close(done)
		var wg sync.WaitGroup
		for w := 0; w < 2*workers; w++ {
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				src, dst := "a.xlsx", "b.xlsx"
				if w%2 == 1 {
					src, dst = dst, src
				}
				for i := 0; i < perWorker; i++ {
					target := grid.CellName(w/2+2, i+1) // unique per direction
					res := e.reg.CallTool(context.Background(), "copy_range_between_sheets", []byte(fmt.Sprintf(
						`{"source_file": %q, "source_sheet": "Sheet1", "source_range": "A1", "target_file": %q, "target_sheet": "Sheet1", "target_start": %q}`,
						src, dst, target)))
					assert.False(t, res.IsError, res.Text)
				}
			}(w)
		}
		wg.Wait()
	}()
	select {
	case <-done:
	case <-time.After(copyDeadline):
		t.Fatal("opposite copies did not finish: deadlock")
	}
	for _, c := range []struct{ file, want string }{{"b.xlsx", "from-a"}, {"a.xlsx", "from-b"}} {
		f := e.open(c.file)
		for w := 0; w < workers; w++ {
			for i := 0; i < perWorker; i++ {
				v, err := f.GetCellValue("Sheet1", grid.CellName(w+2, i+1))
				require.NoError(t, err)
				assert.Equal(t, c.want, v, "%s %s", c.file, grid.CellName(w+2, i+1))
			}
		}
	}
	assert.Equal(t, 0, e.svc.engine.Locks.Count(), "every path lock is released")
}
