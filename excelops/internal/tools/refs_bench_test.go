package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/require"
)

// refsBenchRows sizes the reference-rewriting benchmark: a sheet of values
// and one formula per row, and a second sheet reading every row.
const refsBenchRows = 5_000

// writeRefsBenchBook writes the benchmark's workbook to path.
func writeRefsBenchBook(b *testing.B, path string) {
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	_, err := f.NewSheet("Report")
	require.NoError(b, err)
	for r := 1; r <= refsBenchRows; r++ {
		require.NoError(b, f.SetCellValue("Sheet1", grid.CellName(1, r), r))
		require.NoError(b, f.SetCellFormula("Sheet1", grid.CellName(2, r), "A"+itoa(r)+"*2+SUM($A$1:A"+itoa(r)+")"))
		require.NoError(b, f.SetCellFormula("Report", grid.CellName(1, r), "Sheet1!B"+itoa(r)))
	}
	require.NoError(b, f.SaveAs(path))
}

func itoa(n int) string { return grid.CellName(1, n)[1:] }

// BenchmarkDeleteRowReferences deletes one row of a sheet with
// refsBenchRows formulas (and as many on another sheet reading it). The
// peer, measured in the same run, is excelize's own RemoveRow (shifting
// without #REF!, charts or rules); "refs" is the same RemoveRow inside
// shiftRefs (the plan of every formula, name, rule and chart before it and
// the rewrite after it), so "refs/excelize" is the price of Excel's
// reference semantics. Both open the workbook, neither saves it.
func BenchmarkDeleteRowReferences(b *testing.B) {
	dir := b.TempDir()
	svc, err := New(dir)
	require.NoError(b, err)
	path := dir + "/refs.xlsx"
	writeRefsBenchBook(b, path)
	b.Run("excelize", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			f, err := excelize.OpenFile(path)
			require.NoError(b, err)
			_, err = f.GetCellValue("Report", "A1")
			require.NoError(b, err)
			require.NoError(b, f.RemoveRow("Sheet1", 3))
			require.NoError(b, f.Close())
		}
	})
	b.Run("refs", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			bk, err := svc.engine.OpenBook(path, false, false)
			require.NoError(b, err)
			sh, err := bk.Open(access.FileUse{Arg: "file_path", SheetArg: "sheet_name", Touch: access.TouchStructure, Sheet: access.SheetEdit, Edit: true}, access.GuardEverySheet, "Sheet1", false)
			require.NoError(b, err)
			sheet := sh.Name
			shift := formularef.Shift{Sheet: sheet, Axis: formularef.Rows, At: 3, Count: 1, Delete: true}
			require.NoError(b, bk.ShiftRefs(shift, func() error { return bk.RemoveRow(sheet, 3) }))
			require.NoError(b, bk.Close())
		}
	})
}
