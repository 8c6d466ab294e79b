package tools

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// BenchmarkReadCellStylesRange reads the styles of a 2x2 range and of the
// whole sheet (A1:XFD1048576) of the 100k x 20 dated workbook. Compare the
// two in one run: "whole/small" near 1 shows the cost is the sheet's size,
// never the size of the range asked for (both walk only cells that exist).
func BenchmarkReadCellStylesRange(b *testing.B) {
	dir := b.TempDir()
	writeBenchBook(b, filepath.Join(dir, "s.xlsx"), true)
	svc, err := New(dir, WithCacheBudget(0))
	require.NoError(b, err)
	b.Cleanup(func() { _ = svc.Close() })
	for _, c := range []struct{ name, rng string }{{"small", "A1:B2"}, {"whole", "A1:XFD1048576"}} {
		args := readCellStylesArgs{fileArg{FilePath: "s.xlsx"}, sheetArg{}, rangeArg{CellRange: c.rng}}
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, err := svc.readCellStyles(context.Background(), args)
				require.NoError(b, err)
			}
		})
	}
}
