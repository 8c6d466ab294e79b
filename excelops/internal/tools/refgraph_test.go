package tools

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestImpactNamesDynamicFormulasApart(t *testing.T) {
	e := newEnv(t)
	e.workbook("d.xlsx", [][]any{{1, 2}})
	f := e.open("d.xlsx")
	assert.NoError(t, f.SetCellFormula("Sheet1", "C1", `INDIRECT("A"&B1)`))
	assert.NoError(t, f.SetCellFormula("Sheet1", "D1", "A1*2"))
	assert.NoError(t, f.Save())
	got := e.ok("get_impact_analysis", map[string]any{"file_path": "d.xlsx", "target": "A1"})
	assert.Equal(t, []any{"Sheet1!C1"}, got["dynamic_formulas"])
	assert.Equal(t, []string{"Sheet1!D1@1"}, dependentCells(got["direct_impact"]))
}
