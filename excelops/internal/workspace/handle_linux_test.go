package workspace

import (
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/atomicfile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/filelock"
)

// saveAndLock is one way the sandbox saves and locks: through a folder
// descriptor (Unix: sandbox.Replace, sandbox.lock) or through a root on the
// folder (Windows: replaceViaRoot, lockViaRoot, run here on Linux).
type saveAndLock struct {
	name    string
	replace func(s *Root, ctx context.Context, path string, mode fs.FileMode, o atomicfile.Options, produce func(io.Writer) error) error
	lock    func(s *Root, ctx context.Context, path string) (*filelock.Lock, error)
}

// strategies returns both ways.
func strategies() []saveAndLock {
	return []saveAndLock{
		{"descriptor", (*Root).Replace, (*Root).Lock},
		{"root", (*Root).ReplaceViaRoot, (*Root).LockViaRoot},
	}
}

// TestHandleSurvivesAFolderSwapper: while another goroutine swaps ws/sub
// with a link to a folder outside the workspace (renameat2
// RENAME_EXCHANGE, as a local process with a shell can), reads, locks and
// atomic saves of sub/victim.xlsx through the handle either fail or act
// inside the workspace: no outside byte is read, the outside folder stays
// byte-identical and nothing is created there. Both ways to save and lock
// are run.
func TestHandleSurvivesAFolderSwapper(t *testing.T) {
	for _, st := range strategies() {
		t.Run(st.name, func(t *testing.T) { folderSwapper(t, st) })
	}
}

// folderSwapper is TestHandleSurvivesAFolderSwapper for one strategy.
func folderSwapper(t *testing.T, st saveAndLock) {
	box, ws, outside := hostileTree(t)
	before := treeHash(t, outside)
	path, err := box.Resolve("sub/victim.xlsx")
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
		if fh, _, err := box.OpenRegular(path); err == nil {
			b, _ := io.ReadAll(fh)
			_ = fh.Close()
			require.NotContains(t, string(b), "OUTSIDE", "read outside the workspace")
			reads++
		}
		if l, err := st.lock(box, context.Background(), path); err == nil {
			if st.replace(box, context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error {
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
// relative to the workspace, by reads and by both ways to save and lock.
func TestHandleRefusesLinksOut(t *testing.T) {
	for _, st := range strategies() {
		t.Run(st.name, func(t *testing.T) { linksOut(t, st) })
	}
}

// linksOut is TestHandleRefusesLinksOut for one strategy.
func linksOut(t *testing.T, st saveAndLock) {
	box, ws, outside := hostileTree(t)
	path, err := box.Resolve("sub/victim.xlsx")
	require.NoError(t, err)
	require.NoError(t, unix.Renameat2(unix.AT_FDCWD, filepath.Join(ws, "sub"), unix.AT_FDCWD, filepath.Join(ws, "swap"), unix.RENAME_EXCHANGE))
	_, _, err = box.OpenRegular(path)
	require.Error(t, err)
	assert.Equal(t, failure.KindOutsideWorkspace, failure.KindOf(err))
	assert.NotContains(t, err.Error(), ws)
	assert.Contains(t, err.Error(), "sub/victim.xlsx")
	_, err = st.lock(box, context.Background(), path)
	assert.Error(t, err)
	err = st.replace(box, context.Background(), path, 0o644, atomicfile.Options{}, func(w io.Writer) error { return nil })
	assert.Error(t, err)
	assert.Equal(t, failure.KindOutsideWorkspace, failure.KindOf(err), "%v", err)
	ents, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Len(t, ents, 1, "files were created outside: %v", ents)
}
