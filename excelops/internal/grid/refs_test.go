package grid

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestParseRange: each accepted form gives the normalised rectangle; each
// refused one is a ValueError that names the input and says what is
// accepted or which edge it is past.
func TestParseRange(t *testing.T) {
	for _, c := range []struct {
		in   string
		want cellarea.Range
		err  string
	}{
		{in: "B7", want: cellarea.Range{C1: 2, R1: 7, C2: 2, R2: 7}},
		{in: "$B$7", want: cellarea.Range{C1: 2, R1: 7, C2: 2, R2: 7}},
		{in: "c3:a1", want: cellarea.Range{C1: 1, R1: 1, C2: 3, R2: 3}},
		{in: "A1:XFD1048576", want: cellarea.Range{C1: 1, R1: 1, C2: LastCol, R2: LastRow}},
		{in: "A1:B2:C3", err: `invalid cell range "A1:B2:C3": ` + RangeForms},
		{in: "A0", err: `invalid cell range "A0"`},
		{in: "XFE1", err: `invalid cell range "XFE1": cell "XFE1"`},
		{in: "A1048577", err: `invalid cell range "A1048577": cell "A1048577"`},
		{in: "", err: "invalid cell range"},
	} {
		t.Run(c.in, func(t *testing.T) {
			got, err := ParseRange(c.in)
			if c.err != "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, failure.KindInvalidArgument)
				assert.Contains(t, err.Error(), c.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

// TestParseColumn: letters, numbers and numeric strings name a column;
// anything else, or a column past XFD, is refused.
func TestParseColumn(t *testing.T) {
	for in, want := range map[any]int{"C": 3, "c": 3, "XFD": LastCol, json.Number("3"): 3, " 12 ": 12} {
		got, err := ParseColumn(in)
		require.NoError(t, err, "%v", in)
		assert.Equal(t, want, got, "%v", in)
	}
	for _, in := range []any{"XFE", json.Number("0"), json.Number("16385"), "C3", true} {
		_, err := ParseColumn(in)
		assert.ErrorIs(t, err, failure.KindInvalidArgument, "%v", in)
	}
}

// TestExcelLimits: text and formulas are measured as Excel counts them
// (UTF-16 code units), and a block past the grid's edge names the edge.
func TestExcelLimits(t *testing.T) {
	assert.Equal(t, 2, ExcelLen("😀"), "a character outside the BMP counts twice")
	assert.NoError(t, CheckText("A1", strings.Repeat("a", MaxCellChars)))
	assert.ErrorContains(t, CheckText("A1", strings.Repeat("😀", MaxCellChars/2+1)), "A1: text of 32,768 characters is longer than Excel's limit of 32,767")
	assert.NoError(t, CheckFormula("A1", strings.Repeat("1", MaxFormulaChars-1)), "the = counts")
	assert.ErrorContains(t, CheckFormula("A1", strings.Repeat("1", MaxFormulaChars)), "formula of 8,193 characters")
	assert.Equal(t, 2, FunctionNesting("IF(A1,SUM(B1:B2),(0))"), "a parenthesis that only groups is no level")
	assert.ErrorContains(t, CheckFormula("B2", strings.Repeat("ABS(", 65)+"1"+strings.Repeat(")", 65)), "nests functions 65 levels deep")
	assert.NoError(t, CheckBlockFits("a block", 1, LastRow, 1, 1))
	assert.ErrorContains(t, CheckBlockFits("a block", 1, LastRow, 2, 1), "would end at row 1,048,577, past Excel's last row 1,048,576")
	assert.ErrorContains(t, CheckBlockFits("a block", LastCol, 1, 1, 2), "past Excel's last column XFD (16,384)")
}
