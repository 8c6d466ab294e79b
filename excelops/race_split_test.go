package excelops

import (
	"os"
	"testing"
)

// raceAllEnv, set to 1, makes the tests that skipUnderRace marks run under
// -race as well (about ten minutes more on two cores).
const raceAllEnv = "REGISTRY_SIDECAR_RACE_ALL"

// skipUnderRace skips t in a -race build. It marks the slow tests that drive
// the Service (or a child process) from the test's goroutine alone, one call
// finishing before the next begins and none cut short by a deadline: the
// registry's call goroutine hands its result over a channel, so such a test
// gives the race detector no two goroutines to watch at once, while it runs
// three to ten times slower under it. `make go-test` runs the whole package once without -race (these
// tests included) and once with -race (these skipped); the concurrency,
// cache, lock, deadline and render-slot tests run in both.
func skipUnderRace(t *testing.T) {
	t.Helper()
	if raceEnabled && os.Getenv(raceAllEnv) != "1" {
		t.Skip("one goroutine, calls in sequence: runs in the pass without -race (make go-test); " + raceAllEnv + "=1 runs it here too")
	}
}
