package excelize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestErrorArguments checks Excel's rule for an error given as an
// argument: passed on by ordinary functions, looked at by the IS and IFERROR
// functions, ignored where a function chooses another argument, counts,
// or reads the reference rather than the value.
func TestErrorArguments(t *testing.T) {
	f := NewFile()
	defer f.Close()
	require.NoError(t, f.SetCellFormula("Sheet1", "A1", "1/0"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A2", "NA()"))
	require.NoError(t, f.SetCellValue("Sheet1", "A3", "text"))
	for formula, want := range map[string]string{
		"LEN(A1)":        "#DIV/0!",
		"AND(A1,TRUE)":   "#DIV/0!",
		"GCD(A2,18)":     "#N/A",
		"UPPER(A2)":      "#N/A",
		"CONCAT(A3,A1)":  "#DIV/0!",
		"ABS(A2)":        "#N/A",
		"ISERROR(A1)":    "TRUE",
		"ISNA(A2)":       "TRUE",
		"IFERROR(A1,5)":  "5",
		"IFNA(A2,6)":     "6",
		"IF(TRUE,1,A1)":  "1",
		"CHOOSE(2,A1,7)": "7",
		"COUNT(A1,A2,1)": "1",
		"ROW(A1)":        "1",
		"COLUMN(A2)":     "1",
		"ERROR.TYPE(A2)": "7",
		"ISNUMBER(A1)":   "FALSE",
		"LEN(A3)":        "4",
		"SUM(1,2)":       "3",
		"TYPE(A1)":       "16",
	} {
		require.NoError(t, f.SetCellFormula("Sheet1", "B1", formula))
		got, _ := f.CalcCellValue("Sheet1", "B1")
		assert.Equal(t, want, got, formula)
	}
}
