package tools

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// copyFixture copies testdata/encrypted/name into the workspace.
func (e *env) copyFixture(name string) string {
	e.t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "encrypted", name))
	require.NoError(e.t, err)
	require.NoError(e.t, os.WriteFile(e.path(name), data, 0o644))
	return name
}

// TestDefaultPasswordWorkbookReads: a workbook encrypted with Excel's
// default password (read-only recommended) opens for every read, streamed
// or parsed, and every write is refused with the file left as it was.
func TestDefaultPasswordWorkbookReads(t *testing.T) {
	skipUnderRace(t)
	e := newEnv(t)
	file := e.copyFixture("default_password.xlsx")
	before, err := os.ReadFile(e.path(file))
	require.NoError(t, err)

	p := e.ok("list_sheets", map[string]any{"file_path": file})
	assert.Equal(t, "Data", p["active_sheet"])
	p = e.ok("read_excel", map[string]any{"file_path": file, "range": "A1:B3"})
	assert.Equal(t, []any{[]any{"name", "amount"}, []any{"apples", float64(3)}, []any{"pears", 4.5}}, p["values"], p)
	p = e.ok("describe_workbook", map[string]any{"file_path": file})
	assert.Equal(t, float64(1), p["sheet_count"])
	e.ok("read_cell_styles", map[string]any{"file_path": file, "cell_range": "A1:B2"})

	writes := []struct {
		tool string
		args map[string]any
	}{
		{"write_cells", map[string]any{"cell": "C1", "value": 1}},                                  // splice path
		{"format_cells", map[string]any{"cell_range": "A1", "font": map[string]any{"bold": true}}}, // excelize path
		{"insert_rows", map[string]any{"row": 2}},
		{"create_sheet", map[string]any{"sheet_name": "New"}},
	}
	for _, w := range writes {
		t.Run(w.tool, func(t *testing.T) {
			args := map[string]any{"file_path": file}
			for k, v := range w.args {
				args[k] = v
			}
			p := e.fail(w.tool, args)
			assert.Equal(t, "PermissionError", p["exception"], p)
			assert.Contains(t, p["message"], "encrypted workbook: default_password.xlsx is encrypted with Excel's default password")
			after, err := os.ReadFile(e.path(file))
			require.NoError(t, err)
			assert.Equal(t, before, after, "the encrypted file is left as it was")
		})
	}
	// Still readable after the refusals (a refused edit leaves no parsed copy).
	p = e.ok("read_excel", map[string]any{"file_path": file, "range": "A2"})
	assert.Equal(t, []any{[]any{"apples"}}, p["values"], p)
}

// TestPasswordWorkbookRefused: a workbook encrypted with a password of its
// own is refused by reads and writes with one message.
func TestPasswordWorkbookRefused(t *testing.T) {
	skipUnderRace(t)
	e := newEnv(t)
	file := e.copyFixture("secret_password.xlsx")
	for _, tool := range []string{"list_sheets", "read_excel", "describe_workbook", "read_cell_styles", "write_cells", "format_cells", "find_replace"} {
		t.Run(tool, func(t *testing.T) {
			p := e.fail(tool, withFile(tool, file, minimalArgs()[tool]))
			assert.Equal(t, "PermissionError", p["exception"], p)
			assert.Equal(t, "encrypted workbook: a password is required", p["message"], p)
		})
	}
	_, err := e.svc.engine.OpenBook(e.path(file), false, true)
	assert.True(t, errors.Is(err, failure.KindEncrypted), "%v", err)
}

// TestLegacyCompoundFileDamaged: an OLE compound file that holds no
// encrypted package (a legacy .xls renamed) is damage, not a password.
func TestLegacyCompoundFileDamaged(t *testing.T) {
	e := newEnv(t)
	data := append(append([]byte{}, engine.CfbMagic...), make([]byte, 4096)...)
	require.NoError(t, os.WriteFile(e.path("old.xlsx"), data, 0o644))
	p := e.fail("list_sheets", map[string]any{"file_path": "old.xlsx"})
	assert.Equal(t, "BadZipFile", p["exception"], p)
	assert.Contains(t, p["message"], "OLE compound file")
}
