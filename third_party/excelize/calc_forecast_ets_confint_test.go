// registry-sidecar: tests of FORECAST.ETS.CONFINT
// (calc_forecast_ets_confint.go). Run them with go test
// ./third_party/excelize -run ForecastETSConfint.

package excelize

import (
	"context"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// confint computes formula in Z1 of f as a number (NaN and the text when
// it is not one).
func confint(t *testing.T, f *File, formula string) (float64, string) {
	t.Helper()
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", formula))
	got, _ := f.CalcCellValue("Sheet1", "Z1", Options{RawCellValue: true})
	v, err := strconv.ParseFloat(got, 64)
	if err != nil {
		return math.NaN(), got
	}
	return v, got
}

// TestForecastETSConfint checks the interval of a model without a season
// (seasonality 0, Calc's closed form) against LibreOffice 25.2's
// FORECAST.ETS.PI.ADD on etsBook (tests/oracle/lo_driver.py), within a
// relative 1e-9: one and several steps past the data, confidence levels,
// the default level, a monthly timeline, a target between steps, and a
// timeline of step 2, where Calc interpolates by the remainder of the
// distance itself (a step and a half ahead is the second step's value).
// Then the errors: a confidence level outside (0, 1) is #NUM!, as
// Microsoft documents (Calc answers Err:502 below 0 or above 1 and 0 at
// 0), a target before the end of the timeline #NUM! (Calc and Microsoft),
// a fractional seasonality #NUM!, too many arguments #VALUE!.
func TestForecastETSConfint(t *testing.T) {
	f := etsBook(t)
	const step2 = "{2;4;6;8;10;12;14;16;18;20;22;24;26;28;30;32}"
	for _, tc := range []struct{ formula, want string }{
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,0)", "9.93515538171639"},
		{"_xlfn.FORECAST.ETS.CONFINT(18,B1:B16,A1:A16,0.95,0)", "16.146581829729197"},
		{"FORECAST.ETS.CONFINT(20.5,B1:B16,A1:A16,0.9,0)", "27.122115007739943"},
		{"FORECAST.ETS.CONFINT(25,B1:B16,A1:A16,0.5,0)", "8.182308676367201"},
		{"FORECAST.ETS.CONFINT(17,B1:B8,A1:A8,,0)", "70.75256423144833"},
		{"FORECAST.ETS.CONFINT(45700,D1:D12,C1:C12,0.95,0)", "4.120869463038304"},
		{"FORECAST.ETS.CONFINT(45720,D1:D12,C1:C12,0.8,0)", "2.666012010918069"},
		{"FORECAST.ETS.CONFINT(17.5,B1:B16,A1:A16,0.95,0)", "13.040868605722792"},
		{"FORECAST.ETS.CONFINT(35,B1:B16," + step2 + ",0.95,0)", "16.146581829729197"},
		{"FORECAST.ETS.CONFINT(37,B1:B16," + step2 + ",0.95,0)", "23.859854601280006"},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,1.5,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,-0.1,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,1,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(10,B1:B16,A1:A16,0.95,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16," + step2 + ",0.95,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,0.5)", "#NUM!"},
		{`FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,"x",0)`, "#VALUE!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,0,1,1,1)", "#VALUE!"},
		{"FORECAST.ETS.CONFINT(17,B1:B16)", "#VALUE!"},
		{"FORECAST.ETS.CONFINT(1/0,B1:B16,A1:A16)", "#DIV/0!"},
	} {
		v, got := confint(t, f, tc.formula)
		want, err := strconv.ParseFloat(tc.want, 64)
		if err != nil {
			assert.Equal(t, tc.want, got, tc.formula)
			continue
		}
		assert.InDelta(t, want, v, 1e-9*want, tc.formula)
	}
}

