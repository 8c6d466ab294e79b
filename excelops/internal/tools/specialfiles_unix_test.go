//go:build unix

package tools

import (
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// mkfifo makes a FIFO at path (skipping the test where there are none).
func mkfifo(t testing.TB, path string) { require.NoError(t, syscall.Mkfifo(path, 0o644)) }

// mknodNull makes a character device like /dev/null (major 1, minor 3) at
// path; it needs root.
func mknodNull(path string) error { return syscall.Mknod(path, syscall.S_IFCHR|0o644, 1<<8|3) }
