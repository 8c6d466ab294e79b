package tools

import (
	"fmt"
	"io"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/require"
)

// requireSameCells requires got and want (the same workbook edited two
// ways) to hold the same value, formula and type in every cell of sheets
// within rows x cols, and, when styled, a style in the same cells; text
// the splice path writes inline may be a shared string in want. It
// reports whether got holds a formula there. what prefixes the failures.
func requireSameCells(t *testing.T, got, want *excelize.File, sheets []string, rows, cols int, styled bool, what string) bool {
	t.Helper()
	formulas := false
	for _, sh := range sheets {
		for r := 1; r <= rows; r++ {
			for c := 1; c <= cols; c++ {
				ref := grid.CellName(c, r)
				at := fmt.Sprintf("%s: %s!%s", what, sh, ref)
				v1, _ := got.GetCellValue(sh, ref, excelize.Options{RawCellValue: true})
				v2, _ := want.GetCellValue(sh, ref, excelize.Options{RawCellValue: true})
				f1, _ := got.GetCellFormula(sh, ref)
				f2, _ := want.GetCellFormula(sh, ref)
				t1, _ := got.GetCellType(sh, ref)
				t2, _ := want.GetCellType(sh, ref)
				require.Equal(t, v2, v1, "%s value", at)
				require.Equal(t, f2, f1, "%s formula", at)
				if f1 != "" || t2 != excelize.CellTypeSharedString {
					require.Equal(t, t2, t1, "%s type", at)
				}
				if styled {
					s1, _ := got.GetCellStyle(sh, ref)
					s2, _ := want.GetCellStyle(sh, ref)
					require.Equal(t, s2 != 0, s1 != 0, "%s styled", at)
				}
				formulas = formulas || f1 != ""
			}
		}
	}
	return formulas
}

// savesLog is a debug logger for a Service whose hook counts the saves
// that took the splice path.
type savesLog struct {
	log  *logrus.Logger
	hook *test.Hook
}

// newSavesLog returns a silent debug logger with its hook.
func newSavesLog() savesLog {
	log := logrus.New()
	log.SetOutput(io.Discard)
	log.SetLevel(logrus.DebugLevel)
	return savesLog{log, test.NewLocal(log)}
}

// spliced counts the saves through the splice path since the last reset,
// and resets.
func (s savesLog) spliced() int {
	n := 0
	for _, entry := range s.hook.AllEntries() {
		if entry.Message == "workbook saved" && entry.Data["path"] == "splice" {
			n++
		}
	}
	s.hook.Reset()
	return n
}
