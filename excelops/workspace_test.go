package excelops

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
)

// hostileTree makes a workspace and a sibling folder outside it:
//
//	ws/sub/victim.xlsx   "inside"
//	ws/swap -> ../outside
//	outside/victim.xlsx  "OUTSIDE-SECRET"
//
// and returns the sandbox, the workspace and the outside folder.
func hostileTree(t testing.TB) (*sandbox, string, string) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "sub", "victim.xlsx"), []byte("inside"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "victim.xlsx"), []byte("OUTSIDE-SECRET"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "swap")))
	box, err := newSandbox(ws)
	require.NoError(t, err)
	return box, ws, outside
}

// treeHash is every name and content under dir, hashed, so a test can
// prove a folder byte-identical.
func treeHash(t testing.TB, dir string) [32]byte {
	h := sha256.New()
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		_, _ = io.WriteString(h, p+"\x00")
		if d.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			_, _ = h.Write(b)
		}
		return nil
	}))
	var sum [32]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

// TestHandleSurvivesAFolderSwapper: while another goroutine swaps ws/sub
// with a link to a folder outside the workspace (renameat2
// RENAME_EXCHANGE, as a local process with a shell can), reads, locks and
// atomic saves of sub/victim.xlsx through the handle either fail or act
// inside the workspace: no outside byte is read, the outside folder stays
// byte-identical and nothing is created there.
func TestHandleSurvivesAFolderSwapper(t *testing.T) {
	box, ws, outside := hostileTree(t)
	before := treeHash(t, outside)
	path, err := box.resolve("sub/victim.xlsx")
	require.NoError(t, err)
	var stop atomic.Bool
	var swaps atomic.Int64
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for !stop.Load() {
			if unix.Renameat2(unix.AT_FDCWD, filepath.Join(ws, "sub"), unix.AT_FDCWD, filepath.Join(ws, "swap"), unix.RENAME_EXCHANGE) == nil {
				swaps.Add(1)
			}
		}
	}()
	var reads, saves int
	for i := 0; i < 2000; i++ {
		if fh, _, err := box.openRegular(path); err == nil {
			b, _ := io.ReadAll(fh)
			_ = fh.Close()
			require.NotContains(t, string(b), "OUTSIDE", "read outside the workspace")
			reads++
		}
		if l, err := box.lock(context.Background(), path); err == nil {
			if box.replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
				_, err := w.Write([]byte("inside"))
				return err
			}) == nil {
				saves++
			}
			_ = l.Release()
		}
	}
	stop.Store(true)
	wg.Wait()
	t.Logf("%d swaps, %d reads and %d saves succeeded inside", swaps.Load(), reads, saves)
	require.Positive(t, swaps.Load())
	assert.Equal(t, before, treeHash(t, outside), "the outside folder changed")
	ents, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "files were created outside: %v", ents)
}

// TestHandleRefusesLinksOut: a resolved name whose folder became a link
// out is refused with a PermissionError-class error that names the path
// relative to the workspace.
func TestHandleRefusesLinksOut(t *testing.T) {
	box, ws, _ := hostileTree(t)
	path, err := box.resolve("sub/victim.xlsx")
	require.NoError(t, err)
	require.NoError(t, unix.Renameat2(unix.AT_FDCWD, filepath.Join(ws, "sub"), unix.AT_FDCWD, filepath.Join(ws, "swap"), unix.RENAME_EXCHANGE))
	_, _, err = box.openRegular(path)
	require.Error(t, err)
	assert.Equal(t, KindOutsideWorkspace, kindOf(err))
	assert.NotContains(t, err.Error(), ws)
	assert.Contains(t, err.Error(), "sub/victim.xlsx")
	_, err = box.lock(context.Background(), path)
	assert.Error(t, err)
	err = box.replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error { return nil })
	assert.Error(t, err)
}

// TestHardLinkedWorkbookIsReplacedInsideOnly: a workbook that is a hard
// link of a file outside the workspace is replaced by name: the workspace
// entry gets the new content, the outside file keeps its bytes.
func TestHardLinkedWorkbookIsReplacedInsideOnly(t *testing.T) {
	box, ws, outside := hostileTree(t)
	require.NoError(t, os.Link(filepath.Join(outside, "victim.xlsx"), filepath.Join(ws, "h.xlsx")))
	path, err := box.resolve("h.xlsx")
	require.NoError(t, err)
	require.NoError(t, box.replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
		_, err := w.Write([]byte("new"))
		return err
	}))
	got, err := os.ReadFile(filepath.Join(ws, "h.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	out, err := os.ReadFile(filepath.Join(outside, "victim.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, "OUTSIDE-SECRET", string(out))
}

// FuzzWorkspacePath: whatever path a caller passes, resolve names a path
// inside the root, and reading, locking and saving it through the handle
// never reads the outside file nor changes the outside folder, with links
// in, links out, loops and dangling links in the tree.
func FuzzWorkspacePath(f *testing.F) {
	for _, s := range []string{"sub/victim.xlsx", "swap/victim.xlsx", "in/victim.xlsx", "loop/x.xlsx", "dangling.xlsx",
		"../outside/victim.xlsx", "%2e%2e/outside/victim.xlsx", "sub/../swap/victim.xlsx", "./sub//victim.xlsx", "sub/new.xlsx"} {
		f.Add(s)
	}
	box, ws, outside := hostileTree(f)
	require.NoError(f, os.Symlink("sub", filepath.Join(ws, "in")))
	require.NoError(f, os.Symlink("loop", filepath.Join(ws, "loop")))
	require.NoError(f, os.Symlink("nowhere", filepath.Join(ws, "dangling.xlsx")))
	before := treeHash(f, outside)
	f.Fuzz(func(t *testing.T, p string) {
		path, err := box.resolve(p)
		if err != nil {
			return
		}
		if !within(box.root, path) {
			t.Fatalf("%q resolved outside the root: %q", p, path)
		}
		if fh, _, err := box.openRegular(path); err == nil {
			b, _ := io.ReadAll(io.LimitReader(fh, 1<<20))
			_ = fh.Close()
			if bytes.Contains(b, []byte("OUTSIDE")) {
				t.Fatalf("%q read the outside file", p)
			}
		}
		if strings.HasSuffix(path, ".xlsx") {
			if l, err := box.lock(context.Background(), path); err == nil {
				_ = box.replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
					_, err := w.Write([]byte("inside"))
					return err
				})
				_ = l.Release()
			}
		}
		if treeHash(t, outside) != before {
			t.Fatalf("%q changed the outside folder", p)
		}
	})
}
