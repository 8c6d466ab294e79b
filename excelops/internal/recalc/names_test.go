package recalc

import (
	"errors"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testScope is a workbook of four sheets, a workbook-scoped and a
// sheet-scoped name and one table.
func testScope() *FormulaScope {
	return NewFormulaScope(
		[]string{"Sheet1", "Sheet2", "Sheet3", "Q1 Plan", "O'Brien"},
		[]ScopedName{{Name: "TaxRate", Sheet: ""}, {Name: "Local", Sheet: "Sheet2"}},
		func() []TableInfo {
			return []TableInfo{{Name: "Sales", Columns: []string{"Amount", "Unit Price", "Qty"}}}
		})
}

func TestFormulaNamesAccepted(t *testing.T) {
	for _, c := range []struct{ name, host, formula string }{
		{"same-sheet cells", "Sheet1", "A1+SUM($B$2:C3)+SUM(A:A)+SUM(1:3)"},
		{"quoted sheet", "Sheet1", "'Q1 Plan'!A2"},
		{"quote doubled", "Sheet1", "'O''Brien'!A1"},
		{"unquoted sheet, other case", "Sheet1", "SUM(sheet2!B:B)"},
		{"3-D span", "Sheet1", "SUM(Sheet1:Sheet3!A1)"},
		{"external index", "Sheet1", "[1]Sales!A1"},
		{"external quoted book", "Sheet1", "'[Book.xlsx]Sales'!A1"},
		{"external path", "Sheet1", `'C:\path\[b.xlsx]S'!A1`},
		{"workbook-scoped name", "Sheet1", "TaxRate*B2"},
		{"name in other case", "Sheet1", "taxrate*B2"},
		{"sheet-scoped name on its sheet", "Sheet2", "Local*2"},
		{"sheet-scoped name qualified", "Sheet1", "Sheet2!Local*2"},
		{"table column", "Sheet1", "SUM(Sales[Amount])"},
		{"table all", "Sheet1", "ROWS(Sales[#All])"},
		{"this row", "Sheet1", "Sales[[#This Row],[Qty]]*Sales[@[Unit Price]]"},
		{"column span", "Sheet1", "SUM(Sales[[Amount]:[Qty]])"},
		{"table alone", "Sheet1", "ROWS(Sales)"},
		{"table-relative", "Sheet1", "[@Qty]*2"},
		{"booleans and errors", "Sheet1", "IF(TRUE,#N/A,FALSE)"},
		{"prefixed function", "Sheet1", "_xlfn.XLOOKUP(1,A1:A2,B1:B2)"},
		{"function by name", "Sheet1", "BYROW(A1:B2,SUM)"},
		{"function by name as stored", "Sheet1", "_xlfn.GROUPBY(A1:A2,B1:B2,_xleta.SUM)"},
		{"LET names", "Sheet1", "LET(x,2,rate,3,x*rate)"},
		{"LAMBDA parameters", "Sheet1", "LAMBDA(a,b,a+b)(2,3)"},
		{"stored parameters", "Sheet1", "_xlfn.LET(_xlpm.x,2,_xlpm.x*3)"},
		{"last A1 column", "Sheet1", "XFD1+A1048576"},
		{"text is no reference", "Sheet1", `"Nope!A1"&"Gone"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			assert.NoError(t, testScope().Check("cell A1", c.host, c.formula))
		})
	}
}

func TestFormulaNamesRefused(t *testing.T) {
	for _, c := range []struct {
		name, host, formula string
		kind                failure.Kind
		what, missing       string
		suggest             string
	}{
		{"quoted sheet", "Sheet1", "'Q1 Plna'!A2", failure.KindSheetNotFound, "sheet", "Q1 Plna", `Did you mean "Q1 Plan"?`},
		{"unquoted sheet", "Sheet1", "SUM(Sales!B:B)", failure.KindSheetNotFound, "sheet", "Sales", ""},
		{"sheet typo", "Sheet1", "Shet2!A1", failure.KindSheetNotFound, "sheet", "Shet2", `"Sheet2"`},
		{"3-D first end", "Sheet1", "SUM(Sheet0:Sheet3!A1)", failure.KindSheetNotFound, "sheet", "Sheet0", `Did you mean one of "Sheet1", "Sheet2", "Sheet3"?`},
		{"3-D last end", "Sheet1", "SUM(Sheet1:Sheet9!A1)", failure.KindSheetNotFound, "sheet", "Sheet9", `Did you mean one of "Sheet1", "Sheet2", "Sheet3"?`},
		{"unknown name", "Sheet1", "TaxRat*B2", failure.KindInvalidArgument, "name", "TaxRat", `Did you mean "TaxRate"?`},
		{"name nothing near", "Sheet1", "Zebra*2", failure.KindInvalidArgument, "name", "Zebra", ""},
		{"sheet-scoped name elsewhere", "Sheet1", "Local*2", failure.KindInvalidArgument, "name", "Local", ""},
		{"sheet-scoped name wrongly qualified", "Sheet2", "Sheet3!Local*2", failure.KindInvalidArgument, "name", "Local", ""},
		{"not an A1 cell", "Sheet1", "ABCD1+1", failure.KindInvalidArgument, "name", "ABCD1", ""},
		{"R1C1 in A1 mode", "Sheet1", "R1C1+1", failure.KindInvalidArgument, "name", "R1C1", ""},
		{"unknown table", "Sheet1", "SUM(Sale[Amount])", failure.KindInvalidArgument, "table", "Sale", `Did you mean "Sales"?`},
		{"unknown column", "Sheet1", "SUM(Sales[Amout])", failure.KindInvalidArgument, "column", "Amout", `Did you mean "Amount"?`},
		{"unknown column in this row", "Sheet1", "Sales[@[Unit Prise]]", failure.KindInvalidArgument, "column", "Unit Prise", `"Unit Price"`},
		{"LET name used outside", "Sheet1", "LET(x,2,x)+y", failure.KindInvalidArgument, "name", "y", ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := testScope().Check("cell A1", c.host, c.formula)
			require.Error(t, err)
			assert.ErrorIs(t, err, c.kind)
			var u *unknownRefError
			require.True(t, errors.As(err, &u), "%v", err)
			assert.Equal(t, c.what, u.What)
			assert.Equal(t, c.missing, u.Name)
			if c.suggest != "" {
				assert.Contains(t, err.Error(), c.suggest)
			} else {
				assert.NotContains(t, err.Error(), "Did you mean")
			}
		})
	}
}

func TestFormulaNamesTablesReadOnlyWhenNeeded(t *testing.T) {
	reads := 0
	sc := NewFormulaScope([]string{"Sheet1"}, nil, func() []TableInfo { reads++; return nil })
	require.NoError(t, sc.Check("cell A1", "Sheet1", "SUM(A1:A3)*2"))
	assert.Equal(t, 0, reads, "no structured reference: no table part read")
	require.Error(t, sc.Check("cell A1", "Sheet1", "SUM(T[x])"))
	require.Error(t, sc.Check("cell A1", "Sheet1", "SUM(T[y])"))
	assert.Equal(t, 1, reads, "the tables are read once per call")
}
