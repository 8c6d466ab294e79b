// This file is not upstream excelize: registry-sidecar's tests of the
// accessors of xml_access.go (see PATCHES.md).

package excelize_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// accessBook builds a workbook holding one of everything the accessors
// reach (a formula, an array formula, a table, a conditional format, a data
// validation, a hyperlink, an autofilter, a chart and a chart sheet), saves
// it and opens it again, so nothing is parsed yet.
func accessBook(t *testing.T) *excelize.File {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	_, err := f.NewSheet("Data")
	require.NoError(t, err)
	for ref, v := range map[string]any{"A1": "Item", "B1": "Qty", "A2": "a", "B2": 1, "A3": "b", "B3": 2} {
		require.NoError(t, f.SetCellValue("Data", ref, v))
	}
	require.NoError(t, f.SetCellFormula("Sheet1", "C1", "SUM(Data!B2:B3)"))
	array := excelize.STCellFormulaTypeArray
	arrayRef := "D1:D2"
	require.NoError(t, f.SetCellFormula("Sheet1", "D1", "Data!B2:B3*2", excelize.FormulaOpts{Type: &array, Ref: &arrayRef}))
	require.NoError(t, f.AddTable("Data", &excelize.Table{Range: "A1:B3", Name: "Stock"}))
	style, err := f.NewConditionalStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	require.NoError(t, f.SetConditionalFormat("Sheet1", "E1:E5", []excelize.ConditionalFormatOptions{{Type: "formula", Criteria: "$E1>5", Format: &style}}))
	dv := excelize.NewDataValidation(true)
	dv.Sqref = "F1:F5"
	require.NoError(t, dv.SetRange(1, 10, excelize.DataValidationTypeWhole, excelize.DataValidationOperatorBetween))
	require.NoError(t, f.AddDataValidation("Sheet1", dv))
	require.NoError(t, f.SetCellHyperLink("Sheet1", "G1", "Data!A1", "Location"))
	require.NoError(t, f.AutoFilter("Sheet1", "A10:B20", nil))
	chart := &excelize.Chart{Type: excelize.Col, Series: []excelize.ChartSeries{{Name: "Data!$B$1", Categories: "Data!$A$2:$A$3", Values: "Data!$B$2:$B$3"}}}
	require.NoError(t, f.AddChart("Sheet1", "H1", chart))
	require.NoError(t, f.AddChartSheet("Chart1", chart))
	buf, err := f.WriteToBuffer()
	require.NoError(t, err)
	g, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	t.Cleanup(func() { _ = g.Close() })
	return g
}

// TestSheetXMLPath: each sheet's part, its name matched without regard to
// case; no part for a sheet the workbook does not have.
func TestSheetXMLPath(t *testing.T) {
	f := accessBook(t)
	for _, c := range []struct {
		sheet, part string
		ok          bool
	}{
		{"Sheet1", "xl/worksheets/sheet1.xml", true},
		{"SHEET1", "xl/worksheets/sheet1.xml", true},
		{"Data", "xl/worksheets/sheet2.xml", true},
		{"Chart1", "xl/chartsheets/sheet3.xml", true}, // excelize numbers chart sheets after the worksheets
		{"Missing", "", false},
	} {
		t.Run(c.sheet, func(t *testing.T) {
			part, ok := f.SheetXMLPath(c.sheet)
			assert.Equal(t, c.ok, ok)
			assert.Equal(t, c.part, part)
		})
	}
}

