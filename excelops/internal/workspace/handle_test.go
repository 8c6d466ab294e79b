package workspace

import (
	"bytes"
	"context"
	"crypto/sha256"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
)

// hostileTree makes a workspace and a sibling folder outside it:
//
//	ws/sub/victim.xlsx   "inside"
//	ws/swap -> ../outside
//	outside/victim.xlsx  "OUTSIDE-SECRET"
//
// and returns the sandbox, the workspace and the outside folder.
func hostileTree(t testing.TB) (*Root, string, string) {
	base := t.TempDir()
	ws, outside := filepath.Join(base, "ws"), filepath.Join(base, "outside")
	require.NoError(t, os.MkdirAll(filepath.Join(ws, "sub"), 0o755))
	require.NoError(t, os.MkdirAll(outside, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(ws, "sub", "victim.xlsx"), []byte("inside"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(outside, "victim.xlsx"), []byte("OUTSIDE-SECRET"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(ws, "swap")))
	box, err := Open(ws)
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

// TestHardLinkedWorkbookIsReplacedInsideOnly: a workbook that is a hard
// link of a file outside the workspace is replaced by name: the workspace
// entry gets the new content, the outside file keeps its bytes.
func TestHardLinkedWorkbookIsReplacedInsideOnly(t *testing.T) {
	box, ws, outside := hostileTree(t)
	require.NoError(t, os.Link(filepath.Join(outside, "victim.xlsx"), filepath.Join(ws, "h.xlsx")))
	path, err := box.Resolve("h.xlsx")
	require.NoError(t, err)
	require.NoError(t, box.Replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
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
		path, err := box.Resolve(p)
		if err != nil {
			return
		}
		if !Within(box.dir, path) {
			t.Fatalf("%q resolved outside the root: %q", p, path)
		}
		if fh, _, err := box.OpenRegular(path); err == nil {
			b, _ := io.ReadAll(io.LimitReader(fh, 1<<20))
			_ = fh.Close()
			if bytes.Contains(b, []byte("OUTSIDE")) {
				t.Fatalf("%q read the outside file", p)
			}
		}
		if strings.HasSuffix(path, ".xlsx") {
			if l, err := box.Lock(context.Background(), path); err == nil {
				_ = box.Replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
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

// TestIdentitiesAgree: a workbook's identity is the same whether it comes
// from the open file (openRegular), a stat through the handle or statID
// (the check before a rename compares ids from these sources, and on
// Windows each is read from a handle), and a save either way changes it.
func TestIdentitiesAgree(t *testing.T) {
	box, _, _ := hostileTree(t)
	path, err := box.Resolve("sub/victim.xlsx")
	require.NoError(t, err)
	fh, st, err := box.OpenRegular(path)
	require.NoError(t, err)
	require.NoError(t, fh.Close())
	fromOpen, ok := IDOf(st)
	require.True(t, ok)
	st, err = box.Stat(path)
	require.NoError(t, err)
	fromStat, ok := IDOf(st)
	require.True(t, ok)
	last, ok := box.StatID(path)
	require.True(t, ok)
	assert.Equal(t, fromOpen, fromStat)
	assert.Equal(t, fromOpen, last)
	for _, replace := range []func(context.Context, string, fs.FileMode, atomicfile.Options, func(io.Writer) error) error{box.Replace, box.ReplaceViaRoot} {
		require.NoError(t, replace(context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
			_, err := w.Write([]byte("inside, saved"))
			return err
		}))
		now, ok := box.StatID(path)
		require.True(t, ok)
		assert.NotEqual(t, last, now, "a save changes the identity")
		last = now
	}
}

// TestBothLocksExcludeEachOther: the lock taken through a root on the
// folder is the lock taken through the folder's descriptor (the same lock
// file; flock on Unix), so processes using either wait for each other.
func TestBothLocksExcludeEachOther(t *testing.T) {
	box, _, _ := hostileTree(t)
	path, err := box.Resolve("sub/victim.xlsx")
	require.NoError(t, err)
	l, err := box.Lock(context.Background(), path)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = box.LockViaRoot(ctx, path)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, l.Release())
	l, err = box.LockViaRoot(context.Background(), path)
	require.NoError(t, err)
	require.NoError(t, l.Release())
}

// FuzzResolve: the sandbox never returns a path outside the root.
func FuzzResolve(f *testing.F) {
	for _, s := range []string{"a.xlsx", "../x", "%2e%2e/x", "．．/x", "/etc/passwd", "a/./b/../c", "x\x00"} {
		f.Add(s)
	}
	root := f.TempDir()
	box, err := Open(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, p string) {
		got, err := box.Resolve(p)
		if err == nil && !Within(box.dir, got) {
			t.Fatalf("%q resolved outside the root: %q", p, got)
		}
	})
}
