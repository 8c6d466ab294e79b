package racesplit

import (
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
)

// AllEnv, set to 1, makes the tests a package names run under -race as well.
const AllEnv = "REGISTRY_SIDECAR_RACE_ALL"

// SkippedOnlyEnv, set to 1 in a build without -race, runs only the tests a
// package names: `make test` runs every other test under -race, so its pass
// without -race needs these alone.
const SkippedOnlyEnv = "REGISTRY_SIDECAR_RACE_SKIPPED_ONLY"

// Skip skips t in a -race build (unless AllEnv is 1), with why in the skip
// message. It fails a test whose top-level name is not in named, so the
// pass that SkippedOnlyEnv selects cannot leave one out.
func Skip(t testing.TB, named []string, why string) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if !slices.Contains(named, top) {
		t.Fatalf("%s skips under -race but the package's list of such tests does not name it: the pass without -race of `make test` would leave it out", top)
	}
	if Enabled && os.Getenv(AllEnv) != "1" {
		t.Skip(why + ": runs in the pass without -race (make go-test-plain); " + AllEnv + "=1 runs it here too")
	}
}

// Narrow, called from TestMain after flag.Parse, narrows the run to named
// when SkippedOnlyEnv asks for it in a build without -race, unless the
// command line chose tests itself (a test re-running the test binary for
// one test passes -test.run).
func Narrow(named []string) error {
	if os.Getenv(SkippedOnlyEnv) != "1" || Enabled {
		return nil
	}
	run := flag.Lookup("test.run")
	if run == nil {
		return fmt.Errorf("racesplit: no -test.run flag (call Narrow from TestMain after flag.Parse)")
	}
	if run.Value.String() != "" {
		return nil
	}
	return run.Value.Set("^(" + strings.Join(named, "|") + ")$")
}
