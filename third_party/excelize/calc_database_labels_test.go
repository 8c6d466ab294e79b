package excelize

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestDatabaseLabels checks how the database functions read the labels of
// their database and criteria ranges, on the corpus's data block with its
// database A8:C11 (criteria E8:E9) and the labels of E1:E3 (errors) and
// D1:E1 (a number, then #N/A). Expected values: LibreOffice 25.2, its
// Err:504 (parameter error) as #VALUE!.
func TestDatabaseLabels(t *testing.T) {
	f := corpusBook(t)
	defer f.Close()
	for cell, v := range map[string]any{
		"A8": "Item", "B8": "Qty", "C8": "Price", "A9": "pen", "B9": 3, "C9": 1.5,
		"A10": "ink", "B10": 5, "C10": 4, "A11": "pen", "B11": 2, "C11": 1.25, "E8": "Item", "E9": "pen",
	} {
		require.NoError(t, f.SetCellValue("Sheet1", cell, v))
	}
	checkCorpusFormulas(t, f, map[string]string{
		// a field naming no column, the header ending in an error: that error
		`DSUM(E1:E3,"Price",E8:E9)`:  "#N/A",
		`DGET(E1:E3,"Price",E8:E9)`:  "#N/A",
		`DMAX(E1:E3,"Qty",E8:E9)`:    "#N/A",
		`DCOUNT(E1:E3,"Qty",E8:E9)`:  "#N/A",
		`DSUM(D1:E1,"Qty",E8:E9)`:    "#N/A",
		`DMAX(E1:E3,"Qty",H5:H8)`:    "#N/A", // before the criteria's error
		`DSUM(D1:D6,"Price",E8:E9)`:  "#VALUE!",
		`DSUM(A8:C11,"Zzz",E8:E9)`:   "#VALUE!",
		`DSUM(A8:C11,"Price",E8:E9)`: "2.75",
		// a criteria label naming no column, a blank one included
		`DCOUNT(A8:C11,"Qty",H5:H8)`:     "#VALUE!",
		`DCOUNTA(A8:C11,"Item",G2:H3)`:   "#VALUE!",
		`DPRODUCT(A8:C11,"Qty",H5:H8)`:   "#VALUE!",
		`DCOUNT(A8:C11,,H5:H8)`:          "#VALUE!",
		`DGET(A8:C11,"Qty",G2:H3)`:       "#VALUE!",
		`DSUM(A8:C11,"Qty",A9:B10)`:      "#VALUE!", // the labels pen and 3
		`DSUM(A8:C11,"Qty",A8:B9)`:       "3",
		`DSUM(A8:C11,"Qty",B8:C9)`:       "3",
		`DAVERAGE(A8:C11,"Qty",A8:A9)`:   "2.5",
		`DCOUNTA(A8:C11,,E8:E9)`:         "2",
		`DPRODUCT(A8:C11,"Price",E8:E9)`: "1.875",
	})
}
