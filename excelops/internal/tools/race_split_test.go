package tools

import (
	"flag"
	"os"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/internal/racesplit"
)

// raceSkippedTests names every test that calls skipUnderRace. skipUnderRace
// fails a test missing here, so the pass without -race cannot leave one out.
func raceSkippedTests() []string {
	return []string{
		"TestAliasesGiveTheCanonicalResult",
		"TestCachedBooksEditLikeFreshOnes",
		"TestCopySheetCorpus",
		"TestCreateTableErrors",
		"TestDefaultPasswordWorkbookReads",
		"TestEveryRangeArgumentTakesTheSharedForms",
		"TestExcelLimitsAreErrorsAndNothingIsWritten",
		"TestExcelLimitsExactlyAtTheEdgeAreWritten",
		"TestFailedSaveLeavesOriginalBytes",
		"TestFormulaCalcLimitsLeaveHeavyFormulasUncomputed",
		"TestFormulaTextBombsAnswerVALUE",
		"TestMessagesNameRelativePaths",
		"TestPagingNeverSkips",
		"TestPasswordWorkbookRefused",
		"TestReadExcelDates",
		"TestRecalcSpliceMatchesExcelizeOnRandomWrites",
		"TestRecalcSpliceOnAComputedColumn",
		"TestRenderProtectionLayers",
		"TestRenderRangeSeesOnlyTheCopy",
		"TestSIGKILLDuringWriteCells",
		"TestSavedDimensionCoversEveryCell",
		"TestSetAutofilterHidesWhatDoesNotMatch",
		"TestSortRangeErrors",
		"TestSpillUnblocked",
		"TestSpillsThroughStructuralEdits",
		"TestSpliceValueWritesBesideFormulas",
		"TestSpliceWritesBesideTablesAndNames",
		"TestSpliceRespillsAnchorsOnAnotherSheet",
		"TestSpliceSpillReferences",
		"TestSpliceSpillsAsTheExcelizePathDoes",
		"TestToolsSucceedWithTheirResultShape",
		"TestWriteCellsRefusesUnknownReferences",
		"TestWriteCellsRespill",
		"TestWriteCellsSpillBlocked",
		"TestWriteCellsSpills",
		"TestWriteCellsWidensColumnsAsExcel",
		"TestWriteCellsWidensFormattedNumbers",
		"TestZipBombIsRefused",
	}
}

// skipUnderRace skips t in a -race build. It marks the slow tests that drive
// the Service (or a child process) from the test's goroutine alone, one call
// finishing before the next begins and none cut short by a deadline: the
// registry's call goroutine hands its result over a channel, so such a test
// gives the race detector no two goroutines to watch at once, while it runs
// three to ten times slower under it. `make test` runs these tests once
// without -race (racesplit.SkippedOnlyEnv) and every other test once with
// -race; `go test ./excelops/internal/tools/` without -race runs them all.
func skipUnderRace(t *testing.T) {
	t.Helper()
	racesplit.Skip(t, raceSkippedTests(), "one goroutine, calls in sequence")
}

// TestMain narrows a run to raceSkippedTests in the pass without -race of
// `make test` (racesplit.Narrow).
func TestMain(m *testing.M) {
	flag.Parse()
	if err := racesplit.Narrow(raceSkippedTests()); err != nil {
		panic(err)
	}
	os.Exit(m.Run())
}
