package recalc

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadersOfInexactLegacy: the formulas reading the range of a legacy
// array formula the engine cannot compute exactly, directly or through
// other formulas, a legacy array among them, are found; the others, and
// every formula of a workbook without such an array, are not.
func TestReadersOfInexactLegacy(t *testing.T) {
	t.Parallel()
	build := func(uncomputable bool) (*excelize.File, []sheetFormula) {
		f := excelize.NewFile()
		t.Cleanup(func() { _ = f.Close() })
		require.NoError(t, f.SetCellValue("Sheet1", "A1", 1))
		array := excelize.STCellFormulaTypeArray
		p := "IFERROR(INFO(\"numfile\")+A1,0)"
		if !uncomputable {
			p = "A1*2"
		}
		for cell, rf := range map[string][2]string{"P1": {"P1:P2", p}, "R1": {"R1:R2", "Q2*2"}} {
			ref := rf[0]
			require.NoError(t, f.SetCellFormula("Sheet1", cell, rf[1], excelize.FormulaOpts{Type: &array, Ref: &ref}))
		}
		for cell, formula := range map[string]string{"Q1": "P2+1", "Q2": "Q1+1", "Q3": "A1+1", "S1": "SUM(R1:R2)", "S2": "INDIRECT(\"A1\")"} {
			require.NoError(t, f.SetCellFormula("Sheet1", cell, formula))
		}
		all, ok, err := workbookFormulaCells(f, func(string) (bool, error) { return true, nil })
		require.NoError(t, err)
		require.True(t, ok)
		return f, all
	}
	f, all := build(true)
	got := readersOfInexactLegacy(f, all)
	require.Len(t, got, len(all))
	want := map[string]bool{"P1": true, "Q1": true, "Q2": true, "R1": true, "S1": true, "S2": true, "Q3": false}
	for i, sf := range all {
		assert.Equal(t, want[sf.Cell.Ref], got[i], sf.Cell.Ref)
	}
	f, all = build(false)
	assert.Nil(t, readersOfInexactLegacy(f, all))
}
