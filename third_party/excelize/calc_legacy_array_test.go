package excelize

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLegacyArrayRead: a bounded calculation reading any cell of a legacy
// array formula over several cells (its first or another) stops with
// ErrLegacyArrayRead, rather than compute from the per-cell rewrite
// (SUM(A1:A3) over N1:O2 reads as SUM(B1) in O1, where Excel has 6; over
// R1:R1 as SUM(A1)); a legacy array formula whose ref is one cell (Q1) and
// a plain formula are read as before.
func TestLegacyArrayRead(t *testing.T) {
	f := NewFile()
	for cell, v := range map[string]int{"A1": 1, "A2": 2, "A3": 3, "B1": 11} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	array := STCellFormulaTypeArray
	for cell, ref := range map[string]string{"N1": "N1:O2", "Q1": "Q1", "R1": "R1:R1"} {
		require.NoError(t, f.SetCellFormula("Sheet1", cell, "SUM(A1:A3)", FormulaOpts{Type: &array, Ref: &ref}))
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "S1", "A1+A2"))
	cases := []struct {
		reads   string
		want    string
		refused bool
	}{
		{"N1", "", true},
		{"O1", "", true},
		{"O2", "", true},
		{"Q1", "7", false},
		{"R1", "", true}, // R1:R1 is rewritten too: SUM(A1)
		{"S1", "4", false},
		{"A1", "2", false},
	}
	for _, tc := range cases {
		t.Run(tc.reads, func(t *testing.T) {
			require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.reads+"+1"))
			got, err := f.CalcCellValueContext(context.Background(), "Sheet1", "Z1", CalcLimits{})
			assert.Equal(t, tc.refused, errors.Is(err, ErrLegacyArrayRead), "%v", err)
			assert.Equal(t, tc.want, got)
		})
	}
}
