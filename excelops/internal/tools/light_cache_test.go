package tools

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/lightcache"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sharedstrings"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// resetLight gives svc an empty light cache of the same budget (tests and
// benchmarks only; no call may be running).
func resetLight(svc *Service) {
	svc.engine.Light = lightcache.New(svc.engine.CacheBudget / engine.LightBudgetShare)
}

// datedBook writes a workbook whose sheets are named sheets, with the date
// serial 45322 (2024-01-31) in A1 of the first, date-styled when dated, and
// text (a shared string) in B1.
func datedBook(t testing.TB, path string, dated bool, text string, sheets ...string) {
	t.Helper()
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	require.NoError(t, f.SetSheetName("Sheet1", sheets[0]))
	for _, s := range sheets[1:] {
		_, err := f.NewSheet(s)
		require.NoError(t, err)
	}
	require.NoError(t, f.SetCellValue(sheets[0], "A1", 45322))
	require.NoError(t, f.SetCellValue(sheets[0], "B1", text))
	if dated {
		st, err := f.NewStyle(&excelize.Style{NumFmt: 14})
		require.NoError(t, err)
		require.NoError(t, f.SetCellStyle(sheets[0], "A1", "A1", st))
	}
	require.NoError(t, f.SaveAs(path))
}

// lightEntryOf returns the light cache's entry for the file at path, or nil.
func lightEntryOf(t *testing.T, svc *Service, path string) *lightcache.Entry {
	t.Helper()
	id, ok := svc.engine.Box.StatID(path)
	require.True(t, ok)
	return svc.engine.Light.Get(id)
}

// TestLightCacheServesAnUnchangedFile shows a second read of an unchanged
// workbook takes its sheet index, date styles and shared strings from the
// cache: the entry is there after the first read, and doctoring it changes
// what the next read says.
func TestLightCacheServesAnUnchangedFile(t *testing.T) {
	e := newEnv(t)
	datedBook(t, e.path("d.xlsx"), true, "first", "Data", "More")
	read := map[string]any{"file_path": "d.xlsx", "range": "A1:B1"}
	first := e.call("read_excel", read)
	require.False(t, first.IsError, first.Text)
	assert.Contains(t, first.Text, `"values": [["2024-01-31T00:00:00", "first"]]`)

	entry := lightEntryOf(t, e.svc, e.path("d.xlsx"))
	require.NotNil(t, entry, "the first read leaves an entry")
	require.NotNil(t, entry.Index)
	require.NotNil(t, entry.Dates, "the first read that met a styled number leaves its date styles")
	require.Equal(t, []string{"first"}, entry.Strings, "the first read that met a shared string leaves the table")
	again := e.call("read_excel", read)
	assert.Equal(t, first.Text, again.Text)
	files, bytes := e.svc.ReadCacheStats()
	assert.Equal(t, 1, files)
	assert.Equal(t, int64(len("first")+sharedstrings.StringHeaderBytes), bytes)

	// The cache is what the next read uses: with no date style remembered,
	// the serial comes back as a number, and with another string table,
	// the text is that table's.
	id, _ := e.svc.engine.Box.StatID(e.path("d.xlsx"))
	doctored := lightcache.New(e.svc.engine.CacheBudget / engine.LightBudgetShare)
	doctored.PutIndex(e.path("d.xlsx"), id, entry.Index)
	doctored.PutDates(id, &dates.Styles{})
	doctored.PutStrings(id, []string{"doctored"}, 100)
	e.svc.engine.Light = doctored
	res := e.call("read_excel", read)
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, `"values": [[45322, "doctored"]]`)
}

