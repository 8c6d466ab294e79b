// registry-sidecar: tests of the array functions calc_array_modern.go and
// calc_array_stack.go add, and of dynamic_array.go (PATCHES.md, section
// 12). Run them with go test ./third_party/excelize -run Modern.

package excelize

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// arrayText renders an array result as rows joined by ";" and values by
// ",", the way Excel writes an array constant.
func arrayText(m [][]ArrayValue) string {
	rows := make([]string, len(m))
	for r, row := range m {
		vals := make([]string, len(row))
		for c, v := range row {
			vals[c] = v.Value
		}
		rows[r] = strings.Join(vals, ",")
	}
	return strings.Join(rows, ";")
}

// TestModernArrayFunctions computes each formula in Z1 of modernBook and
// compares its whole array result.
func TestModernArrayFunctions(t *testing.T) {
	f := modernBook(t)
	cases := []struct{ formula, want string }{
		{"SEQUENCE(3)", "1;2;3"},
		{"SEQUENCE(2,3)", "1,2,3;4,5,6"},
		{"SEQUENCE(2,2,10,-2.5)", "10,7.5;5,2.5"},
		{"SEQUENCE(1,3,1,2)", "1,3,5"},
		{"SEQUENCE(0)", "#CALC!"},
		{"SEQUENCE(-1)", "#VALUE!"},
		{"SEQUENCE(\"x\")", "#VALUE!"},
		{"SUM(SEQUENCE(4))", "10"},
		{"TAKE(A1:A6,2)", "1;2"},
		{"TAKE(A1:A6,-2)", "5;6"},
		{"TAKE(A1:B2,2,1)", "1;2"},
		{"TAKE(A1:A6,0)", "#CALC!"},
		{"TAKE(A1:A3,10)", "1;2;3"},
		{"DROP(A1:A6,4)", "5;6"},
		{"DROP(A1:A6,-5)", "1"},
		{"DROP(A1:A3,3)", "#CALC!"},
		{"DROP(A1:B2,0,1)", "apple;banana"},
		{"CHOOSEROWS(A1:A6,1,-1)", "1;6"},
		{"CHOOSEROWS(A1:A6,7)", "#VALUE!"},
		{"CHOOSECOLS(A1:C2,3,1)", "1,1;2,2"},
		{"CHOOSECOLS(A1:C2,0)", "#VALUE!"},
		{"VSTACK(A1:A2,E1:E2)", "1;2;10;8"},
		{"VSTACK(A1:B1,C1)", "1,apple;1,#N/A"},
		{"HSTACK(A1:A2,E1:E3)", "1,10;2,8;#N/A,8"},
		{"TOCOL(A1:B2)", "1;apple;2;banana"},
		{"TOCOL(A1:B2,0,TRUE)", "1;2;apple;banana"},
		{"TOROW(E1:E4)", "10,8,8,2"},
		{"TOCOL(F1:F2,1)", "#CALC!"},
		{"EXPAND(A1:A2,3,2)", "1,#N/A;2,#N/A;#N/A,#N/A"},
		{"EXPAND(A1:A2,3,1,0)", "1;2;0"},
		{"EXPAND(A1:A3,2)", "#VALUE!"},
		{"UNIQUE(C1:C5)", "1;2;3"},
		{"TRANSPOSE(A1:A3)", "1,2,3"},
		{"A1+1", "2"},
	}
	for _, tc := range cases {
		require.NoError(t, f.SetCellFormula("Sheet1", "Z1", tc.formula))
		got, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{})
		require.NoError(t, err, tc.formula)
		assert.Equal(t, tc.want, arrayText(got), tc.formula)
	}
}

// TestModernArrayLimits checks an array result is charged before it is
// built: SEQUENCE of a million rows passes a small byte budget.
func TestModernArrayLimits(t *testing.T) {
	f := modernBook(t)
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", "SEQUENCE(1000000,16)"))
	_, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{MaxBytes: 1 << 20})
	assert.ErrorIs(t, err, ErrCalcLimit)
	require.NoError(t, f.SetCellFormula("Sheet1", "Z1", "SEQUENCE(1048577,16385)"))
	got, err := f.CalcCellArray(context.Background(), "Sheet1", "Z1", CalcLimits{})
	require.NoError(t, err)
	assert.Equal(t, "#VALUE!", arrayText(got))
}