// TestWorksheetParsesOnDemand: Worksheet parses a sheet excelize has not
// read yet, hands back the very worksheet File.Sheet keeps (so a second
// call and every cell function see the same one), and refuses an unknown
// sheet with ErrSheetNotExist and a chart sheet with an error.
func TestWorksheetParsesOnDemand(t *testing.T) {
	f := accessBook(t)
	part, ok := f.SheetXMLPath("Sheet1")
	require.True(t, ok)
	_, parsed := f.Sheet.Load(part)
	require.False(t, parsed, "nothing is parsed after opening")

	ws, err := f.Worksheet("Sheet1")
	require.NoError(t, err)
	kept, parsed := f.Sheet.Load(part)
	require.True(t, parsed)
	assert.Same(t, ws, kept.(*excelize.XMLWorksheet))
	again, err := f.Worksheet("sheet1")
	require.NoError(t, err)
	assert.Same(t, ws, again)

	_, err = f.Worksheet("Missing")
	var missing excelize.ErrSheetNotExist
	assert.True(t, errors.As(err, &missing), "%v", err)
	_, err = f.Worksheet("Chart1")
	assert.Error(t, err)
}

// TestWorksheetElements: the parsed elements reached through the XML*
// types hold what the workbook holds.
func TestWorksheetElements(t *testing.T) {
	f := accessBook(t)
	ws, err := f.Worksheet("Sheet1")
	require.NoError(t, err)
	formulas := map[string]excelize.XMLFormula{}
	for _, row := range ws.SheetData.Row {
		for _, c := range row.C {
			if c.F != nil {
				formulas[c.R] = *c.F
			}
		}
	}
	assert.Equal(t, "SUM(Data!B2:B3)", formulas["C1"].Content)
	assert.Equal(t, excelize.STCellFormulaTypeArray, formulas["D1"].T)
	assert.Equal(t, "D1:D2", formulas["D1"].Ref)

	var cf []*excelize.XMLConditionalFormatting = ws.ConditionalFormatting
	require.Len(t, cf, 1)
	assert.Equal(t, "E1:E5", cf[0].SQRef)
	require.Len(t, cf[0].CfRule, 1)
	assert.Equal(t, []string{"$E1>5"}, cf[0].CfRule[0].Formula)

	var dvs *excelize.XMLDataValidations = ws.DataValidations
	require.NotNil(t, dvs)
	require.Len(t, dvs.DataValidation, 1)
	assert.Equal(t, "F1:F5", dvs.DataValidation[0].Sqref)

	var links *excelize.XMLHyperlinks = ws.Hyperlinks
	require.NotNil(t, links)
	require.Len(t, links.Hyperlink, 1)
	assert.Equal(t, "G1", links.Hyperlink[0].Ref)

	var af *excelize.XMLAutoFilter = ws.AutoFilter
	require.NotNil(t, af)
	assert.Equal(t, "$A$10:$B$20", af.Ref)
}

// TestWorksheetChangesAreSaved: what a caller changes in the parsed
// worksheet is what the next save writes (here an error constant and a
// filter criterion, which excelize has no setter for).
func TestWorksheetChangesAreSaved(t *testing.T) {
	f := accessBook(t)
	ws, err := f.Worksheet("Sheet1")
	require.NoError(t, err)
	ws.SheetData.Row = append(ws.SheetData.Row, excelize.XMLRow{R: 30, C: []excelize.XMLCell{{R: "A30", T: "e", V: "#N/A"}}})
	ws.AutoFilter.FilterColumn = []*excelize.XMLFilterColumn{{ColID: 1, CustomFilters: &excelize.XMLCustomFilters{
		CustomFilter: []*excelize.XMLCustomFilter{{Operator: "equal", Val: "two words"}}}}}
	ws.SheetPr = &excelize.XMLSheetPr{FilterMode: true}
	buf, err := f.WriteToBuffer()
	require.NoError(t, err)
	g, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	defer g.Close()
	typ, err := g.GetCellType("Sheet1", "A30")
	require.NoError(t, err)
	assert.Equal(t, excelize.CellTypeError, typ)
	v, err := g.GetCellValue("Sheet1", "A30")
	require.NoError(t, err)
	assert.Equal(t, "#N/A", v)
	saved, err := g.Worksheet("Sheet1")
	require.NoError(t, err)
	require.Len(t, saved.AutoFilter.FilterColumn, 1)
	assert.Equal(t, "two words", saved.AutoFilter.FilterColumn[0].CustomFilters.CustomFilter[0].Val)
	assert.True(t, saved.SheetPr.FilterMode)
}

