// registry-sidecar: tests of FORECAST.ETS, FORECAST.ETS.SEASONALITY and
// FORECAST.ETS.STAT (calc_forecast_ets*.go). Run them with go test
// ./third_party/excelize -run ForecastETS.

package excelize

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// etsBook holds A1:A16 the timeline 1..16 and B1:B16 a series with a
// season of 4 and a rising trend; C1:C12 the first days of the months of
// 2024 and D1:D12 values for them.
func etsBook(t *testing.T) *File {
	t.Helper()
	f := NewFile()
	ys := []float64{12, 15, 20, 11, 14, 18, 23, 13, 16, 21, 26, 15, 18, 24, 29, 17}
	for i, y := range ys {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", i+1), i+1))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("B%d", i+1), y))
	}
	zs := []float64{5, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14, 17}
	days := []int{0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335}
	for i, z := range zs {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("C%d", i+1), 45292+days[i]))
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("D%d", i+1), z))
	}
	return f
}

// TestForecastETS checks the three functions against LibreOffice 25.2's
// FORECAST.ETS.ADD, FORECAST.ETS.SEASONALITY and FORECAST.ETS.STAT.ADD on
// etsBook (computed with tests/oracle/lo_driver.py), within a relative
// 1e-9: forecasts past the data and between its points, a season given,
// detected or none, a monthly timeline, a gap filled by the mean of its
// neighbours or by 0, the fit's statistics, a target 1E+12 steps ahead,
// and the errors of a target before the data and of a season longer than
// half the data.
func TestForecastETS(t *testing.T) {
	f := etsBook(t)
	for _, tc := range []struct{ formula, want string }{
		{"FORECAST.ETS(17,B1:B16,A1:A16)", "20.5"},
		{"_xlfn.FORECAST.ETS(20.5,B1:B16,A1:A16)", "21.5"},
		{"FORECAST.ETS(10.5,B1:B16,A1:A16)", "23.25"},
		{"FORECAST.ETS.SEASONALITY(B1:B16,A1:A16)", "4"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,1)", "0"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,2)", "0"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,3)", "1"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,4)", "0.059689922480620154"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,5)", "0.019318637723447475"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,6)", "0.36666666666666664"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,7)", "0.4281744192888376"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,8)", "1"},
		{"FORECAST.ETS(18,B1:B16,A1:A16,0)", "23.412597229400365"},
		{"FORECAST.ETS(18,B1:B16,A1:A16,4)", "26.5"},
		{"FORECAST.ETS(18,B1:B16,A1:A16,3)", "28.669718398994664"},
		{"FORECAST.ETS(45700,D1:D12,C1:C12)", "18.607142857141298"},
		{"FORECAST.ETS.SEASONALITY(D1:D12,C1:C12)", "2"},
		{"FORECAST.ETS(14,D1:D12,A1:A12)", "19"},
		{"FORECAST.ETS.STAT(B1:B16,A1:A16,2,0)", "0.0625"},
		{"FORECAST.ETS(18,B1:B8,{1;2;3;5;6;7;8;9})", "19.472530179418335"},
		{"FORECAST.ETS(18,B1:B8,{1;2;3;5;6;7;8;9},1,0)", "-6.340506345500231"},
		{"FORECAST.ETS(1E+12,B1:B16,A1:A16)", "625000000007.5"},
		{"FORECAST.ETS(0,B1:B16,A1:A16)", "#NUM!"},
		{"FORECAST.ETS(18,B1:B16,A1:A16,9)", "#VALUE!"},
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.formula))
		got, err := f.CalcCellValue("Sheet1", "Z1", Options{RawCellValue: true})
		want, werr := strconv.ParseFloat(tc.want, 64)
		g, gerr := strconv.ParseFloat(got, 64)
		if werr != nil || gerr != nil {
			assert.Equal(t, tc.want, got, tc.formula)
			continue
		}
		require.NoError(t, err, tc.formula)
		assert.InDelta(t, want, g, 1e-9*max(1, abs(want)), tc.formula)
	}
}

// abs is |v|.
func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestForecastETSBounds checks what no LibreOffice value covers: a target
// too far for the model's index is #NUM!, a series that ties into one
// point is #VALUE!, several target dates are the forecasts of each (the
// call lifted over them, calc_array_lift.go), and a long series stops at
// the step budget.
func TestForecastETSBounds(t *testing.T) {
	f := etsBook(t)
	checkArrays(t, f, []struct{ formula, want string }{
		{"FORECAST.ETS(1E+300,B1:B16,A1:A16)", "#NUM!"},
		{"FORECAST.ETS(2,{1;2},{1;1})", "#VALUE!"},
		{"FORECAST.ETS(2,B1:B16)", uncomputed},
		{"FORECAST.ETS({17;18},B1:B16,A1:A16)", "20.5;26.5"},
	})
	require.NoError(t, f.SetCellFormula("Sheet1", "Z2", "FORECAST.ETS(17,B1:B16,A1:A16)"))
	_, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z2", CalcLimits{MaxSteps: 10000})
	assert.ErrorIs(t, err, ErrCalcLimit)
}
