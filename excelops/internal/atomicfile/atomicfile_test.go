package atomicfile

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// brokenWriter fails every write with err.
type brokenWriter struct{ err error }

func (b brokenWriter) Write([]byte) (int, error) { return 0, b.err }

func TestReplace(t *testing.T) {
	cases := []struct {
		name     string
		wrap     func(io.Writer) io.Writer
		produce  func(io.Writer) error
		ctx      func() context.Context
		wantErr  bool
		wantStep Step
		want     string
	}{
		{"success", nil, writeString("new"), context.Background, false, "", "new"},
		{"producer fails", nil, func(io.Writer) error { return errors.New("boom") }, context.Background, true, StepWrite, "old"},
		{"disk full", func(io.Writer) io.Writer { return brokenWriter{syscall.ENOSPC} }, writeString(string(make([]byte, 1<<20))), context.Background, true, StepWrite, "old"},
		{"cancelled before rename", nil, writeString("new"), func() context.Context {
			ctx, cancel := context.WithCancel(context.Background())
			cancel()
			return ctx
		}, true, "", "old"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			target := filepath.Join(dir, "f.bin")
			require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
			err := Replace(c.ctx(), target, 0o640, c.wrap, c.produce)
			got, rerr := os.ReadFile(target)
			require.NoError(t, rerr)
			assert.Equal(t, c.want, string(got))
			ents, _ := os.ReadDir(dir)
			assert.Len(t, ents, 1, "no temporary file is left")
			if !c.wantErr {
				require.NoError(t, err)
				st, err := os.Stat(target)
				require.NoError(t, err)
				assert.Equal(t, os.FileMode(0o640), st.Mode().Perm())
				return
			}
			require.Error(t, err)
			var step *StepError
			if c.wantStep != "" {
				require.ErrorAs(t, err, &step)
				assert.Equal(t, c.wantStep, step.Step)
			}
		})
	}
}

// writeString returns a producer writing s.
func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

// TestReplaceSweepsStaleTemporaries: a temporary file older than StaleAfter
// (a killed save) is removed by the next save in that folder; a fresh one,
// possibly another process's save in flight, is kept.
func TestReplaceSweepsStaleTemporaries(t *testing.T) {
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

	target := filepath.Join(dir, "book.xlsx")
	require.NoError(t, Replace(context.Background(), target, 0o644, nil, func(w io.Writer) error {
		_, err := w.Write([]byte("new"))
		return err
	}))

	assert.NoFileExists(t, stale)
	assert.FileExists(t, fresh)
	assert.FileExists(t, other, "files not named like our temporaries are never touched")
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
}

// TestReplaceWritesAnUnnamedFile: while the new content is being written the
// folder shows nothing but the target (the temporary file has no name until
// it is complete), so a process killed mid-write leaves nothing behind.
func TestReplaceWritesAnUnnamedFile(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "book.xlsx")
	require.NoError(t, os.WriteFile(target, []byte("old"), 0o644))
	var during []string
	require.NoError(t, Replace(context.Background(), target, 0o644, nil, func(w io.Writer) error {
		ents, err := os.ReadDir(dir)
		for _, e := range ents {
			during = append(during, e.Name())
		}
		_, _ = w.Write([]byte("new"))
		return err
	}))
	if probe, _, err := createTemp(dirFD(t, dir), 0o644); err == nil {
		named := probe.Name() != "(unnamed)"
		_ = probe.Close()
		if named {
			t.Skip("this file system has no O_TMPFILE; temporaries are named and swept")
		}
	}
	assert.Equal(t, []string{"book.xlsx"}, during)
	got, err := os.ReadFile(target)
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
}

// TestBeforeRenameAbortsTheReplacement: the check's error comes back as is,
// the target keeps its bytes, no temporary is left; a passing check lets
// the replacement through.
func TestBeforeRenameAbortsTheReplacement(t *testing.T) {
	errChanged := errors.New("changed on disk")
	for _, c := range []struct {
		check func() error
		want  string
	}{
		{func() error { return errChanged }, "old"},
		{func() error { return nil }, "new"},
	} {
		dir := t.TempDir()
		target := filepath.Join(dir, "f.bin")
		require.NoError(t, os.WriteFile(target, []byte("old"), 0o600))
		err := ReplaceWith(context.Background(), target, 0o600, Options{BeforeRename: c.check}, writeString("new"))
		if c.want == "old" {
			require.ErrorIs(t, err, errChanged)
		} else {
			require.NoError(t, err)
		}
		got, rerr := os.ReadFile(target)
		require.NoError(t, rerr)
		assert.Equal(t, c.want, string(got))
		ents, _ := os.ReadDir(dir)
		assert.Len(t, ents, 1)
	}
}

// TestSweepDeadRemovesOnlyDeadProcessesTemporaries: a named temporary of a
// process that no longer exists goes; one of a live process stays.
func TestSweepDeadRemovesOnlyDeadProcessesTemporaries(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	require.NoError(t, cmd.Run())
	dead := filepath.Join(dir, fmt.Sprintf(".~registry-sidecar-%d-1.tmp", cmd.Process.Pid))
	alive := filepath.Join(dir, fmt.Sprintf(".~registry-sidecar-%d-2.tmp", os.Getppid()))
	for _, p := range []string{dead, alive} {
		require.NoError(t, os.WriteFile(p, []byte("x"), 0o600))
	}
	assert.Equal(t, 1, SweepDead(dir))
	assert.NoFileExists(t, dead)
	assert.FileExists(t, alive)
}

// dirFD opens dir for the test and returns its descriptor.
func dirFD(t *testing.T, dir string) int {
	d, err := os.Open(dir)
	require.NoError(t, err)
	t.Cleanup(func() { _ = d.Close() })
	return int(d.Fd())
}

// TestReplaceInStaysInTheOpenFolder: once the folder is open, swapping it
// for a link to another folder does not move the save: the new content,
// and every temporary, stay in the folder that was opened.
func TestReplaceInStaysInTheOpenFolder(t *testing.T) {
	base := t.TempDir()
	sub, moved, outside := filepath.Join(base, "sub"), filepath.Join(base, "moved"), filepath.Join(base, "outside")
	require.NoError(t, os.Mkdir(sub, 0o755))
	require.NoError(t, os.Mkdir(outside, 0o755))
	d, err := os.Open(sub)
	require.NoError(t, err)
	defer d.Close()
	require.NoError(t, os.Rename(sub, moved))
	require.NoError(t, os.Symlink(outside, sub))
	require.NoError(t, ReplaceIn(context.Background(), d, "book.xlsx", 0o644, Options{}, writeString("new")))
	got, err := os.ReadFile(filepath.Join(moved, "book.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, "new", string(got))
	ents, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, ents, "nothing may be written through the swapped-in link")
	for _, bad := range []string{"", "a/b", ".", ".."} {
		assert.Error(t, ReplaceIn(context.Background(), d, bad, 0o644, Options{}, writeString("x")), bad)
	}
}
