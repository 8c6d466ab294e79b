package render

import (
	"os"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNamespaceRefusalTurnsItOff: when the probe said yes but the kernel
// refuses the namespace at a real start (EPERM, not a missing binary),
// later renders run without one and say so.
func TestNamespaceRefusalTurnsItOff(t *testing.T) {
	assert.True(t, namespaceRefused(&os.PathError{Op: "fork/exec", Path: "soffice", Err: syscall.EPERM}))
	assert.False(t, namespaceRefused(&os.PathError{Op: "fork/exec", Path: "soffice", Err: syscall.ENOENT}))
	lo := New(Config{TmpBase: t.TempDir()})
	lo.SetProbe(func(string) bool { return true })
	require.Equal(t, IsolationNetns, lo.Isolation())
	lo.noNetns(os.ErrPermission)
	assert.Equal(t, IsolationSettings, lo.Isolation())
}
