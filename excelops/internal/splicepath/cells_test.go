package splicepath

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestExcelFloatMatchesExcelize: excelFloat stores what excelize's
// SetCellFloat stores, for awkward and random floats.
func TestExcelFloatMatchesExcelize(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	vals := []float64{0, 0.1 + 0.2, 1.0 / 3, 1e-7, -2.5e-10, 123456789.123456789, 1e20, 12345678901234567890, -0.5,
		45322.57326967593, math.MaxFloat64, math.SmallestNonzeroFloat64}
	rng := rand.New(rand.NewPCG(3, 3))
	for range 500 {
		vals = append(vals, (rng.Float64()-0.5)*math.Pow(10, float64(rng.IntN(40)-20)))
	}
	for _, v := range vals {
		require.NoError(t, f.SetCellFloat("Sheet1", "A1", v, -1, 64))
		want, err := f.GetCellValue("Sheet1", "A1", excelize.Options{RawCellValue: true})
		require.NoError(t, err)
		assert.Equal(t, want, excelFloat(v), "%v", v)
	}
}
