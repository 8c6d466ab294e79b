package excelize

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// legacyArraysFile returns a workbook with A1:A3 = 1, 2, 3, B1:B3 = 11,
// 12, 13 and the legacy array formulas of arrays (first cell -> ref and
// formula), as excelops/testdata/legacy_arrays.xlsx holds them.
func legacyArraysFile(t *testing.T, arrays map[string][2]string) *File {
	t.Helper()
	f := NewFile()
	t.Cleanup(func() { _ = f.Close() })
	for i, v := range []int{1, 2, 3} {
		require.NoError(t, f.SetCellValue("Sheet1", "A"+string(rune('1'+i)), v))
		require.NoError(t, f.SetCellValue("Sheet1", "B"+string(rune('1'+i)), v+10))
	}
	array := STCellFormulaTypeArray
	for cell, rf := range arrays {
		ref := rf[0]
		require.NoError(t, f.SetCellFormula("Sheet1", cell, rf[1], FormulaOpts{Type: &array, Ref: &ref}))
	}
	return f
}

// TestLegacyArrayRead: a bounded calculation reading a cell of a legacy
// array formula over several cells reads the cell's element of the
// formula's array laid over the range, as LibreOffice 25.2 computes the
// shapes of excelops/testdata/legacy_arrays.xlsx (A1:A3 = 1, 2, 3): a
// column over two columns repeats, a sum fills its range, a column shorter
// than its range leaves #N/A, a column over a row repeats its first value,
// a range of one cell computes the formula whole; a plain formula reads the
// laid-out values, one by one or as a range.
func TestLegacyArrayRead(t *testing.T) {
	f := legacyArraysFile(t, map[string][2]string{
		"I1": {"I1:I3", "A1:A3*2"}, "K1": {"K1:L3", "A1:A3*2"}, "N1": {"N1:O2", "SUM(A1:A3)"},
		"Q1": {"Q1:Q4", "A1:A3*2"}, "S1": {"S1:T1", "A1:A3*2"}, "X1": {"X1:X1", "SUM(A1:A3*2)"},
		"Y1": {"Y1", "SUM(A1:A3)"},
	})
	require.NoError(t, f.SetCellFormula("Sheet1", "Z9", "A1+A2"))
	cases := []struct{ reads, want string }{
		{"I1", "2"}, {"I3", "6"},
		{"K1", "2"}, {"L1", "2"}, {"L2", "4"}, {"L3", "6"},
		{"N1", "6"}, {"O1", "6"}, {"N2", "6"}, {"O2", "6"},
		{"Q3", "6"}, {"Q4", "#N/A"},
		{"S1", "2"}, {"T1", "2"},
		{"X1", "12"},
		{"Y1", "6"}, {"Z9", "3"}, {"A1", "1"},
		{"SUM(N1:O2)", "24"}, {"SUM(I1:I3)+L3", "18"},
	}
	for _, tc := range cases {
		t.Run(tc.reads, func(t *testing.T) {
			f.clearCalcCache()
			require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.reads))
			got, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{})
			if tc.want != "#N/A" {
				require.NoError(t, err)
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestCalcLegacyArray: CalcLegacyArray returns the values of a legacy array
// formula's whole range (the shapes of TestLegacyArrayRead, plus a row
// over a taller range and a value over a range, as Microsoft's "Rules for
// changing array formulas" lays them), and refuses what it cannot compute:
// a function the calculator lacks, a formula reading its own range, a
// range past the limits, a cell holding no such formula.
func TestCalcLegacyArray(t *testing.T) {
	f := legacyArraysFile(t, map[string][2]string{
		"K1": {"K1:L3", "A1:A3*2"}, "Q1": {"Q1:Q4", "A1:A3*2"}, "D1": {"D1:F2", "TRANSPOSE(A1:A3)"},
		"H1": {"H1:H2", "A2"}, "M1": {"M1:M2", "NOSUCHFUNC(A1)"}, "P1": {"P1:P2", "SUM(P2,1)"},
		"R1": {"R1:S2", "1/0"}, "U1": {"U1:U100", "A1:A3"},
	})
	cases := []struct {
		cell string
		want [][]string
	}{
		{"K1", [][]string{{"2", "2"}, {"4", "4"}, {"6", "6"}}},
		{"Q1", [][]string{{"2"}, {"4"}, {"6"}, {"#N/A"}}},
		{"D1", [][]string{{"1", "2", "3"}, {"1", "2", "3"}}},
		{"H1", [][]string{{"2"}, {"2"}}},
		{"R1", [][]string{{"#DIV/0!", "#DIV/0!"}, {"#DIV/0!", "#DIV/0!"}}},
	}
	for _, tc := range cases {
		t.Run(tc.cell, func(t *testing.T) {
			got, err := f.CalcLegacyArray(context.Background(), "Sheet1", tc.cell, CalcLimits{})
			require.NoError(t, err)
			values := make([][]string, len(got))
			for r, row := range got {
				for _, v := range row {
					values[r] = append(values[r], v.Value)
				}
			}
			assert.Equal(t, tc.want, values)
		})
	}
	for cell, want := range map[string]error{"M1": ErrLegacyArrayRead, "P1": ErrLegacyArrayRead, "U1": ErrCalcLimit, "A1": nil} {
		t.Run("refused "+cell, func(t *testing.T) {
			_, err := f.CalcLegacyArray(context.Background(), "Sheet1", cell, CalcLimits{MaxBytes: 50 * formulaArgBytes})
			require.Error(t, err)
			if want != nil {
				assert.True(t, errors.Is(err, want), "%v", err)
			}
		})
	}
}

// TestLayOver: the lay-out rule, cell by cell, for each shape of array
// against its range (Microsoft, "Guidelines and examples of array
// formulas": a smaller array leaves #N/A, one row or column repeats).
func TestLayOver(t *testing.T) {
	n := newNumberFormulaArg
	na := newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	col := [][]formulaArg{{n(1)}, {n(2)}}
	row := [][]formulaArg{{n(1), n(2)}}
	cases := []struct {
		name       string
		m          [][]formulaArg
		rows, cols int
		want       [][]formulaArg
	}{
		{"same shape", [][]formulaArg{{n(1), n(2)}, {n(3), n(4)}}, 2, 2, [][]formulaArg{{n(1), n(2)}, {n(3), n(4)}}},
		{"larger array cut", [][]formulaArg{{n(1), n(2)}, {n(3), n(4)}}, 1, 1, [][]formulaArg{{n(1)}}},
		{"column repeats across", col, 2, 2, [][]formulaArg{{n(1), n(1)}, {n(2), n(2)}}},
		{"row repeats down", row, 3, 2, [][]formulaArg{{n(1), n(2)}, {n(1), n(2)}, {n(1), n(2)}}},
		{"value fills", [][]formulaArg{{n(7)}}, 2, 2, [][]formulaArg{{n(7), n(7)}, {n(7), n(7)}}},
		{"column too short", col, 3, 1, [][]formulaArg{{n(1)}, {n(2)}, {na}}},
		{"row too short", row, 1, 3, [][]formulaArg{{n(1), n(2), na}}},
		{"2x2 over 3x3", [][]formulaArg{{n(1), n(2)}, {n(3), n(4)}}, 3, 3, [][]formulaArg{{n(1), n(2), na}, {n(3), n(4), na}, {na, na, na}}},
		{"blank is 0", [][]formulaArg{{newEmptyFormulaArg()}}, 1, 1, [][]formulaArg{{n(0)}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, layOver(tc.m, tc.rows, tc.cols))
		})
	}
}

// TestLegacyArrayComputedOnce: a calculation reading every cell of a
// legacy array formula's range computes the array once: SUM over its 40
// cells takes fewer steps than two reads of one cell computing it.
func TestLegacyArrayComputedOnce(t *testing.T) {
	f := legacyArraysFile(t, map[string][2]string{"U1": {"U1:U40", "SUMPRODUCT(A1:A3*B1:B3)+ROW(A1:A40)*0"}})
	steps := func(formula string) int64 {
		f.clearCalcCache()
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		g := newCalcGuard(context.Background(), CalcLimits{})
		_, err := f.calcInPieces(g, "Sheet1!Z1", f.getOptions().MaxCalcIterations, "Sheet1", "Z1")
		require.NoError(t, err)
		require.NoError(t, g.failed())
		return g.steps
	}
	one, all := steps("U2"), steps("SUM(U1:U40)")
	assert.Less(t, all, 2*one, "one cell %d steps, the whole range %d", one, all)
	got, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{})
	require.NoError(t, err)
	assert.Equal(t, "2960", got) // 40 * (11 + 24 + 39)
}
