package filelock

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLockExcludesOtherHolders: while one Lock is held a second Acquire
// waits, and gets the lock once the first is released.
func TestLockExcludesOtherHolders(t *testing.T) {
	target := filepath.Join(t.TempDir(), "book.xlsx")
	l, err := Acquire(context.Background(), target)
	require.NoError(t, err)
	got := make(chan *Lock)
	go func() {
		l2, err := Acquire(context.Background(), target)
		assert.NoError(t, err)
		got <- l2
	}()
	select {
	case <-got:
		t.Fatal("a second holder got the lock while the first held it")
	case <-time.After(100 * time.Millisecond):
	}
	require.NoError(t, l.Release())
	l2 := <-got
	require.NoError(t, l2.Release())
	assert.FileExists(t, Path(target))
}

// TestLockWaitEndsWithContext: a waiter gives up when its context ends.
func TestLockWaitEndsWithContext(t *testing.T) {
	target := filepath.Join(t.TempDir(), "book.xlsx")
	l, err := Acquire(context.Background(), target)
	require.NoError(t, err)
	defer l.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err = Acquire(ctx, target)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}

// TestLockRefusesALink: a lock file planted as a link is not followed.
func TestLockRefusesALink(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "book.xlsx")
	require.NoError(t, os.Symlink(filepath.Join(dir, "elsewhere"), Path(target)))
	_, err := Acquire(context.Background(), target)
	assert.Error(t, err)
	assert.NoFileExists(t, filepath.Join(dir, "elsewhere"))
}

// TestNameFitsEveryTargetName: the lock name of a target whose name is as
// long as a file name may be still fits, stays distinct per target, and
// locks.
func TestNameFitsEveryTargetName(t *testing.T) {
	dir := t.TempDir()
	short := "book.xlsx"
	assert.Equal(t, ".~book.xlsx.lock", Name(short))
	long1 := strings.Repeat("a", 250) + ".xlsx"
	long2 := strings.Repeat("a", 249) + "b.xlsx"
	wide := strings.Repeat("表", 80) + ".xlsx" // 245 bytes, 3 per rune
	for _, n := range []string{long1, long2, wide} {
		assert.LessOrEqual(t, len(Name(n)), maxNameBytes, n)
		assert.True(t, utf8.ValidString(Name(n)))
		l, err := Acquire(context.Background(), filepath.Join(dir, n))
		require.NoError(t, err, n)
		require.NoError(t, l.Release())
	}
	assert.NotEqual(t, Name(long1), Name(long2))
}