// TestLightCacheWithoutAWorkbookCache: with the workbook cache off
// (WithCacheBudget(0)) reads remember no shared strings, and read the same.
func TestLightCacheWithoutAWorkbookCache(t *testing.T) {
	e := newEnv(t, WithCacheBudget(0))
	datedBook(t, e.path("d.xlsx"), true, "first", "Data", "More")
	read := map[string]any{"file_path": "d.xlsx", "range": "A1:B1"}
	for range 2 {
		res := e.call("read_excel", read)
		require.False(t, res.IsError, res.Text)
		assert.Contains(t, res.Text, `"values": [["2024-01-31T00:00:00", "first"]]`)
	}
	entry := lightEntryOf(t, e.svc, e.path("d.xlsx"))
	require.NotNil(t, entry)
	assert.Nil(t, entry.Strings)
	_, held := e.svc.engine.Light.Stats()
	assert.Zero(t, held)
}

// TestLightCacheMissesAChangedFile changes the workbook every way it can
// change under a reader and requires the next read to see the new sheets
// and the new date styles, never the remembered ones.
func TestLightCacheMissesAChangedFile(t *testing.T) {
	cases := []struct {
		name   string
		change func(t *testing.T, e *env, path string)
	}{
		{"edited by a tool", func(t *testing.T, e *env, path string) {
			e.ok("rename_sheet", map[string]any{"file_path": "d.xlsx", "old_name": "Data", "new_name": "Renamed"})
			e.ok("format_cells", map[string]any{"file_path": "d.xlsx", "sheet_name": "Renamed", "cell_range": "A1", "number_format": "0.00"})
			e.ok("write_cells", map[string]any{"file_path": "d.xlsx", "sheet_name": "Renamed", "cell": "B1", "value": "second"})
		}},
		{"another file renamed over it", func(t *testing.T, e *env, path string) {
			other := filepath.Join(t.TempDir(), "other.xlsx")
			datedBook(t, other, false, "second", "Renamed", "More")
			require.NoError(t, os.Rename(other, path))
		}},
		{"rewritten in place", func(t *testing.T, e *env, path string) {
			other := filepath.Join(t.TempDir(), "other.xlsx")
			datedBook(t, other, false, "second", "Renamed", "More")
			data, err := os.ReadFile(other)
			require.NoError(t, err)
			fh, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
			require.NoError(t, err)
			_, err = fh.Write(data)
			require.NoError(t, err)
			require.NoError(t, fh.Close())
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			path := e.path("d.xlsx")
			datedBook(t, path, true, "first", "Data", "More")
			before := e.ok("list_sheets", map[string]any{"file_path": "d.xlsx"})
			assert.Equal(t, "Data", before["active_sheet"])
			res := e.call("read_excel", map[string]any{"file_path": "d.xlsx", "range": "A1:B1"})
			assert.Contains(t, res.Text, `"values": [["2024-01-31T00:00:00", "first"]]`)
			require.NotNil(t, lightEntryOf(t, e.svc, path).Strings)

			tc.change(t, e, path)

			after := e.ok("list_sheets", map[string]any{"file_path": "d.xlsx"})
			assert.Equal(t, "Renamed", after["active_sheet"])
			res = e.call("read_excel", map[string]any{"file_path": "d.xlsx", "sheet_name": "Renamed", "range": "A1:B1"})
			require.False(t, res.IsError, res.Text)
			assert.Contains(t, res.Text, `"values": [[45322, "second"]]`)
		})
	}
}

// TestLightCacheHoldsOneVersionPerPath edits and reads a workbook again and
// again: each read remembers the new version and forgets the one before,
// so the cache holds one entry and the strings of the newest version only
// (the splice path writes new text inline, so each version's table is the
// original one).
func TestLightCacheHoldsOneVersionPerPath(t *testing.T) {
	e := newEnv(t)
	datedBook(t, e.path("d.xlsx"), true, "first", "Data", "More")
	e.ok("read_excel", map[string]any{"file_path": "d.xlsx", "range": "B1:B1"})
	_, one := e.svc.ReadCacheStats()
	require.Equal(t, int64(len("first")+sharedstrings.StringHeaderBytes), one)
	for i := range 5 {
		text := fmt.Sprintf("version %d", i)
		e.ok("write_cells", map[string]any{"file_path": "d.xlsx", "cell": "B1", "value": text})
		res := e.call("read_excel", map[string]any{"file_path": "d.xlsx", "range": "B1:B1"})
		require.False(t, res.IsError, res.Text)
		assert.Contains(t, res.Text, `"values": [["`+text+`"]]`)
		files, bytes := e.svc.ReadCacheStats()
		assert.Equal(t, 1, files, "after version %d", i)
		assert.Equal(t, one, bytes, "after version %d", i)
	}
	require.NotNil(t, lightEntryOf(t, e.svc, e.path("d.xlsx")), "the entry is the newest version's")
}

