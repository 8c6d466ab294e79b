package excelops

import (
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// TestLegacyArrayNeverStale: after an edit of what a legacy array formula
// over several cells reads, no cell of its range keeps a stale value or
// gets a guessed one. testdata/legacy_arrays.xlsx (scripts/
// legacy_array_fixture.py: openpyxl, then saved by LibreOffice) holds A1 =
// 1 and six legacy array formulas; legacy_arrays_after.xlsx is the same
// workbook with A1 = 5 as LibreOffice computes it. Each cell read after
// write_cells A1 = 5 is either without a value (the first cell reads as its
// formula, the others as nothing) or LibreOffice's value, and the workbook
// is marked for recalculation on open.
func TestLegacyArrayNeverStale(t *testing.T) {
	t.Parallel()
	e, lo := legacyArraysEdited(t)
	cases := []struct{ name, rng, formula string }{
		{"same size", "I1:I3", "=A1:A3*2"},
		{"one column over two", "K1:L3", "=A1:A3*2"},
		{"one value over 2x2", "N1:O2", "=SUM(A1:A3)"},
		{"array smaller than the range", "Q1:Q4", "=A1:A3*2"},
		{"column over a row", "S1:T1", "=A1:A3*2"},
		{"one cell written as a range", "X1:X1", "=SUM(A1:A3*2)"}, // as LibreOffice writes one
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := parseRange(tc.rng)
			require.NoError(t, err)
			got := e.ok("read_excel", map[string]any{"file_path": "a.xlsx", "range": tc.rng})
			rows, _ := got["values"].([]any)
			require.LessOrEqual(t, len(rows), r.r2-r.r1+1) // trailing rows without values are left out
			for y := r.r1; y <= r.r2; y++ {
				var row []any
				if y-r.r1 < len(rows) {
					row, _ = rows[y-r.r1].([]any)
				}
				for x := r.c1; x <= r.c2; x++ {
					ref := cellName(x, y)
					want, err := lo.GetCellValue("Sheet1", ref)
					require.NoError(t, err)
					require.NotEmpty(t, want, "LibreOffice's value of %s", ref)
					var v any
					if x-r.c1 < len(row) {
						v = row[x-r.c1]
					}
					none := v == nil || v == "" || (x == r.c1 && y == r.r1 && v == tc.formula)
					assert.True(t, none || fmt.Sprint(v) == want, "%s: read %v, LibreOffice %s", ref, v, want)
				}
			}
		})
	}
	calc, err := e.open("a.xlsx").GetCalcProps()
	require.NoError(t, err)
	require.NotNil(t, calc.FullCalcOnLoad)
	assert.True(t, *calc.FullCalcOnLoad)
}

// legacyArraysEdited copies testdata/legacy_arrays.xlsx into a new env as
// a.xlsx, writes A1 = 5 through write_cells, and returns the env with
// LibreOffice's workbook after the same edit (legacy_arrays_after.xlsx),
// closed when the test ends.
func legacyArraysEdited(t *testing.T) (*env, *excelize.File) {
	t.Helper()
	e := newEnv(t)
	start, err := os.ReadFile("testdata/legacy_arrays.xlsx")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(e.path("a.xlsx"), start, 0o644))
	lo, err := excelize.OpenFile("testdata/legacy_arrays_after.xlsx")
	require.NoError(t, err)
	t.Cleanup(func() { _ = lo.Close() })
	e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A1", "value": 5})
	return e, lo
}

// TestLegacyArrayReadersNeverStale: a plain formula reading cells of a
// legacy array formula's range other than its first is, after an edit the
// array reads, without a value or LibreOffice's (legacy_arrays*.xlsx).
func TestLegacyArrayReadersNeverStale(t *testing.T) {
	t.Parallel()
	e, lo := legacyArraysEdited(t)
	got := e.open("a.xlsx")
	for _, ref := range []string{"V1", "V2", "V3", "V4"} {
		want, err := lo.GetCellValue("Sheet1", ref)
		require.NoError(t, err)
		require.NotEmpty(t, want)
		v, err := got.GetCellValue("Sheet1", ref)
		require.NoError(t, err)
		assert.True(t, v == "" || v == want, "%s: %q, LibreOffice %q", ref, v, want)
	}
}
