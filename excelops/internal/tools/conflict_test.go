package tools

import (
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChangeOnDiskDuringACallIsNeverOverwritten: another program (one that
// ignores the lock file) saves the workbook while a write_cells call is
// saving it. Once, the call is redone on the new version and both changes
// survive; every time, the call fails with a conflict (InterruptedError)
// and the other program's version stays. With the cache on, the next call
// never works from the stale cached copy.
func TestChangeOnDiskDuringACallIsNeverOverwritten(t *testing.T) {
	for _, c := range []struct {
		name     string
		times    int
		wantErr  bool
		wantMine string
	}{
		{"changed once: redone on the new version", 1, false, "mine"},
		{"changed every time: conflict", 1 << 30, true, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("a.xlsx", [][]any{{"start"}})
			e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "B1", "value": "cached"})
			left := c.times
			e.svc.engine.WrapSave = func(w io.Writer) io.Writer {
				if left > 0 {
					left--
					other := e.open("a.xlsx")
					require.NoError(t, other.SetCellValue("Sheet1", "C1", "theirs"))
					require.NoError(t, other.Save())
					require.NoError(t, other.Close())
				}
				return w
			}
			res := e.call("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "D1", "value": "mine"})
			e.svc.engine.WrapSave = nil
			if c.wantErr {
				require.True(t, res.IsError, res.Text)
				assert.Contains(t, res.Text, `"exception": "InterruptedError"`)
				assert.Contains(t, res.Text, "changed on disk")
			} else {
				require.False(t, res.IsError, res.Text)
			}
			f := e.open("a.xlsx")
			defer f.Close()
			for cell, want := range map[string]string{"A1": "start", "B1": "cached", "C1": "theirs", "D1": c.wantMine} {
				v, err := f.GetCellValue("Sheet1", cell)
				require.NoError(t, err)
				assert.Equal(t, want, v, cell)
			}
			// The next call starts from the file on disk, not the cache.
			e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "E1", "value": "next"})
			g := e.open("a.xlsx")
			defer g.Close()
			v, err := g.GetCellValue("Sheet1", "C1")
			require.NoError(t, err)
			assert.Equal(t, "theirs", v)
		})
	}
}
