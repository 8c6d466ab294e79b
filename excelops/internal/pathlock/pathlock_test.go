package pathlock

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// TestLockAll: a path listed twice is locked once (exclusively when any
// listing writes), a writer waits for the readers, readers share, and
// every entry is gone once released.
func TestLockAll(t *testing.T) {
	box, err := workspace.Open(t.TempDir())
	require.NoError(t, err)
	a, b := filepath.Join(box.Dir(), "a.xlsx"), filepath.Join(box.Dir(), "b.xlsx")
	locks := New()
	ctx := context.Background()

	read1, err := locks.LockAll(ctx, box, Spec{Path: a}, Spec{Path: b})
	require.NoError(t, err)
	read2, err := locks.LockAll(ctx, box, Spec{Path: a})
	require.NoError(t, err, "readers share")
	assert.Equal(t, 2, locks.Count())

	wrote := make(chan struct{})
	go func() {
		unlock, err := locks.LockAll(ctx, box, Spec{Path: b}, Spec{Path: a}, Spec{Path: a, Write: true})
		assert.NoError(t, err)
		close(wrote)
		unlock()
	}()
	select {
	case <-wrote:
		t.Fatal("the writer did not wait for the readers")
	case <-time.After(50 * time.Millisecond):
	}
	read1()
	read2()
	select {
	case <-wrote:
	case <-time.After(5 * time.Second):
		t.Fatal("the writer never got the lock")
	}
	assert.Eventually(t, func() bool { return locks.Count() == 0 }, time.Second, time.Millisecond, "every entry released")
}

// TestLockAllReplaceTakesTheFileLock: a path to be replaced also holds the
// cross-process lock until released; a cancelled wait for it holds nothing.
func TestLockAllReplaceTakesTheFileLock(t *testing.T) {
	box, err := workspace.Open(t.TempDir())
	require.NoError(t, err)
	a := filepath.Join(box.Dir(), "a.xlsx")
	first, second := New(), New() // two processes' tables
	unlock, err := first.LockAll(context.Background(), box, Spec{Path: a, Replace: true})
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = second.LockAll(ctx, box, Spec{Path: a, Replace: true})
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Zero(t, second.Count())
	unlock()
	again, err := second.LockAll(context.Background(), box, Spec{Path: a, Replace: true})
	require.NoError(t, err)
	again()
}
