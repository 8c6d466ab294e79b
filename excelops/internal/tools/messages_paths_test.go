package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMessagesNameRelativePaths: whatever path an agent passes (missing,
// a folder, a link out, a FIFO, an absolute path inside the workspace, a
// refused name), the answer never shows where the workspace lives on the
// host: paths are named relative to it.
func TestMessagesNameRelativePaths(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	e := newEnv(t)
	e.workbook("ok.xlsx", [][]any{{1}})
	require.NoError(t, os.Mkdir(e.path("sub"), 0o755))
	require.NoError(t, os.Symlink(t.TempDir(), e.path("out")))
	require.NoError(t, os.Symlink("/etc/hostname", e.path("link.xlsx")))
	mkfifo(t, e.path("fifo.xlsx"))
	paths := []string{
		"missing.xlsx", "nope/x.xlsx", "sub", "sub/", "out/x.xlsx", "link.xlsx", "fifo.xlsx", "x.csv",
		e.path("missing.xlsx"), e.path("sub"), e.path("out/x.xlsx"), e.dir + "/../x.xlsx", e.dir, e.path("nope/x.xlsx"),
		e.path("ok.xlsx") + "/x.xlsx",
	}
	for _, p := range paths {
		calls := map[string]map[string]any{
			"read_excel":   {"file_path": p},
			"list_sheets":  {"file_path": p},
			"write_cells":  {"file_path": p, "cell_range": "A1", "value": 1},
			"render_range": {"file_path": "ok.xlsx", "output_path": filepath.Join(p, "x.png")},
			"insert_image": {"file_path": "ok.xlsx", "image_path": p, "cell": "B2"},
		}
		for tool, args := range calls {
			res := e.call(tool, args)
			assert.NotContains(t, res.Text, e.dir, "%s %q shows the workspace's location", tool, p)
		}
		res := e.call("list_workbooks", map[string]any{"folder": p})
		assert.NotContains(t, res.Text, e.dir, "list_workbooks %q shows the workspace's location", p)
	}
}
