package excelize

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestImplicitIntersection checks the @ operator, written @ or as a file
// stores it (_xlfn.SINGLE), as Microsoft's "Implicit intersection
// operator: @" documents it: of a range, the cell on the formula's row (a
// column) or column (a row), #VALUE! when there is none; of an array, its
// first value; of a value, the value. opsBook holds A1:A5 1..5, B1:B5
// 8,6,4,2,0, Sheet2!B2 42.
func TestImplicitIntersection(t *testing.T) {
	f := opsBook(t)
	_, err := f.NewSheet("Sheet2")
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Sheet2", "B2", 42))
	cases := []struct{ cell, formula, want string }{
		{"D3", "@A1:A5", "3"},
		{"D5", "_xlfn.SINGLE(A1:A5)", "5"},
		{"D4", "@$B$1:$B$5*10", "20"},
		{"D1", "@A2:A5", "#VALUE!"},
		{"B7", "@A1:C1", "8"},
		{"E7", "@A1:C1", "#VALUE!"},
		{"B2", "@Sheet2!A1:C5", "42"},
		{"D9", "SUM(@A1:A5)", "#VALUE!"},
		{"D2", "SUM(@A1:A5,10)", "12"},
		{"D6", "_xlfn.SINGLE(SEQUENCE(3)+5)", "6"},
		{"D6", "_xlfn.SINGLE(7)", "7"},
	}
	for _, tc := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", tc.cell, tc.formula))
		got, _ := f.CalcCellValue("Sheet1", tc.cell)
		assert.Equal(t, tc.want, got, "%s =%s", tc.cell, tc.formula)
		require.NoError(t, f.SetCellValue("Sheet1", tc.cell, nil))
	}
}
