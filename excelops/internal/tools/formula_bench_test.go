package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/require"
)

// formulaBenchRows sizes the workbooks of BenchmarkWriteCellsFormulas.
const formulaBenchRows = 20_000

// writeFormulaBenchBook writes formulaBenchRows rows of two numbers; with
// formulas, column C holds =A*B on every row and C(n+1) their total.
func writeFormulaBenchBook(b *testing.B, path string, formulas bool) {
	f := excelize.NewFile()
	defer func() { _ = f.Close() }()
	sw, err := f.NewStreamWriter("Sheet1")
	require.NoError(b, err)
	for r := 1; r <= formulaBenchRows+1; r++ {
		row := []any{float64(r), 1.5}
		if formulas {
			fm := fmt.Sprintf("A%d*B%d", r, r)
			if r == formulaBenchRows+1 {
				fm = fmt.Sprintf("SUM(C1:C%d)", formulaBenchRows)
			}
			row = append(row, excelize.Cell{Formula: fm})
		}
		cell, _ := excelize.CoordinatesToCellName(1, r)
		require.NoError(b, sw.SetRow(cell, row))
	}
	require.NoError(b, sw.Flush())
	require.NoError(b, f.SaveAs(path))
}

// BenchmarkWriteCellsFormulas measures what keeping cached formula values
// true costs one write_cells call (cache on, so the sheet parse is paid
// once): "plain" is a workbook without formulas, "formulas" the same with
// 20,001 formulas where the write reaches C1 and the total SUM(C1:C20000)
// (whose computation recomputes all 20,000 formulas it reads: excelize's
// calculator does not use cached values),
// "unrelated" a write there to a cell no formula reads (none recomputed,
// the dependency check still runs), and "format" a format_cells call, which
// skips both. Read formulas/plain as the cost of recomputing 20,001
// formulas per call, unrelated/plain as the cost of the dependency check.
func BenchmarkWriteCellsFormulas(b *testing.B) {
	dir := b.TempDir()
	writeFormulaBenchBook(b, filepath.Join(dir, "plain.xlsx"), false)
	writeFormulaBenchBook(b, filepath.Join(dir, "formulas.xlsx"), true)
	svc, err := New(dir)
	require.NoError(b, err)
	b.Cleanup(func() { _ = svc.Close() })
	runs := []struct {
		name string
		call func(context.Context, json.RawMessage) (any, error)
		args string
	}{
		{"plain", toolFunc(svc, "write_cells"), `{"file_path": "plain.xlsx", "cell": "A1", "value": 7}`},
		{"formulas", toolFunc(svc, "write_cells"), `{"file_path": "formulas.xlsx", "cell": "A1", "value": 7}`},
		{"unrelated", toolFunc(svc, "write_cells"), `{"file_path": "formulas.xlsx", "cell": "E1", "value": 7}`},
		{"format", toolFunc(svc, "format_cells"), `{"file_path": "formulas.xlsx", "cell_range": "A1", "font": {"bold": true}}`},
	}
	for _, r := range runs {
		b.Run(r.name, func(b *testing.B) {
			for b.Loop() {
				_, err := r.call(context.Background(), []byte(r.args))
				require.NoError(b, err)
			}
		})
	}
}
