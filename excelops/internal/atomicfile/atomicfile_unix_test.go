//go:build unix

package atomicfile

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

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
