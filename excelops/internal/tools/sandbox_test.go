package tools

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// snapshot records every file under dir with its bytes.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			out[p] = string(b)
		}
		return nil
	}))
	return out
}

func TestSandboxRefusesHostilePaths(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	e := newEnvAt(t, root)
	// A real workbook outside the root that every hostile path aims at.
	require.NoError(t, os.WriteFile(filepath.Join(outside, "secret.xlsx"), []byte("outside bytes"), 0o644))
	e.workbook("inside.xlsx", [][]any{{"a"}})
	must := func(err error) { require.NoError(t, err) }
	must(os.Symlink(filepath.Join(outside, "secret.xlsx"), filepath.Join(root, "link_out.xlsx")))
	must(os.Symlink(outside, filepath.Join(root, "dir_out")))
	must(os.Symlink(filepath.Join(root, "loop_b.xlsx"), filepath.Join(root, "loop_a.xlsx")))
	must(os.Symlink(filepath.Join(root, "loop_a.xlsx"), filepath.Join(root, "loop_b.xlsx")))
	must(os.Symlink(filepath.Join(root, "missing.xlsx"), filepath.Join(root, "dangling.xlsx")))
	must(os.Symlink(filepath.Join(outside, "new.xlsx"), filepath.Join(root, "dangling_out.xlsx")))
	must(os.Symlink("dirloop", filepath.Join(root, "dirloop")))
	before := snapshot(t, outside)

	long := strings.Repeat("a", 300) + ".xlsx"
	cases := []struct{ name, path string }{
		{"dotdot", "../outside/secret.xlsx"},
		{"dotdot deep", "sub/../../outside/secret.xlsx"},
		{"dotdot only", ".."},
		{"dotdot trailing", "sub/.."},
		{"encoded dots", "%2e%2e/outside/secret.xlsx"},
		{"encoded dots upper", "%2E%2E/outside/secret.xlsx"},
		{"encoded slash", "..%2Foutside%2Fsecret.xlsx"},
		{"encoded slash lower", "..%2foutside/secret.xlsx"},
		{"mixed encoding", ".%2e/outside/secret.xlsx"},
		{"double encoded", "%252e%252e/outside/secret.xlsx"},
		{"double encoded slash", "..%252Foutside%252Fsecret.xlsx"},
		{"triple encoded", "%25252e%25252e/outside/secret.xlsx"},
		{"encoded backslash", "..%5Coutside%5Csecret.xlsx"},
		{"full-width dots", "．．/outside/secret.xlsx"},
		{"full-width slash", "..／outside／secret.xlsx"},
		{"one dot leader", "\u2024\u2024/outside/secret.xlsx"},
		{"full-width solidus only", "sub／x.xlsx"},
		{"backslash dotdot", `..\outside\secret.xlsx`},
		{"backslash plain", `sub\x.xlsx`},
		{"absolute outside", filepath.Join(outside, "secret.xlsx")},
		{"absolute etc", "/etc/passwd.xlsx"},
		{"absolute root prefix trick", root + "_evil/x.xlsx"},
		{"symlink out", "link_out.xlsx"},
		{"symlinked dir out", "dir_out/secret.xlsx"},
		{"symlinked dir out new file", "dir_out/new.xlsx"},
		{"symlink loop", "loop_a.xlsx"},
		{"dangling link", "dangling.xlsx"},
		{"dangling link out", "dangling_out.xlsx"},
		{"dir loop", "dirloop/x.xlsx"},
		{"nul byte", "inside.xlsx\x00.txt"},
		{"nul byte end", "x\x00"},
		{"over-long name", long},
		{"over-long path", strings.Repeat("d/", 2100) + "x.xlsx"},
		{"workspace root itself", root},
	}
	require.GreaterOrEqual(t, len(cases), 30)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := e.svc.engine.Box.Resolve(c.path)
			require.Error(t, err)
			// Every hostile path is a sandbox refusal, never a softer
			// "not found" that would hide a lookup outside the root.
			assert.ErrorIs(t, err, failure.KindOutsideWorkspace)
			assert.ErrorIs(t, err, fs.ErrPermission)
			// Through the tools: writing must be refused with a clear payload.
			for _, tool := range []string{"write_cells", "read_excel"} {
				args := map[string]any{"file_path": c.path}
				if tool == "write_cells" {
					args["cell"], args["value"] = "A1", "pwned"
				}
				p := e.fail(tool, args)
				assert.Equal(t, "PermissionError", p["exception"], p)
				assert.Contains(t, p["message"], "access denied", p)
			}
		})
	}
	assert.Equal(t, before, snapshot(t, outside), "nothing outside the root may change")
	_, err := os.Lstat(filepath.Join(outside, "new.xlsx"))
	assert.True(t, errors.Is(err, fs.ErrNotExist), "no file may be created outside the root")
}

func TestSandboxRefusalIsPermissionError(t *testing.T) {
	e := newEnv(t)
	for _, p := range []string{"../x.xlsx", "%2e%2e/x.xlsx", "/etc/x.xlsx"} {
		t.Run(p, func(t *testing.T) {
			got := e.fail("read_excel", map[string]any{"file_path": p})
			assert.Equal(t, "PermissionError", got["exception"])
			assert.Contains(t, got["message"], "access denied")
		})
	}
}

func TestSandboxAllowsInsidePaths(t *testing.T) {
	e := newEnv(t)
	require.NoError(t, os.MkdirAll(e.path("sub/deeper"), 0o755))
	e.workbook("sub/deeper/a.xlsx", [][]any{{"ok"}})
	require.NoError(t, os.Symlink(e.path("sub/deeper/a.xlsx"), e.path("alias.xlsx")))
	cases := []struct{ name, path, want string }{
		{"relative", "sub/deeper/a.xlsx", e.path("sub/deeper/a.xlsx")},
		{"dot segments", "./sub/./deeper/a.xlsx", e.path("sub/deeper/a.xlsx")},
		{"absolute inside", e.path("sub/deeper/a.xlsx"), e.path("sub/deeper/a.xlsx")},
		{"link inside", "alias.xlsx", e.path("sub/deeper/a.xlsx")},
		{"new file", "sub/new.xlsx", e.path("sub/new.xlsx")},
		{"percent that is not a dot", "100%25 report.xlsx", e.path("100%25 report.xlsx")},
		{"non-ASCII name", "报表.xlsx", e.path("报表.xlsx")},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := e.svc.engine.Box.Resolve(c.path)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}
