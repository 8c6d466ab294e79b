package filelock

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// openRoot opens dir as an *os.Root for the test.
func openRoot(t *testing.T, dir string) *os.Root {
	r, err := os.OpenRoot(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// TestAcquireInRootExcludesOtherHolders: two Locks on one target, even from
// two roots on the same folder, exclude each other; the second comes once
// the first is released.
func TestAcquireInRootExcludesOtherHolders(t *testing.T) {
	dir := t.TempDir()
	l, err := AcquireInRoot(context.Background(), openRoot(t, dir), "book.xlsx")
	require.NoError(t, err)
	got := make(chan *Lock)
	go func() {
		l2, err := AcquireInRoot(context.Background(), openRoot(t, dir), "book.xlsx")
		assert.NoError(t, err)
		got <- l2
	}()
	select {
	case <-got:
		t.Fatal("a second holder got the lock while the first held it")
	case <-time.After(100 * time.Millisecond):
	}
	require.NoError(t, l.Release())
	require.NoError(t, (<-got).Release())
	st, err := os.Lstat(filepath.Join(dir, Name("book.xlsx")))
	require.NoError(t, err)
	assert.True(t, st.Mode().IsRegular(), "the lock file stays")
}

// TestAcquireInRootRefusesLinksAndFolders: a lock name that is a link
// (inside or outside the folder, dangling or not) or a folder is refused,
// and nothing is created where a link points.
func TestAcquireInRootRefusesLinksAndFolders(t *testing.T) {
	for _, c := range []struct {
		name  string
		plant func(t *testing.T, dir, outside string) string // returns a path that must stay missing, or ""
	}{
		{"link out", func(t *testing.T, dir, outside string) string {
			target := filepath.Join(outside, "elsewhere")
			symlink(t, target, filepath.Join(dir, Name("book.xlsx")))
			return target
		}},
		{"dangling link in", func(t *testing.T, dir, _ string) string {
			target := filepath.Join(dir, "made-by-lock")
			symlink(t, target, filepath.Join(dir, Name("book.xlsx")))
			return target
		}},
		{"link to a workbook", func(t *testing.T, dir, _ string) string {
			require.NoError(t, os.WriteFile(filepath.Join(dir, "other.xlsx"), []byte("x"), 0o644))
			symlink(t, filepath.Join(dir, "other.xlsx"), filepath.Join(dir, Name("book.xlsx")))
			return ""
		}},
		{"folder", func(t *testing.T, dir, _ string) string {
			require.NoError(t, os.Mkdir(filepath.Join(dir, Name("book.xlsx")), 0o755))
			return ""
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			base := t.TempDir()
			dir, outside := filepath.Join(base, "ws"), filepath.Join(base, "out")
			require.NoError(t, os.Mkdir(dir, 0o755))
			require.NoError(t, os.Mkdir(outside, 0o755))
			missing := c.plant(t, dir, outside)
			_, err := AcquireInRoot(context.Background(), openRoot(t, dir), "book.xlsx")
			assert.ErrorContains(t, err, "not a regular file")
			if missing != "" {
				assert.NoFileExists(t, missing)
			}
		})
	}
}

// symlink makes a symlink or skips the test where the system will not.
func symlink(t *testing.T, target, link string) {
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make a symlink here: %v", err)
	}
}

// TestAcquireInRootStaysInTheRoot: once the folder is held, swapping it for
// a link to another folder does not move the lock file.
func TestAcquireInRootStaysInTheRoot(t *testing.T) {
	base := t.TempDir()
	sub, moved, outside := filepath.Join(base, "sub"), filepath.Join(base, "moved"), filepath.Join(base, "outside")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.Mkdir(outside, 0o755))
	r := openRoot(t, sub)
	require.NoError(t, os.Rename(sub, moved))
	symlink(t, outside, sub)
	l, err := AcquireInRoot(context.Background(), r, "book.xlsx")
	require.NoError(t, err)
	require.NoError(t, l.Release())
	assert.FileExists(t, filepath.Join(moved, Name("book.xlsx")))
	ents, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, ents)
}

// TestAcquireInRootRefusesNamesWithSeparators: only a plain name in the
// folder is locked.
func TestAcquireInRootRefusesNamesWithSeparators(t *testing.T) {
	r := openRoot(t, t.TempDir())
	bad := []string{"", "a/b", "..", "."}
	if filepath.Separator != '/' {
		bad = append(bad, `a\b`)
	}
	for _, name := range bad {
		_, err := AcquireInRoot(context.Background(), r, name)
		assert.ErrorIs(t, err, fs.ErrInvalid, name)
	}
}

// TestAcquireInRootWaitEndsWithContext: a waiter gives up when its context
// ends, and keeps nothing open.
func TestAcquireInRootWaitEndsWithContext(t *testing.T) {
	dir := t.TempDir()
	l, err := AcquireInRoot(context.Background(), openRoot(t, dir), "book.xlsx")
	require.NoError(t, err)
	defer l.Release()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	_, err = AcquireInRoot(ctx, openRoot(t, dir), "book.xlsx")
	assert.ErrorIs(t, err, context.DeadlineExceeded)
}
