package tools

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLegacyArrayAsLibreOffice: after an edit of what legacy array formulas
// over several cells read, every cell of each range holds LibreOffice's
// value, read back through read_excel, and its type as LibreOffice stores
// it (t="str" for a text, as Excel too). testdata/legacy_arrays.xlsx
// (scripts/legacy_array_fixture.py: openpyxl, then saved by LibreOffice)
// holds A1 = 1 and the shapes below; legacy_arrays_after.xlsx is the same
// workbook with A1 = 5 as LibreOffice computes it. The cells of the range
// other than the first keep no formula, as Excel stores them. A formula the
// engine cannot compute (INFO) leaves every cell of its range without a
// value (the first reads as its formula), never a stale or guessed one, and
// the workbook is marked for recalculation on open.
func TestLegacyArrayAsLibreOffice(t *testing.T) {
	t.Parallel()
	e, lo := legacyArraysEdited(t)
	cases := []struct {
		name, rng, formula string
		computed           bool
	}{
		{"same size", "I1:I3", "=A1:A3*2", true},
		{"one column over two", "K1:L3", "=A1:A3*2", true},
		{"one value over 2x2", "N1:O2", "=SUM(A1:A3)", true},
		{"array smaller than the range", "Q1:Q4", "=A1:A3*2", true},
		{"column over a row", "S1:T1", "=A1:A3*2", true},
		{"one cell written as a range", "X1:X1", "=SUM(A1:A3*2)", true}, // as LibreOffice writes one
		{"3x2 over 4x3", "D6:F9", "=A1:B3*1", true},
		{"one row over a taller range", "H6:J8", "=TRANSPOSE(A1:A3)", true},
		{"a scalar over a range", "O6:P8", "=A1*3", true},
		{"texts", "R6:R8", `=IF(A1:A3>1,"big","small")`, true},
		{"a function the engine lacks", "Z6:Z8", `=IFERROR(INFO("numfile")*0+A1:A3,0)`, false},
	}
	book := e.open("a.xlsx")
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, err := grid.ParseRange(tc.rng)
			require.NoError(t, err)
			got := e.ok("read_excel", map[string]any{"file_path": "a.xlsx", "range": tc.rng})
			rows, _ := got["values"].([]any)
			require.LessOrEqual(t, len(rows), r.R2-r.R1+1) // trailing rows without values are left out
			for y := r.R1; y <= r.R2; y++ {
				var row []any
				if y-r.R1 < len(rows) {
					row, _ = rows[y-r.R1].([]any)
				}
				for x := r.C1; x <= r.C2; x++ {
					ref := grid.CellName(x, y)
					var v any
					if x-r.C1 < len(row) {
						v = row[x-r.C1]
					}
					if !tc.computed {
						none := v == nil || v == "" || (x == r.C1 && y == r.R1 && v == tc.formula)
						assert.True(t, none, "%s: read %v, want no value", ref, v)
						continue
					}
					want, err := lo.GetCellValue("Sheet1", ref)
					require.NoError(t, err)
					require.NotEmpty(t, want, "LibreOffice's value of %s", ref)
					assert.Equal(t, want, fmt.Sprint(v), "%s", ref)
					_, isNumber := v.(float64)
					_, perr := strconv.ParseFloat(want, 64)
					assert.Equal(t, perr == nil, isNumber, "%s: %v (%T) is a number as LibreOffice's %q", ref, v, v, want)
					ours, theirs := recalc.ParsedCell(book, "Sheet1", ref), recalc.ParsedCell(lo, "Sheet1", ref)
					require.NotNil(t, ours, ref)
					require.NotNil(t, theirs, ref)
					assert.Equal(t, recalc.CachedKind(theirs.T), recalc.CachedKind(ours.T), "%s: the cell's type as LibreOffice stores it", ref)
					if x != r.C1 || y != r.R1 {
						formula, err := book.GetCellFormula("Sheet1", ref)
						require.NoError(t, err)
						assert.Empty(t, formula, "%s holds only a value", ref)
					}
				}
			}
		})
	}
	calc, err := book.GetCalcProps()
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
	e, _ := legacyArraysCopied(t)
	lo, err := excelize.OpenFile("testdata/legacy_arrays_after.xlsx")
	require.NoError(t, err)
	t.Cleanup(func() { _ = lo.Close() })
	e.ok("write_cells", map[string]any{"file_path": "a.xlsx", "cell": "A1", "value": 5})
	return e, lo
}

// legacyArraysCopied returns an env whose workspace holds
// testdata/legacy_arrays.xlsx as a.xlsx, and the bytes copied.
func legacyArraysCopied(t *testing.T) (*env, []byte) {
	t.Helper()
	e := newEnv(t)
	start, err := os.ReadFile("testdata/legacy_arrays.xlsx")
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(e.path("a.xlsx"), start, 0o644))
	return e, start
}

