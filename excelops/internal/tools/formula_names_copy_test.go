package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopiedFormulasNameWhatExists: a formula copied into another workbook
// that lacks the sheet or defined name it reads is refused, as a formula
// written there would be, with the values-only way out; nothing is
// written. Within one workbook, and with values_only, the copy goes
// through.
func TestCopiedFormulasNameWhatExists(t *testing.T) {
	t.Parallel()
	e := newEnvOf(t, t.TempDir(), []string{"copy_range_between_sheets"})
	src := excelize.NewFile()
	_, err := src.NewSheet("Prices")
	require.NoError(t, err)
	require.NoError(t, src.SetCellValue("Prices", "A1", 5))
	require.NoError(t, src.SetDefinedName(&excelize.DefinedName{Name: "TaxRate", RefersTo: "Prices!$A$1"}))
	require.NoError(t, src.SetCellValue("Sheet1", "A1", 2))
	require.NoError(t, src.SetCellFormula("Sheet1", "B1", "Prices!A1*2"))
	require.NoError(t, src.SetCellFormula("Sheet1", "C1", "TaxRate*A1"))
	require.NoError(t, src.SaveAs(e.path("src.xlsx")))
	require.NoError(t, src.Close())
	e.workbook("dst.xlsx", [][]any{{"x"}})
	before := readFile(t, e.path("dst.xlsx"))

	p := e.fail("copy_range_between_sheets", map[string]any{"source_file": "src.xlsx", "source_range": "Sheet1!A1:B1", "target_file": "dst.xlsx", "target_start": "A3"})
	assert.Equal(t, "KeyError", p["exception"])
	assert.Contains(t, p["message"], `"Prices"`)
	assert.Contains(t, p["message"], "values_only=true")
	p = e.fail("copy_range_between_sheets", map[string]any{"source_file": "src.xlsx", "source_range": "Sheet1!C1", "target_file": "dst.xlsx", "target_start": "A3"})
	assert.Equal(t, "ValueError", p["exception"])
	assert.Contains(t, p["message"], `"TaxRate"`)
	assert.Equal(t, before, readFile(t, e.path("dst.xlsx")), "nothing was written")

	e.ok("copy_range_between_sheets", map[string]any{"source_file": "src.xlsx", "source_range": "Sheet1!A1:C1", "target_file": "dst.xlsx", "target_start": "A3", "values_only": true})
	e.ok("copy_range_between_sheets", map[string]any{"source_file": "src.xlsx", "source_range": "Sheet1!A1:C1", "target_start": "A5"})
	f := e.open("src.xlsx")
	formula, err := f.GetCellFormula("Sheet1", "B5")
	require.NoError(t, err)
	assert.Equal(t, "Prices!A5*2", formula, "within the workbook the sheet exists")
}
