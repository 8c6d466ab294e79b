package atomicfile

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
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

// TestReplaceInRoot: ReplaceInRoot keeps ReplaceIn's promise: the new
// content with its mode, or on any failure (producer, disk, cancellation,
// BeforeRename) the old bytes, and never a temporary left behind.
func TestReplaceInRoot(t *testing.T) {
	errChanged := errors.New("changed on disk")
	cancelled := func() context.Context {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		return ctx
	}
	cases := []struct {
		name     string
		o        Options
		produce  func(io.Writer) error
		ctx      func() context.Context
		wantErr  error
		wantStep Step
		want     string
	}{
		{"success", Options{}, writeString("new"), context.Background, nil, "", "new"},
		{"producer fails", Options{}, func(io.Writer) error { return errors.New("boom") }, context.Background, nil, StepWrite, "old"},
		{"disk full", Options{Wrap: func(io.Writer) io.Writer { return brokenWriter{syscall.ENOSPC} }}, writeString(string(make([]byte, 1<<20))), context.Background, syscall.ENOSPC, StepWrite, "old"},
		{"cancelled before rename", Options{}, writeString("new"), cancelled, context.Canceled, "", "old"},
		{"check refuses", Options{BeforeRename: func() error { return errChanged }}, writeString("new"), context.Background, errChanged, "", "old"},
		{"check passes", Options{BeforeRename: func() error { return nil }}, writeString("new"), context.Background, nil, "", "new"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "f.bin")
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
			err := ReplaceInRoot(c.ctx(), openRoot(t, dir), "f.bin", 0o640, c.o, c.produce)
			got, rerr := os.ReadFile(target)
			require.NoError(t, rerr)
			assert.Equal(t, c.want, string(got))
			ents, _ := os.ReadDir(dir)
			assert.Len(t, ents, 1, "no temporary file is left")
			if c.want == "new" {
				require.NoError(t, err)
				st, err := os.Stat(target)
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o640), st.Mode().Perm())
				return
			}
			require.Error(t, err)
			if c.wantErr != nil {
				assert.ErrorIs(t, err, c.wantErr)
			}
			if c.wantStep != "" {
				var step *StepError
				require.ErrorAs(t, err, &step)
				assert.Equal(t, c.wantStep, step.Step)
			}
		})
	}
}