// TestModernDynamicArrayFormula stores a dynamic array anchor and checks
// the XML Excel 365 writes: the anchor's f t="array" ref and cm="1",
// metadata.xml with the XLDAPR record, referenced by the workbook's
// relationships and the content types; spilled cells keep their values
// when another formula reads them.
func TestModernDynamicArrayFormula(t *testing.T) {
	f := NewFile()
	require.NoError(t, f.SetCellFormula("Sheet1", "C3", "_xlfn.SEQUENCE(3)"))
	require.NoError(t, f.SetDynamicArrayFormula("Sheet1", "C3", "C3:C5"))
	require.NoError(t, f.SetCellValue("Sheet1", "C4", 2))
	require.NoError(t, f.SetCellValue("Sheet1", "C5", 3))
	require.NoError(t, f.SetCellFormula("Sheet1", "D1", "C4*10"))
	v, err := f.CalcCellValue("Sheet1", "D1")
	require.NoError(t, err)
	assert.Equal(t, "20", v, "a spilled cell is its value, not the anchor's formula again")
	v, err = f.CalcCellValue("Sheet1", "C3")
	require.NoError(t, err)
	assert.Equal(t, "1", v)
	// A second anchor reuses the record.
	require.NoError(t, f.SetCellFormula("Sheet1", "E1", "_xlfn.SEQUENCE(1,2)"))
	require.NoError(t, f.SetDynamicArrayFormula("Sheet1", "E1", "E1:F1"))
	assert.Error(t, f.SetDynamicArrayFormula("Sheet1", "A9", "A9"), "no formula")

	var buf bytes.Buffer
	require.NoError(t, f.Write(&buf))
	g, err := OpenReader(&buf)
	require.NoError(t, err)
	sheet := string(g.readXML("xl/worksheets/sheet1.xml"))
	assert.Regexp(t, `<c r="C3"[^>]* cm="1"`, sheet)
	assert.Contains(t, sheet, `<f t="array" ref="C3:C5">_xlfn.SEQUENCE(3)</f>`)
	assert.Contains(t, sheet, `<f t="array" ref="E1:F1">`)
	md := string(g.readXML("xl/metadata.xml"))
	assert.Contains(t, md, `<metadataType name="XLDAPR"`)
	assert.Contains(t, md, `fDynamic="1"`)
	assert.Contains(t, md, `<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>`)
	assert.Equal(t, 1, strings.Count(string(g.readXML("xl/_rels/workbook.xml.rels")), SourceRelationshipSheetMetadata))
	assert.Equal(t, 1, strings.Count(string(g.readXML("[Content_Types].xml")), `PartName="/xl/metadata.xml" ContentType="`+ContentTypeSheetMetadata))
	// Reopened, the part is reused, not added again.
	require.NoError(t, g.SetCellFormula("Sheet1", "H1", "_xlfn.SEQUENCE(2)"))
	require.NoError(t, g.SetDynamicArrayFormula("Sheet1", "H1", "H1:H2"))
	buf.Reset()
	require.NoError(t, g.Write(&buf))
	h, err := OpenReader(&buf)
	require.NoError(t, err)
	assert.Equal(t, 1, strings.Count(string(h.readXML("xl/_rels/workbook.xml.rels")), SourceRelationshipSheetMetadata))
	assert.Equal(t, 1, strings.Count(string(h.readXML("[Content_Types].xml")), "/xl/metadata.xml"))

	// A metadata part of other metadata (images in cells) is not reused.
	f.Pkg.Store(defaultXMLMetadata, []byte(`<metadata xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><metadataTypes count="1"><metadataType name="XLRICHVALUE" minSupportedVersion="120000"/></metadataTypes><valueMetadata count="1"><bk><rc t="1" v="0"/></bk></valueMetadata></metadata>`))
	require.NoError(t, f.SetCellFormula("Sheet1", "J1", "_xlfn.SEQUENCE(2)"))
	assert.ErrorIs(t, f.SetDynamicArrayFormula("Sheet1", "J1", "J1:J2"), ErrDynamicArrayMetadata)
}
