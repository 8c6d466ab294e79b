package tools

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// repoRoot is the folder holding the module's go.mod, found upwards from
// the test's working directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := os.Getwd()
	require.NoError(t, err)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		require.NotEqual(t, dir, parent, "no go.mod above the test's folder")
		dir = parent
	}
}

// excelMadeCorpus is a folder of workbooks saved by Excel that may sit beside
// the checkout (../shared/corpus/excel-made), or "" when it is absent (the
// tests that use it then skip).
func excelMadeCorpus(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "..", "shared", "corpus", "excel-made")
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}

// TestCopySheetCorpus copies every sheet of every workbook of the Excel-made
// corpus, each in a fresh copy of its file: every call succeeds (and the
// saved workbook holds the copy) or fails with a classified execution error
// (a chart sheet, a damaged part); none panics (TOOL_INTERNAL_ERROR) or
// fails with an unclassified error.
func TestCopySheetCorpus(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	dir := excelMadeCorpus(t)
	if dir == "" {
		t.Skip("corpus ../shared/corpus/excel-made (beside the repository) is absent; copy_sheet's walk over it is skipped")
	}
	if testing.Short() {
		t.Skip("copy_sheet's walk over the Excel-made corpus is skipped in -short mode")
	}
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var books, sheets, successes int
	failures := map[string]int{} // exception → count
	for _, ent := range entries {
		ext := strings.ToLower(filepath.Ext(ent.Name()))
		if ent.IsDir() || (ext != ".xlsx" && ext != ".xlsm") {
			continue
		}
		books++
		orig, err := os.ReadFile(filepath.Join(dir, ent.Name()))
		require.NoError(t, err)
		names := corpusSheets(t, filepath.Join(dir, ent.Name()))
		t.Run(ent.Name(), func(t *testing.T) {
			// A fresh Service per workbook, with copy_sheet alone: the
			// registry's other tools are never called here.
			e := newEnvOf(t, t.TempDir(), []string{"copy_sheet"})
			for i, sheet := range names {
				sheets++
				file := fmt.Sprintf("s%d-%s", i, ent.Name())
				require.NoError(t, os.WriteFile(e.path(file), orig, 0o644))
				args := map[string]any{"file_path": file}
				if sheet != "" {
					args["sheet_name"] = sheet
				}
				res := e.call("copy_sheet", args)
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(res.Text), &m), res.Text)
				if !res.IsError {
					successes++
					require.Equal(t, "success", m["status"], res.Text)
					g := e.open(file)
					assert.Contains(t, g.GetSheetList(), m["new_sheet"], "sheet %q", sheet)
					src, err := g.GetRows(sheet, excelize.Options{RawCellValue: true})
					require.NoError(t, err)
					dst, err := g.GetRows(m["new_sheet"].(string), excelize.Options{RawCellValue: true})
					require.NoError(t, err)
					assert.Equal(t, src, dst, "sheet %q: the copy's values", sheet)
					continue
				}
				exc, _ := m["exception"].(string)
				failures[exc]++
				t.Logf("%q: %v: %v", sheet, exc, m["message"])
				assert.Equal(t, string(errorsjson.CodeExecution), m["error_code"], "sheet %q: %s", sheet, res.Text)
				assert.NotContains(t, []string{"", "Exception", "RuntimeError"}, exc, "sheet %q: an unclassified error: %s", sheet, res.Text)
				assert.NotEmpty(t, m["message"], "sheet %q", sheet)
			}
		})
	}
	clear := 0
	for _, n := range failures {
		clear += n
	}
	t.Logf("copy_sheet over the corpus: %d workbooks, %d sheets, %d copied, %d clear errors %v", books, sheets, successes, clear, failures)
	assert.Positive(t, books)
}

// corpusSheets lists the sheets of the workbook at path as excelize reads
// them (chart sheets included); one "" (the active sheet) when excelize
// cannot open it, so the tool still runs on it.
func corpusSheets(t *testing.T, path string) []string {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		return []string{""}
	}
	defer f.Close()
	list := f.GetSheetList()
	if len(list) == 0 {
		return []string{""}
	}
	return slices.Clone(list)
}
