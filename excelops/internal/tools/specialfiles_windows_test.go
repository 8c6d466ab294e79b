package tools

import (
	"errors"
	"testing"
)

// mkfifo skips the test: Windows has no FIFOs in the file namespace.
func mkfifo(t testing.TB, _ string) { t.Skip("Windows has no FIFOs in the file namespace") }

// mknodNull fails: Windows has no device nodes in the file namespace.
func mknodNull(string) error { return errors.ErrUnsupported }
