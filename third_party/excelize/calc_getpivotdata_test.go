package excelize

import (
	"context"
	"encoding/xml"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// pivotFixture is the source range Data!A1:D9 of tests/oracle/cases_pivot.py
// and a pivot table of it at Pivot!A3: Region and Product on rows, Quarter
// on columns, the sum of Amount.
func pivotFixture(t *testing.T, data []PivotTableField, rows, cols []PivotTableField) *File {
	t.Helper()
	f := NewFile()
	require.NoError(t, f.SetSheetName("Sheet1", "Data"))
	_, err := f.NewSheet("Pivot")
	require.NoError(t, err)
	for i, rec := range [][]any{
		{"Region", "Product", "Quarter", "Amount"},
		{"East", "Pen", "Q1", 10}, {"East", "Ink", "Q1", 4}, {"West", "Pen", "Q1", 7}, {"West", "Pen", "Q2", 3},
		{"East", "Pen", "Q2", 5}, {"North", "Ink", "Q2", 8}, {"West", "Ink", "Q1", 2.5}, {"East", "Pen", "Q1", 1},
	} {
		require.NoError(t, f.SetSheetRow("Data", "A"+itoa(i+1), &rec))
	}
	require.NoError(t, f.AddPivotTable(&PivotTableOptions{
		DataRange: "Data!A1:D9", PivotTableRange: "Pivot!A3:D13", Rows: rows, Columns: cols, Data: data,
		RowGrandTotals: true, ColGrandTotals: true,
	}))
	return f
}

// itoa spells a row number.
func itoa(n int) string {
	name, _ := CoordinatesToCellName(1, n)
	return name[1:]
}

// TestGETPIVOTDATA checks GETPIVOTDATA against LibreOffice 25.2's values on
// the same pivot table (tests/oracle/cases_pivot.py).
func TestGETPIVOTDATA(t *testing.T) {
	sum := []PivotTableField{{Data: "Amount", Name: "Sum of Amount", Subtotal: "Sum"}}
	rows := []PivotTableField{{Data: "Region", DefaultSubtotal: true}, {Data: "Product", DefaultSubtotal: true}}
	cols := []PivotTableField{{Data: "Quarter", DefaultSubtotal: true}}
	for _, c := range []corpusCase{
		{`GETPIVOTDATA("Amount",Pivot!A3)`, CalcResultNumber, "40.5"},
		{`GETPIVOTDATA("Sum of Amount",Pivot!A3,"Region","East")`, CalcResultNumber, "20"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Region","West","Product","Pen")`, CalcResultNumber, "10"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Quarter","Q2")`, CalcResultNumber, "16"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Region","East","Quarter","Q1")`, CalcResultNumber, "15"},
		{`GETPIVOTDATA("Amount",Pivot!B5,"Region","east","Product","pen","Quarter","Q1")`, CalcResultNumber, "11"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Region","South")`, CalcResultError, "#REF!"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Product","Pen")`, CalcResultError, "#REF!"}, // an inner field alone
		{`GETPIVOTDATA("Price",Pivot!A3)`, CalcResultError, "#REF!"},
		{`GETPIVOTDATA("Amount",Data!A1)`, CalcResultError, "#REF!"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Color","Red")`, CalcResultError, "#REF!"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Region","North","Product","Pen")`, CalcResultError, "#REF!"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Region",1/0)`, CalcResultError, "#DIV/0!"},
		{`GETPIVOTDATA("Amount",Pivot!A3,"Region")`, CalcResultError, "#VALUE!"},
	} {
		t.Run(c.formula, func(t *testing.T) {
			f := pivotFixture(t, sum, rows, cols)
			defer f.Close()
			require.NoError(t, f.SetCellFormula("Data", "H1", c.formula))
			got, _ := f.CalcCellResultContext(context.Background(), "Data", "H1", CalcLimits{}, Options{RawCellValue: true})
			assert.Equal(t, CalcResult{Kind: c.kind, Value: c.value}, got)
		})
	}
	t.Run("a hidden subtotal is #REF!", func(t *testing.T) {
		f := pivotFixture(t, sum, []PivotTableField{{Data: "Region"}, {Data: "Product"}}, cols)
		defer f.Close()
		for formula, want := range map[string]CalcResult{
			`GETPIVOTDATA("Amount",Pivot!A3,"Region","East")`:                 {Kind: CalcResultError, Value: "#REF!"},
			`GETPIVOTDATA("Amount",Pivot!A3,"Region","East","Product","Ink")`: {Kind: CalcResultNumber, Value: "4"},
		} {
			require.NoError(t, f.SetCellFormula("Data", "H1", formula))
			got, _ := f.CalcCellResultContext(context.Background(), "Data", "H1", CalcLimits{}, Options{RawCellValue: true})
			assert.Equal(t, want, got, formula)
		}
	})
}

// TestGETPIVOTDATASummaries checks the other summaries (LibreOffice 25.2's
// values) and the values left uncomputed.
func TestGETPIVOTDATASummaries(t *testing.T) {
	rows := []PivotTableField{{Data: "Product"}}
	data := []PivotTableField{
		{Data: "Amount", Name: "Count of Amount", Subtotal: "Count"},
		{Data: "Region", Name: "Count of Region", Subtotal: "Count"},
		{Data: "Amount", Name: "Average of Amount", Subtotal: "Average"},
		{Data: "Amount", Name: "Max of Amount", Subtotal: "Max"},
	}
	for _, c := range []corpusCase{
		{`GETPIVOTDATA("Count of Amount",Pivot!A3)`, CalcResultNumber, "8"},
		{`GETPIVOTDATA("Count of Region",Pivot!A3,"Product","Ink")`, CalcResultNumber, "3"},
		{`GETPIVOTDATA("Average of Amount",Pivot!A3,"Product","Pen")`, CalcResultNumber, "5.2"},
		{`GETPIVOTDATA("Average of Amount",Pivot!A3)`, CalcResultNumber, "5.0625"},
		{`GETPIVOTDATA("Max of Amount",Pivot!A3,"Product","Ink")`, CalcResultNumber, "8"},
	} {
		t.Run(c.formula, func(t *testing.T) {
			f := pivotFixture(t, data, rows, nil)
			defer f.Close()
			require.NoError(t, f.SetCellFormula("Data", "H1", c.formula))
			got, _ := f.CalcCellResultContext(context.Background(), "Data", "H1", CalcLimits{}, Options{RawCellValue: true})
			assert.Equal(t, CalcResult{Kind: c.kind, Value: c.value}, got)
		})
	}
}

// TestPivotSubtotal checks each summary function of a data field.
func TestPivotSubtotal(t *testing.T) {
	nums := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	for _, c := range []struct {
		name string
		want formulaArg
	}{
		{"Sum", newNumberFormulaArg(40)}, {"", newNumberFormulaArg(40)}, {"count", newNumberFormulaArg(9)},
		{"countNums", newNumberFormulaArg(8)}, {"average", newNumberFormulaArg(5)}, {"max", newNumberFormulaArg(9)},
		{"min", newNumberFormulaArg(2)}, {"product", newNumberFormulaArg(201600)},
		{"stdDevp", newNumberFormulaArg(2)}, {"varp", newNumberFormulaArg(4)}, {"var", newNumberFormulaArg(32.0 / 7)},
	} {
		assert.Equal(t, c.want, pivotSubtotal(c.name, nums, 9), c.name)
	}
	assert.Equal(t, formulaErrorDIV, pivotSubtotal("average", nil, 0).Error)
	assert.Equal(t, formulaErrorDIV, pivotSubtotal("stdDev", []float64{1}, 1).Error)
	assert.Equal(t, newNumberFormulaArg(0), pivotSubtotal("max", nil, 0))
}

// TestGETPIVOTDATASavedRecords checks that a pivot table Excel does not
// refresh on open (no refreshOnLoad) is read from the records its cache
// saved, not from its source range: what Excel shows until refreshed.
func TestGETPIVOTDATASavedRecords(t *testing.T) {
	rows := []PivotTableField{{Data: "Region", DefaultSubtotal: true}, {Data: "Product", DefaultSubtotal: true}}
	cols := []PivotTableField{{Data: "Quarter", DefaultSubtotal: true}}
	f := pivotFixture(t, []PivotTableField{{Data: "Amount", Name: "Sum of Amount", Subtotal: "Sum"}}, rows, cols)
	defer f.Close()
	f.Pkg.Store("xl/pivotCache/pivotCacheDefinition1.xml", []byte(`<pivotCacheDefinition xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:id="rId1" saveData="1">`+
		`<cacheSource type="worksheet"><worksheetSource ref="A1:D9" sheet="Data"/></cacheSource><cacheFields count="4">`+
		`<cacheField name="Region" numFmtId="0"><sharedItems count="2"><s v="East"/><s v="West"/></sharedItems></cacheField>`+
		`<cacheField name="Product" numFmtId="0"><sharedItems/></cacheField><cacheField name="Quarter" numFmtId="0"><sharedItems/></cacheField>`+
		`<cacheField name="Amount" numFmtId="0"><sharedItems/></cacheField></cacheFields></pivotCacheDefinition>`))
	f.Pkg.Store("xl/pivotCache/_rels/pivotCacheDefinition1.xml.rels", []byte(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`+
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/pivotCacheRecords" Target="pivotCacheRecords1.xml"/></Relationships>`))
	f.Pkg.Store("xl/pivotCache/pivotCacheRecords1.xml", []byte(`<pivotCacheRecords xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="3">`+
		`<r><x v="0"/><s v="Pen"/><s v="Q1"/><n v="100"/></r><r><x v="1"/><s v="Pen"/><s v="Q1"/><n v="7"/></r>`+
		`<r><x v="0"/><s v="Ink"/><s v="Q2"/><n v="4"/></r></pivotCacheRecords>`))
	for formula, want := range map[string]CalcResult{
		`GETPIVOTDATA("Amount",Pivot!A3)`:                                {Kind: CalcResultNumber, Value: "111"},
		`GETPIVOTDATA("Amount",Pivot!A3,"Region","East")`:                {Kind: CalcResultNumber, Value: "104"},
		`GETPIVOTDATA("Amount",Pivot!A3,"Region","East","Quarter","Q2")`: {Kind: CalcResultNumber, Value: "4"},
		`GETPIVOTDATA("Amount",Pivot!A3,"Region","North")`:               {Kind: CalcResultError, Value: "#REF!"},
	} {
		require.NoError(t, f.SetCellFormula("Data", "H1", formula))
		got, _ := f.CalcCellResultContext(context.Background(), "Data", "H1", CalcLimits{}, Options{RawCellValue: true})
		assert.Equal(t, want, got, formula)
	}
}

// TestCacheItemArg checks the value of each kind of cache item.
func TestCacheItemArg(t *testing.T) {
	item := func(kind, v string) xlsxSharedItem { return xlsxSharedItem{XMLName: xml.Name{Local: kind}, V: v} }
	assert.Equal(t, newNumberFormulaArg(2.5), cacheItemArg(item("n", "2.5"), false))
	assert.Equal(t, newStringFormulaArg("a"), cacheItemArg(item("s", "a"), false))
	assert.Equal(t, newBoolFormulaArg(true), cacheItemArg(item("b", "1"), false))
	assert.Equal(t, newErrorFormulaArg("#N/A", "#N/A"), cacheItemArg(item("e", "#N/A"), false))
	assert.Equal(t, newNumberFormulaArg(45292), cacheItemArg(item("d", "2024-01-01T00:00:00"), false))
	assert.Equal(t, newEmptyFormulaArg(), cacheItemArg(item("m", ""), false))
}