// TestReplaceInRootCreatesAMissingTarget: a new file gets its mode.
func TestReplaceInRootCreatesAMissingTarget(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, ReplaceInRoot(context.Background(), openRoot(t, dir), "new.xlsx", 0o644, Options{}, writeString("fresh")))
	got, err := os.ReadFile(filepath.Join(dir, "new.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, "fresh", string(got))
}

// TestReplaceInRootRefusesNamesThatAreNotEntries: the name must be one
// entry of the folder.
func TestReplaceInRootRefusesNamesThatAreNotEntries(t *testing.T) {
	dir := t.TempDir()
	r := openRoot(t, dir)
	bad := []string{"", ".", "..", "a/b", "../escape"}
	if filepath.Separator != '/' {
		bad = append(bad, `a\b`)
	}
	for _, name := range bad {
		err := ReplaceInRoot(context.Background(), r, name, 0o644, Options{}, writeString("x"))
		assert.ErrorIs(t, err, fs.ErrInvalid, name)
	}
	ents, _ := os.ReadDir(dir)
	assert.Empty(t, ents)
}

// TestReplaceInRootStaysInTheRoot: once the folder is held, swapping it for
// a link to another folder does not move the save: the new content, and
// every temporary, stay in the folder that was opened.
func TestReplaceInRootStaysInTheRoot(t *testing.T) {
	base := t.TempDir()
	sub, moved, outside := filepath.Join(base, "sub"), filepath.Join(base, "moved"), filepath.Join(base, "outside")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.Mkdir(outside, 0o755))
	r := openRoot(t, sub)
	require.NoError(t, os.Rename(sub, moved))
	if err := os.Symlink(outside, sub); err != nil {
		t.Skipf("cannot make a symlink here: %v", err)
	}
	require.NoError(t, ReplaceInRoot(context.Background(), r, "book.xlsx", 0o644, Options{}, writeString("new")))
	got, err := os.ReadFile(filepath.Join(moved, "book.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	ents, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, ents, "nothing may be written through the swapped-in link")
}

// TestReplaceInRootDoesNotFollowALinkedTarget: a target that is a link to a
// file outside the folder is replaced by the new file; the outside file
// keeps its bytes.
func TestReplaceInRootDoesNotFollowALinkedTarget(t *testing.T) {
	base := t.TempDir()
	dir, secret := filepath.Join(base, "ws"), filepath.Join(base, "secret.txt")
	require.NoError(t, os.Mkdir(dir, 0o755))
	require.NoError(t, os.WriteFile(secret, []byte("secret"), 0o600))
	if err := os.Symlink(secret, filepath.Join(dir, "book.xlsx")); err != nil {
		t.Skipf("cannot make a symlink here: %v", err)
	}
	require.NoError(t, ReplaceInRoot(context.Background(), openRoot(t, dir), "book.xlsx", 0o644, Options{}, writeString("new")))
	got, err := os.ReadFile(secret)
	require.NoError(t, err)
	assert.Equal(t, "secret", string(got))
	st, err := os.Lstat(filepath.Join(dir, "book.xlsx"))
	require.NoError(t, err)
	assert.True(t, st.Mode().IsRegular())
}

// TestSweepStaleInRoot: only our temporaries older than the cutoff go.
func TestSweepStaleInRoot(t *testing.T) {
	dir := t.TempDir()
	stale := filepath.Join(dir, ".~registry-sidecar-111.tmp")
	fresh := filepath.Join(dir, ".~registry-sidecar-222.tmp")
	other := filepath.Join(dir, "old-report.tmp")
	for _, p := range []string{stale, fresh, other} {
		require.NoError(t, os.WriteFile(p, []byte("partial"), 0o600))
	}
	old := time.Now().Add(-2 * StaleAfter)
	require.NoError(t, os.Chtimes(stale, old, old))
	require.NoError(t, os.Chtimes(other, old, old))
	require.NoError(t, os.Mkdir(filepath.Join(dir, ".~registry-sidecar-333.tmp"), 0o755))
	assert.Equal(t, 1, SweepStaleInRoot(openRoot(t, dir), time.Now().Add(-StaleAfter)))
	assert.NoFileExists(t, stale)
	assert.FileExists(t, fresh)
	assert.FileExists(t, other, "files not named like our temporaries are never touched")
	assert.DirExists(t, filepath.Join(dir, ".~registry-sidecar-333.tmp"), "only regular files are swept")
}

// TestRenameInRootRetriesWhileBusy: a rename the system calls busy is
// retried until it goes through; one that is not busy fails at once; the
// retries stop when the context ends.
func TestRenameInRootRetriesWhileBusy(t *testing.T) {
	dir := t.TempDir()
	r := openRoot(t, dir)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new"), []byte("new"), 0o600))
	// A non-empty folder in the way makes the rename fail until the
	// "other program" (the busy callback) clears it on its second report.
	obstacle := filepath.Join(dir, "target")
	require.NoError(t, os.MkdirAll(filepath.Join(obstacle, "x"), 0o755))
	calls := 0
	busy := func(error) bool {
		calls++
		if calls == 2 {
			require.NoError(t, os.RemoveAll(obstacle))
		}
		return true
	}
	require.NoError(t, renameInRoot(context.Background(), r, "new", "target", busy))
	assert.Equal(t, 2, calls)
	got, err := os.ReadFile(obstacle)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))

	require.NoError(t, os.MkdirAll(filepath.Join(dir, "again", "x"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "new2"), []byte("x"), 0o600))
	calls = 0
	assert.Error(t, renameInRoot(context.Background(), r, "new2", "again", func(error) bool { calls++; return false }))
	assert.Equal(t, 1, calls, "a failure that is not busy is not retried")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	start := time.Now()
	assert.Error(t, renameInRoot(ctx, r, "new2", "again", func(error) bool { return true }))
	assert.Less(t, time.Since(start), renameRetryFor, "a cancelled call stops retrying")
}