// TestTableXMLPath: a table read by GetTables names its part, which the
// package holds; a Table built by hand names none.
func TestTableXMLPath(t *testing.T) {
	f := accessBook(t)
	tables, err := f.GetTables("Data")
	require.NoError(t, err)
	require.Len(t, tables, 1)
	assert.Equal(t, "Stock", tables[0].Name)
	assert.Equal(t, "xl/tables/table1.xml", tables[0].XMLPath())
	_, ok := f.Pkg.Load(tables[0].XMLPath())
	assert.True(t, ok)
	assert.Equal(t, "", excelize.Table{Name: "Stock"}.XMLPath())
}

// TestDrawingAnchors: the drawings excelize keeps in File.Drawings are
// XMLDrawing values whose anchors carry the chart's graphic frame.
func TestDrawingAnchors(t *testing.T) {
	f := accessBook(t)
	// Opening parses no drawing; inserting a row moves the chart's anchor,
	// which parses Sheet1's drawing.
	require.NoError(t, f.InsertRows("Sheet1", 1, 1))
	var frames []string
	f.Drawings.Range(func(_, v any) bool {
		dr, ok := v.(*excelize.XMLDrawing)
		require.True(t, ok, "%T", v)
		for _, anchors := range [][]*excelize.XMLAnchor{dr.TwoCellAnchor, dr.OneCellAnchor, dr.AbsoluteAnchor} {
			for _, a := range anchors {
				frames = append(frames, a.GraphicFrame)
			}
		}
		return true
	})
	require.NotEmpty(t, frames)
	assert.Contains(t, frames[0], "c:chart")
}

// TestParsePart: every part kind excelize parses is parsed by name, and a
// part it keeps raw (docProps, a chart, an unknown name) is not. A parsed
// part is written back from its parsed form: a worksheet whose raw bytes
// were replaced by equivalent but differently spelt XML comes back in
// excelize's spelling once parsed, and stays as it was when not.
func TestParsePart(t *testing.T) {
	f := accessBook(t)
	sheet1, ok := f.SheetXMLPath("Sheet1")
	require.True(t, ok)
	for _, c := range []struct {
		part string
		ok   bool
	}{
		{"[Content_Types].xml", true},
		{"xl/workbook.xml", true},
		{"xl/_rels/workbook.xml.rels", true},
		{"xl/sharedStrings.xml", true},
		{"xl/styles.xml", true},
		{"xl/theme/theme1.xml", true},
		{sheet1, true},
		{"xl/drawings/drawing1.xml", true},
		{"xl/charts/chart1.xml", false},
		{"docProps/app.xml", false},
		{"xl/no/such.xml", false},
	} {
		got, err := f.ParsePart(c.part)
		require.NoError(t, err, c.part)
		assert.Equal(t, c.ok, got, c.part)
	}

	spelt := func(parse bool) string {
		g := accessBook(t)
		part, _ := g.SheetXMLPath("Data")
		raw, ok := g.Pkg.Load(part)
		require.True(t, ok)
		g.Pkg.Store(part, bytes.Replace(raw.([]byte), []byte("<sheetData>"), []byte("<sheetData >"), 1))
		if parse {
			_, err := g.ParsePart(part)
			require.NoError(t, err)
		}
		buf, err := g.WriteToBuffer()
		require.NoError(t, err)
		h, err := excelize.OpenReader(bytes.NewReader(buf.Bytes()))
		require.NoError(t, err)
		defer h.Close()
		out, _ := h.Pkg.Load(part)
		return string(out.([]byte))
	}
	assert.Contains(t, spelt(false), "<sheetData >", "an unparsed part is saved raw")
	assert.NotContains(t, spelt(true), "<sheetData >", "a parsed part is saved re-serialised")
}
