package tools

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingWriter passes the first budget bytes through, then fails with err.
type failingWriter struct {
	w      io.Writer
	budget int
	err    error
}

func (f *failingWriter) Write(p []byte) (int, error) {
	if f.budget <= 0 {
		return 0, f.err
	}
	if len(p) > f.budget {
		n, _ := f.w.Write(p[:f.budget])
		f.budget = 0
		return n, f.err
	}
	f.budget -= len(p)
	return f.w.Write(p)
}

// tempFiles lists leftover save temporaries in dir.
func tempFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, ".~registry-sidecar-*"))
	require.NoError(t, err)
	return m
}

func TestFailedSaveLeavesOriginalBytes(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name   string
		budget int
		err    error
	}{
		{"writer error at once", 0, errors.New("injected write failure")},
		{"writer error midway", 3000, errors.New("injected write failure")},
		{"disk full midway", 5000, syscall.ENOSPC},
		{"disk full late", 20000, syscall.ENOSPC},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			rows := make([][]any, 3000)
			for i := range rows {
				rows[i] = []any{i, fmt.Sprintf("row %d with some text", i), float64(i) / 7}
			}
			e.workbook("a.xlsx", rows)
			require.NoError(t, os.Chmod(e.path("a.xlsx"), 0o640))
			orig, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)
			e.svc.engine.WrapSave = func(w io.Writer) io.Writer { return &failingWriter{w: w, budget: c.budget, err: c.err} }

			p := e.fail("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A1", "value": "changed"})
			assert.Equal(t, "OSError", p["exception"])
			assert.Contains(t, p["message"], "original file is unchanged")
			got, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(orig, got), "original bytes must be identical")
			assert.Empty(t, tempFiles(t, e.dir))

			e.svc.engine.WrapSave = nil
			e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A1", "value": "changed"})
			assert.Equal(t, "changed", e.value("a.xlsx", "Sheet1", "A1"))
			st, err := os.Stat(e.path("a.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o640), st.Mode().Perm(), "save keeps the original mode")
		})
	}
}

func TestFailedMutationIsNeverSaved(t *testing.T) {
	cases := []struct {
		name string
		tool string
		args map[string]any
	}{
		{"valid data bar then invalid rule", "add_conditional_rule", map[string]any{"rules": []any{
			map[string]any{"cell_range": "A1:A5", "rule_type": "data_bar"},
			map[string]any{"cell_range": "A1:A5", "rule_type": "icon_set", "icon_style": "NoSuchIcons"},
		}}},
		{"valid then bad operator", "add_conditional_rule", map[string]any{"rules": []any{
			map[string]any{"cell_range": "A1:A5", "rule_type": "color_scale"},
			map[string]any{"cell_range": "A1:A5", "rule_type": "cell_is", "operator": "between", "values": []any{1}},
		}}},
		{"block with a bad value late", "write_cells", map[string]any{"cell_range": "A1", "values": []any{[]any{1, 2}, []any{3, map[string]any{"x": 1}}}}},
		{"format with bad colour", "format_cells", map[string]any{"cell_range": "A1:B2", "font": map[string]any{"bold": true}, "fill": map[string]any{"color": "nope"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("a.xlsx", [][]any{{1}, {2}, {3}, {4}, {5}})
			orig, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)
			c.args["file_path"] = "a.xlsx"
			e.fail(c.tool, c.args)
			got, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)
			assert.True(t, bytes.Equal(orig, got))
			assert.Empty(t, tempFiles(t, e.dir))
		})
	}
}

func TestCancelledCallDoesNotSave(t *testing.T) {
	e := newEnv(t)
	e.workbook("a.xlsx", [][]any{{1}})
	orig, err := os.ReadFile(e.path("a.xlsx"))
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := e.reg.CallTool(ctx, "write_cells", []byte(`{"file_path": "a.xlsx", "cell": "A1", "value": 2}`))
	require.True(t, res.IsError)
	got, err := os.ReadFile(e.path("a.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, orig, got)
}

// bigWorkbookRows makes bigWorkbook's file about 2 MB.
const bigWorkbookRows = 21000

// bigWorkbook writes a multi-MB workbook and returns its bytes; marker
// goes into A1 so two versions differ.
func bigWorkbook(t *testing.T, path, marker string) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	sw, err := f.NewStreamWriter("Sheet1")
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(1, 2))
	require.NoError(t, sw.SetRow("A1", []any{marker}))
	for r := 2; r <= bigWorkbookRows; r++ {
		row := make([]any, 8)
		for c := range row {
			row[c] = rng.Float64() * 1e6
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		require.NoError(t, sw.SetRow(cell, row))
	}
	require.NoError(t, sw.Flush())
	require.NoError(t, f.SaveAs(path))
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	return b
}
