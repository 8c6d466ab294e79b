package engine

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/stretchr/testify/require"
)

// BenchmarkFormulaNamesWrite is the name check of a 10,000-formula write
// (one scope per call), beside the syntax check every formula gets anyway.
func BenchmarkFormulaNamesWrite(b *testing.B) {
	scope := func() *recalc.FormulaScope {
		return recalc.NewFormulaScope([]string{"Sheet1", "Sheet2", "Q1 Plan"}, []recalc.ScopedName{{Name: "TaxRate"}},
			func() []recalc.TableInfo { return nil })
	}
	plan := make([]CellWrite, 10000)
	for i := range plan {
		w, err := PlanCell(3, i+1, "=SUM(Sheet2!A1:A9)*TaxRate+'Q1 Plan'!B2", ValueTypesAuto)
		require.NoError(b, err)
		plan[i] = w
	}
	b.Run("syntax", func(b *testing.B) {
		for range b.N {
			for _, w := range plan {
				_ = recalc.ParseFormula(w.Formula)
			}
		}
	})
	b.Run("names", func(b *testing.B) {
		for range b.N {
			_ = CheckWriteNames(plan, "Sheet1", scope)
		}
	})
}
