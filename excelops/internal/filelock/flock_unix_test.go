//go:build unix

package filelock

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// TestLockIsHonouredAcrossProcesses: flock(1), another process, holds the
// lock file; Acquire waits until it lets go.
func TestLockIsHonouredAcrossProcesses(t *testing.T) {
	if _, err := exec.LookPath("flock"); err != nil {
		t.Skip("flock(1) not installed")
	}
	target := filepath.Join(t.TempDir(), "book.xlsx")
	release := filepath.Join(t.TempDir(), "go")
	cmd := exec.Command("flock", Path(target), "sh", "-c", "echo held; while [ ! -e "+release+" ]; do sleep 0.01; done")
	out, err := cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	buf := make([]byte, 5)
	_, err = out.Read(buf)
	require.NoError(t, err)
	var mu sync.Mutex
	acquired := false
	done := make(chan struct{})
	go func() {
		defer close(done)
		l, err := Acquire(context.Background(), target)
		if assert.NoError(t, err) {
			mu.Lock()
			acquired = true
			mu.Unlock()
			_ = l.Release()
		}
	}()
	time.Sleep(100 * time.Millisecond)
	mu.Lock()
	assert.False(t, acquired, "the lock was taken while another process held it")
	mu.Unlock()
	require.NoError(t, os.WriteFile(release, nil, 0o600))
	require.NoError(t, cmd.Wait())
	<-done
	assert.True(t, acquired)
}

// TestAcquireInRefusesNamesWithSeparators: only a plain name in the open
// folder is locked.
func TestAcquireInRefusesNamesWithSeparators(t *testing.T) {
	d, err := os.Open(t.TempDir())
	require.NoError(t, err)
	defer d.Close()
	for _, bad := range []string{"", "a/b", "..", "."} {
		_, err := AcquireIn(context.Background(), d, bad)
		assert.ErrorIs(t, err, fs.ErrInvalid, bad)
	}
}

// TestAcquireInRootRefusesAFIFO: a FIFO planted under the lock name is
// refused, and the open does not wait for a writer.
func TestAcquireInRootRefusesAFIFO(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, unix.Mkfifo(filepath.Join(dir, Name("book.xlsx")), 0o644))
	done := make(chan error, 1)
	go func() {
		_, err := AcquireInRoot(context.Background(), openRoot(t, dir), "book.xlsx")
		done <- err
	}()
	select {
	case err := <-done:
		assert.ErrorContains(t, err, "not a regular file")
	case <-time.After(5 * time.Second):
		t.Fatal("AcquireInRoot hung on a FIFO")
	}
}

// TestAcquireInRootExcludesAcquireIn: the two ways to take the lock take the
// same lock (flock on the same file), so a process using either waits for
// the other.
func TestAcquireInRootExcludesAcquireIn(t *testing.T) {
	dir := t.TempDir()
	d, err := os.Open(dir)
	require.NoError(t, err)
	defer d.Close()
	l, err := AcquireIn(context.Background(), d, "book.xlsx")
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err = AcquireInRoot(ctx, openRoot(t, dir), "book.xlsx")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	require.NoError(t, l.Release())
	l2, err := AcquireInRoot(context.Background(), openRoot(t, dir), "book.xlsx")
	require.NoError(t, err)
	require.NoError(t, l2.Release())
}