// TestForecastETSConfintSeasonal checks the interval of a seasonal model,
// which Calc reads from 1,000 random paths and so gives differently each
// time. LibreOffice 25.2 computed each formula in 200 cells at once; the
// least and greatest of its 200 values are below (the same spread
// tests/python/test_forecast_confint_oracle.py checks through the tools).
// Ours must lie within it, widened by 15% of its bounds on each side (200
// draws are not the whole distribution), and must be the same at every
// calculation.
func TestForecastETSConfintSeasonal(t *testing.T) {
	f := etsBook(t)
	for _, tc := range []struct {
		formula string
		lo, hi  float64
	}{
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,4)", 0.5957203692187782, 0.7730436537388528},
		{"FORECAST.ETS.CONFINT(20,B1:B16,A1:A16,0.95,4)", 0.5838879489615678, 0.7845507065968427},
		{"FORECAST.ETS.CONFINT(18,B1:B16,A1:A16)", 0.5754050354016265, 0.7815120403480549},
		{"FORECAST.ETS.CONFINT(22.5,B1:B16,A1:A16,0.9,4)", 0.6576881184857566, 0.7971210844442709},
		{"FORECAST.ETS.CONFINT(19,B1:B16,A1:A16,0.95,3)", 8.072940963923589, 10.355924890591169},
		{"FORECAST.ETS.CONFINT(30,B1:B16,A1:A16,0.95,4)", 1.0258215405181517, 1.359707057054905},
		{"FORECAST.ETS.CONFINT(45700,D1:D12,C1:C12)", 0.34904111770004936, 0.43263262318264806},
		{"FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,4,1,2)", 0.5858946086626311, 0.7576414135660343},
	} {
		v, got := confint(t, f, tc.formula)
		assert.GreaterOrEqual(t, v, tc.lo*0.85, tc.formula, got)
		assert.LessOrEqual(t, v, tc.hi*1.15, tc.formula, got)
		again, _ := confint(t, f, tc.formula)
		assert.Equal(t, v, again, tc.formula)
	}
}

// TestForecastETSConfintBounds checks what no LibreOffice value covers.
// Within the first step past the data, where Calc reads past the end of
// its table (LibreOffice 25.2 gives 9.935 x 0.75 at 16.25, as if it read
// 0 there), the interval grows in proportion from 0 at the last point to
// the first step's; the last point itself is #NUM! (Calc: Err:502). A
// target too far for the model's index is #NUM!; a seasonal one
// a million steps ahead is left uncomputed without a step budget and
// stops at one; several target dates are the intervals of each (the call
// lifted over them, as Excel 365 does: the target date is the one
// parameter taking one value, the values and the timeline are taken
// whole).
func TestForecastETSConfintBounds(t *testing.T) {
	f := etsBook(t)
	first, _ := confint(t, f, "FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,0)")
	_, at := confint(t, f, "FORECAST.ETS.CONFINT(16,B1:B16,A1:A16,0.95,0)")
	quarter, _ := confint(t, f, "FORECAST.ETS.CONFINT(16.25,B1:B16,A1:A16,0.95,0)")
	assert.Equal(t, "#NUM!", at)
	assert.InDelta(t, first/4, quarter, 1e-12)
	seasonal, _ := confint(t, f, "FORECAST.ETS.CONFINT(17,B1:B16,A1:A16,0.95,4)")
	seasonalHalf, _ := confint(t, f, "FORECAST.ETS.CONFINT(16.5,B1:B16,A1:A16,0.95,4)")
	assert.InDelta(t, seasonal/2, seasonalHalf, 1e-12)
	checkArrays(t, f, []struct{ formula, want string }{
		{"FORECAST.ETS.CONFINT(1E+300,B1:B16,A1:A16,0.95,0)", "#NUM!"},
		{"FORECAST.ETS.CONFINT(1E+9,B1:B16,A1:A16,0.95,4)", uncomputed},
		{"FORECAST.ETS.CONFINT({17;18},B1:B16,A1:A16,0.95,0)", "9.93515538171639;16.1465818297292"},
		{"FORECAST.ETS.CONFINT({17,10},B1:B16,A1:A16,0.95,0)", "9.93515538171639,#NUM!"},
	})
	for _, name := range []string{"FORECAST.ETS", "FORECAST.ETS.CONFINT"} {
		assert.True(t, LiftsParameter(name, 0), name)
		assert.False(t, LiftsParameter(name, 1), name)
		assert.False(t, LiftsParameter(name, 2), name)
		assert.True(t, LiftsParameter(name, 3), name)
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "Z2", "FORECAST.ETS.CONFINT(5E+4,B1:B16,A1:A16,0.95,4)"))
	_, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z2", CalcLimits{MaxSteps: 20_000_000})
	assert.ErrorIs(t, err, ErrCalcLimit)
}
