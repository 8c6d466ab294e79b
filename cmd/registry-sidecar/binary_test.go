package main

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/internal/racesplit"
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
// share, and removes it after the run; in the pass without -race of `make
// test` it narrows the run to raceSkippedTests (racesplit.Narrow).
func TestMain(m *testing.M) {
	flag.Parse()
	if err := racesplit.Narrow(raceSkippedTests()); err != nil {
		panic(err)
	}
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

// raceSkippedTests names every test that calls skipUnderRace, which fails a
// test missing here, so the pass without -race cannot leave one out.
func raceSkippedTests() []string {
	return []string{
		"TestBoundedUnderUlimit",
	}
}

// skipUnderRace skips t in a -race build. It marks the tests whose work
// under test is the binary (built without -race, as released) and whose own
// process only writes inputs and reads answers: the race detector has none of
// the product's goroutines to watch there, while the input generation runs
// several times slower under it. `make test` runs these tests once without
// -race; `go test ./cmd/registry-sidecar/` without -race runs them all.
func skipUnderRace(t *testing.T) {
	t.Helper()
	racesplit.Skip(t, raceSkippedTests(), "the binary under test is built without -race")
}
