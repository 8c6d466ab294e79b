package excelops

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"
)

// raceAllEnv, set to 1, makes the tests that skipUnderRace marks run under
// -race as well (about ten minutes more on two cores).
const raceAllEnv = "REGISTRY_SIDECAR_RACE_ALL"

// raceSkippedOnlyEnv, set to 1 in a build without -race, runs only the tests
// that skipUnderRace marks (raceSkippedTests): `make test` runs every other
// test under -race, so its pass without -race needs these alone.
const raceSkippedOnlyEnv = "REGISTRY_SIDECAR_RACE_SKIPPED_ONLY"

// raceSkippedTests names every test that calls skipUnderRace. skipUnderRace
// fails a test missing here, so the pass that raceSkippedOnlyEnv selects
// cannot leave one out.
func raceSkippedTests() []string {
	return []string{
		"TestCachedBooksEditLikeFreshOnes",
		"TestCopySheetCorpus",
		"TestEveryRangeArgumentTakesTheSharedForms",
		"TestFormulaCalcLimitsLeaveHeavyFormulasUncomputed",
		"TestFormulaTextBombsAnswerVALUE",
		"TestMessagesNameRelativePaths",
		"TestPagingNeverSkips",
		"TestRecalcSpliceMatchesExcelizeOnRandomWrites",
		"TestRecalcSpliceOnAComputedColumn",
		"TestRenderProtectionLayers",
		"TestRenderRangeSeesOnlyTheCopy",
		"TestSIGKILLDuringWriteCells",
		"TestSpliceValueWritesBesideFormulas",
		"TestSpliceWritesBesideTablesAndNames",
		"TestToolsSucceedWithTheirResultShape",
	}
}

// skipUnderRace skips t in a -race build. It marks the slow tests that drive
// the Service (or a child process) from the test's goroutine alone, one call
// finishing before the next begins and none cut short by a deadline: the
// registry's call goroutine hands its result over a channel, so such a test
// gives the race detector no two goroutines to watch at once, while it runs
// three to ten times slower under it. `make test` runs these tests once
// without -race (raceSkippedOnlyEnv) and every other test once with -race;
// `go test ./excelops/` without -race runs them all.
func skipUnderRace(t *testing.T) {
	t.Helper()
	top, _, _ := strings.Cut(t.Name(), "/")
	if !slices.Contains(raceSkippedTests(), top) {
		t.Fatalf("%s calls skipUnderRace but raceSkippedTests does not name it: the pass without -race of `make test` would leave it out", top)
	}
	if raceEnabled && os.Getenv(raceAllEnv) != "1" {
		t.Skip("one goroutine, calls in sequence: runs in the pass without -race (make go-test); " + raceAllEnv + "=1 runs it here too")
	}
}

// TestMain narrows a run to raceSkippedTests when raceSkippedOnlyEnv asks for
// it in a build without -race, unless the command line chose tests itself
// (a test re-running the test binary for one test passes -test.run).
func TestMain(m *testing.M) {
	flag.Parse()
	if os.Getenv(raceSkippedOnlyEnv) == "1" && !raceEnabled && flag.Lookup("test.run").Value.String() == "" {
		if err := flag.Set("test.run", "^("+strings.Join(raceSkippedTests(), "|")+")$"); err != nil {
			panic(err)
		}
	}
	os.Exit(m.Run())
}
