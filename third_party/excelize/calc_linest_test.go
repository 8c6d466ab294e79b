// registry-sidecar: tests of LINEST and LOGEST (calc_linest.go), on
// Microsoft's documented examples and fits worked out by hand; LibreOffice
// checks more in tests/oracle/cases_functions.py. Run them with
// go test ./third_party/excelize -run Linest.

package excelize

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// linestBook holds Microsoft's examples: A1:B4 y {1,9,5,7} and x
// {0,4,2,3}; D1:E6 months 1..6 and sales; G1:H6 months 11..16 and units;
// J1:L5 y on two x columns, y = 3 + 2*x1 - x2 exactly.
func linestBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	rows := map[string][]any{
		"A1": {1, 0}, "A2": {9, 4}, "A3": {5, 2}, "A4": {7, 3},
		"D1": {1, 3100}, "D2": {2, 4500}, "D3": {3, 4400}, "D4": {4, 5400}, "D5": {5, 7500}, "D6": {6, 8100},
		"G1": {11, 33100}, "G2": {12, 47300}, "G3": {13, 69000}, "G4": {14, 102000}, "G5": {15, 150000}, "G6": {16, 220000},
		"J1": {3, 0, 0}, "J2": {6, 2, 1}, "J3": {4, 1, 1}, "J4": {10, 4, 1}, "J5": {5, 3, 4},
	}
	for cell, values := range rows {
		require.NoError(t, f.SetSheetRow("Sheet1", cell, &values))
	}
	return f
}

func TestLinestLogest(t *testing.T) {
	f := linestBook(t)
	for _, tc := range []struct {
		formula string
		want    []float64
	}{
		{"LINEST(A1:A4,B1:B4)", []float64{2, 1}},                     // Microsoft: slope 2, intercept 1
		{"LINEST(E1:E6,D1:D6)", []float64{1000, 2000}},               // Microsoft: month 9 is 11000
		{"LOGEST(H1:H6,G1:G6)", []float64{1.463275628, 495.3047702}}, // Microsoft's example
		{"LINEST(J1:J5,K1:L5)", []float64{-1, 2, 3}},                 // last x first
		{"LINEST(A1:A4,B1:B4,FALSE)", []float64{67.0 / 29, 0}},       // through 0: sum(xy)/sum(x^2), b 0
		{"LINEST(A1:A4,B1:B4,TRUE,FALSE)", []float64{2, 1}},
		{"LINEST(A1:A4,B1:B4,,)", []float64{2, 1}},                                                                  // omitted const and stats
		{"LINEST(E1:E6)", []float64{1000, 2000}},                                                                    // x 1..n
		{"LOGEST(A1:A4,B1:B4,FALSE)", []float64{math.Exp((4*math.Log(9) + 2*math.Log(5) + 3*math.Log(7)) / 29), 1}}, // b 1
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.formula))
		arr, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 24, MaxSteps: 1 << 20})
		require.NoError(t, err, tc.formula)
		require.Len(t, arr, 1, tc.formula)
		want := tc.want
		require.Len(t, arr[0], len(want), tc.formula)
		for i, w := range want {
			got, err := strconv.ParseFloat(arr[0][i].Value, 64)
			require.NoError(t, err, tc.formula)
			assert.InDelta(t, w, got, 1e-6, "%s [%d]", tc.formula, i)
		}
	}
	for formula, want := range map[string]string{
		"LINEST(A1:A4,B1:B3)":       "#REF!",
		"LINEST(A1:A4,B1:B4,,TRUE)": "#VALUE!", // statistics: not computed
		"LOGEST(B1:B4,A1:A4)":       "#NUM!",   // a y of 0
		"LINEST(A1,B1)":             "#NUM!",   // one point
		`LINEST(A1:A4,{"a";1;2;3})`: "#VALUE!",
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
		got, _ := f.CalcCellValue("Sheet1", "Z1")
		assert.Equal(t, want, got, formula)
	}
}