// TestLegacyArrayReadersAsLibreOffice: plain formulas reading cells of
// legacy array formulas' ranges, one by one or as whole ranges (SUM(K1:L3),
// #N/A past a smaller array, a text), hold LibreOffice's values after an
// edit the arrays read (legacy_arrays*.xlsx); one reading the range of a
// formula the engine cannot compute (V8 reads Z7) is left without a value,
// never the engine's guess.
func TestLegacyArrayReadersAsLibreOffice(t *testing.T) {
	t.Parallel()
	e, lo := legacyArraysEdited(t)
	got := e.open("a.xlsx")
	for _, ref := range []string{"V1", "V2", "V3", "V4", "V5", "V6", "V7", "V8", "V9", "V10"} {
		want, err := lo.GetCellValue("Sheet1", ref)
		require.NoError(t, err)
		require.NotEmpty(t, want)
		v, err := got.GetCellValue("Sheet1", ref)
		require.NoError(t, err)
		if ref == "V8" {
			assert.Empty(t, v, "%s: LibreOffice %q", ref, want)
			continue
		}
		assert.Equal(t, want, v, "%s", ref)
	}
}

// TestLegacyArrayOverItsRange: legacyArrayValues gives every cell of a
// legacy array formula's range, typed as the file stores it: SUM(B1:C1*
// B2:C2) over G1:G3 is 1030 in each cell (21*30+10*40, as LibreOffice
// judged it in the corpus's autofit12.xlsx), the column B1:B2*2 over J1:K2
// repeats across both columns, texts are stored as formula strings; a
// function the engine lacks, or an operator on a range inside a function
// that takes neither (recalc.InexactInArrays), gives nothing.
func TestLegacyArrayOverItsRange(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	defer f.Close()
	for ref, v := range map[string]int{"B1": 21, "C1": 10, "B2": 30, "C2": 40} {
		require.NoError(t, f.SetCellValue("Sheet1", ref, v))
	}
	array := excelize.STCellFormulaTypeArray
	for cell, rf := range map[string][2]string{
		"G1": {"G1:G3", "SUM(B1:C1*B2:C2)"}, "J1": {"J1:K2", "B1:B2*2"}, "M1": {"M1:N1", `IF(B1:C1>15,"big","small")`},
		"P1": {"P1:P2", "IFERROR(INFO(\"numfile\")+B1:B2,0)"}, "R1": {"R1:R2", `COUNTIF(B1:B2*2,">50")`},
	} {
		ref := rf[0]
		require.NoError(t, f.SetCellFormula("Sheet1", cell, rf[1], excelize.FormulaOpts{Type: &array, Ref: &ref}))
	}
	cases := []struct {
		cell string
		want [][]recalc.CachedCell
	}{
		{"G1", [][]recalc.CachedCell{{{Type: "", Value: "1030"}}, {{Type: "", Value: "1030"}}, {{Type: "", Value: "1030"}}}},
		{"J1", [][]recalc.CachedCell{{{Type: "", Value: "42"}, {Type: "", Value: "42"}}, {{Type: "", Value: "60"}, {Type: "", Value: "60"}}}},
		{"M1", [][]recalc.CachedCell{{{Type: "str", Value: "big"}, {Type: "str", Value: "small"}}}},
		{"P1", nil},
		{"R1", nil},
	}
	for _, tc := range cases {
		t.Run(tc.cell, func(t *testing.T) {
			got, err := recalc.LegacyArrayValues(context.Background(), f, limits.DefaultLimits().Calc(), "Sheet1", tc.cell)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestLegacyArrayPartWriteRefused: write_cells refuses to write some but
// not all cells of a legacy array formula's range, as Excel does ("You
// can't change part of an array"), and changes nothing; writing the whole
// range, or a one-cell array, replaces the array. K1:L3 holds =A1:A3*2
// and X1:X1 =SUM(A1:A3*2) in testdata/legacy_arrays.xlsx.
func TestLegacyArrayPartWriteRefused(t *testing.T) {
	t.Parallel()
	refused := []struct {
		name string
		args map[string]any
	}{
		{"a cell other than the first", map[string]any{"cell": "L2", "value": 99}},
		{"the first cell alone", map[string]any{"cell": "K1", "value": "=A1"}},
		{"a block over part of it", map[string]any{"cell_range": "J2", "values": [][]any{{1, 2, 3}}}},
		{"a ragged block missing one cell", map[string]any{"cell_range": "K1", "values": [][]any{{1, 2}, {3, 4}, {5}}}},
	}
	for _, tc := range refused {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, start := legacyArraysCopied(t)
			tc.args["file_path"] = "a.xlsx"
			p := e.fail("write_cells", tc.args)
			assert.Equal(t, "ValueError", p["exception"], p)
			assert.Contains(t, p["message"], "part of the array formula in K1:L3 (anchored at K1)")
			after, err := os.ReadFile(e.path("a.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, start, after, "nothing written")
		})
	}
	allowed := []struct {
		name  string
		args  map[string]any
		cell  string
		want  string
		first string // the array's first cell, which keeps no formula
	}{
		{"the whole range", map[string]any{"cell_range": "K1", "values": [][]any{{1, 2}, {3, 4}, {5, 6}}}, "L3", "6", "K1"},
		{"a one-cell array", map[string]any{"cell": "X1", "value": 7}, "X1", "7", "X1"},
	}
	for _, tc := range allowed {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e, _ := legacyArraysCopied(t)
			tc.args["file_path"] = "a.xlsx"
			e.ok("write_cells", tc.args)
			book := e.open("a.xlsx")
			got, err := book.GetCellValue("Sheet1", tc.cell)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
			assert.Empty(t, mustFormula(t, book, "Sheet1", tc.first), "the array is replaced")
		})
	}
}
