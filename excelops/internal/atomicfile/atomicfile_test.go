package atomicfile

import (
	"context"
	"errors"
	"io"
	"os"
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
