package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// builtBinary is this command compiled once per test binary: the end-to-end
// tests all run the same source, so one `go build` (a link of the whole
// command, several CPU-seconds) serves them all. It is set up by TestMain and
// written only inside once.
type builtBinary struct {
	once sync.Once
	dir  string
	path string
	out  []byte
	err  error
}

// testBinary is the build every test of this package shares; TestMain gives
// it its folder and removes that folder when the tests end.
var testBinary = &builtBinary{}

// TestMain gives testBinary a private folder for the one build the tests
// share, and removes it after the run.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "registry-sidecar-test-bin-")
	if err != nil {
		panic(err)
	}
	testBinary.dir = dir
	code := m.Run()
	_ = os.RemoveAll(dir)
	os.Exit(code)
}

// buildBinary returns this command built into the test binary's private
// folder, building it on the first call only (a failed build fails every
// test that asks for it, each with the compiler's output).
func buildBinary(t *testing.T) string {
	t.Helper()
	b := testBinary
	b.once.Do(func() {
		b.path = filepath.Join(b.dir, "registry-sidecar")
		b.out, b.err = exec.Command("go", "build", "-o", b.path, ".").CombinedOutput()
	})
	require.NoError(t, b.err, "go build: %s", b.out)
	return b.path
}

