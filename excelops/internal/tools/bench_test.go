package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/require"
)

// benchRows and benchCols size the read benchmark's workbook (the issue's
// 100k x 20 read).
const (
	benchRows = 100_000
	benchCols = 20
)

// writeBenchBook writes a benchRows x benchCols workbook of numbers; with
// dated, every fourth column has a date style and every fifth a datetime
// style, the rest stay plain numbers.
func writeBenchBook(b *testing.B, path string, dated bool) {
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	sw, err := f.NewStreamWriter("Sheet1")
	require.NoError(b, err)
	styles := make([]int, benchCols)
	if dated {
		date, err := f.NewStyle(&excelize.Style{NumFmt: 14})
		require.NoError(b, err)
		custom := "yyyy/mm/dd hh:mm"
		stamp, err := f.NewStyle(&excelize.Style{CustomNumFmt: &custom})
		require.NoError(b, err)
		for c := range styles {
			switch {
			case c%4 == 0:
				styles[c] = date
			case c%5 == 0:
				styles[c] = stamp
			}
		}
	}
	row := make([]any, benchCols)
	for r := 1; r <= benchRows; r++ {
		for c := range row {
			row[c] = excelize.Cell{StyleID: styles[c], Value: 40000 + float64(r) + float64(c)/8}
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		require.NoError(b, sw.SetRow(cell, row))
	}
	require.NoError(b, sw.Flush())
	require.NoError(b, f.SaveAs(path))
}

// BenchmarkReadRangeDates reads the whole 100k x 20 range of a plain
// workbook and of one with date-styled columns. Compare the two in one
// run: "dated/plain" is the cost of the date conversion, and "plain" is
// the fast path every number without a date style keeps.
func BenchmarkReadRangeDates(b *testing.B) {
	dir := b.TempDir()
	for _, dated := range []bool{false, true} {
		name := map[bool]string{false: "plain", true: "dated"}[dated]
		writeBenchBook(b, filepath.Join(dir, name+".xlsx"), dated)
	}
	svc, err := New(dir, WithCacheBudget(0))
	require.NoError(b, err)
	b.Cleanup(func() { _ = svc.Close() })
	for _, name := range []string{"plain", "dated"} {
		args := readExcelArgs{fileArg: fileArg{FilePath: name + ".xlsx"}, Range: fmt.Sprintf("A1:T%d", benchRows)}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := svc.readExcel(context.Background(), args)
				require.NoError(b, err)
				require.NotNil(b, res)
			}
		})
	}
}