// TestLightCacheUnderConcurrentReads reads one workbook from many
// goroutines, first with an empty cache, and requires every answer to be
// the one a lone read gives (run with -race).
func TestLightCacheUnderConcurrentReads(t *testing.T) {
	e := newEnv(t)
	datedBook(t, e.path("d.xlsx"), true, "first", "Data", "More")
	read := map[string]any{"file_path": "d.xlsx", "range": "A1:B2"}
	want := e.call("read_excel", read).Text
	resetLight(e.svc)
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for g := range got {
		wg.Go(func() {
			for range 10 {
				got[g] = append(got[g], e.call("read_excel", read).Text)
			}
		})
	}
	wg.Wait()
	for g := range got {
		for i, text := range got[g] {
			assert.Equal(t, want, text, "goroutine %d, read %d", g, i)
		}
	}
}

// BenchmarkReadSharedStrings reads 5 rows of a 5,000-row workbook whose
// text is 15,000 shared strings, as Excel saves text, with the light cache
// and with it emptied before every read. Compare the two in one run.
func BenchmarkReadSharedStrings(b *testing.B) {
	dir := b.TempDir()
	f := excelize.NewFile()
	for r := 1; r <= 5000; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		row := []any{fmt.Sprintf("customer %d", r), fmt.Sprintf("city %d", r), fmt.Sprintf("note %d", r), r}
		require.NoError(b, f.SetSheetRow("Sheet1", cell, &row))
	}
	require.NoError(b, f.SaveAs(filepath.Join(dir, "strings.xlsx")))
	require.NoError(b, f.Close())
	benchReads(b, dir, []byte(`{"file_path": "strings.xlsx", "range": "A1:D5"}`))
}

// benchReads runs read_excel with args over the workbooks in dir, with the
// light cache ("cached") and with it emptied before every read
// ("uncached").
func benchReads(b *testing.B, dir string, args []byte) {
	svc, err := New(dir)
	require.NoError(b, err)
	b.Cleanup(func() { _ = svc.Close() })
	reg := registry.New()
	require.NoError(b, svc.Register(reg))
	for _, cached := range []bool{true, false} {
		b.Run(map[bool]string{true: "cached", false: "uncached"}[cached], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !cached {
					resetLight(svc)
				}
				res := reg.CallTool(context.Background(), "read_excel", args)
				require.False(b, res.IsError, res.Text)
			}
		})
	}
}

// BenchmarkReadSmallRange reads 5 rows of a 21-row workbook through the
// registry, with the light cache ("cached", an agent reading a workbook
// again) and with it emptied before every read ("uncached", a first read).
// Compare the two in one run.
func BenchmarkReadSmallRange(b *testing.B) {
	dir := b.TempDir()
	f := excelize.NewFile()
	for r := 1; r <= 21; r++ {
		cell, _ := excelize.CoordinatesToCellName(1, r)
		require.NoError(b, f.SetSheetRow("Sheet1", cell, &[]any{fmt.Sprintf("item %d", r), r}))
	}
	require.NoError(b, f.SaveAs(filepath.Join(dir, "small.xlsx")))
	require.NoError(b, f.Close())
	benchReads(b, dir, []byte(`{"file_path": "small.xlsx", "range": "A1:B5"}`))
}
