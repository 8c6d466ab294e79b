package splice

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRewriteFitWidths: FitWidths widen only columns no <col> gives a
// width, and only past the sheet's default column width; with none to
// widen the head, <cols> included, stays byte for byte.
func TestRewriteFitWidths(t *testing.T) {
	fit := func(w map[int]float64) Plan { return Plan{Cols: func(int) []int { return nil }, FitWidths: w} }
	const data = `<sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`
	cases := []struct {
		name, in, want string
		plan           Plan
	}{
		{"a column without <col> gets one",
			`<worksheet><dimension ref="A1"/>` + data,
			`<worksheet><dimension ref="A1"/><cols><col min="1" max="1" width="10.7109375" customWidth="1"/></cols>` + data,
			fit(map[int]float64{1: 10.7109375})},
		{"a <col> with a style and no width is split and widened, its style kept",
			`<worksheet><dimension ref="A1"/><cols><col min="1" max="3" style="4"/></cols>` + data,
			`<worksheet><dimension ref="A1"/><cols><col min="1" max="1" style="4"/><col min="2" max="2" style="4" width="12.7109375" customWidth="1"/><col min="3" max="3" style="4"/></cols>` + data,
			fit(map[int]float64{2: 12.7109375})},
		{"a <col> with a width keeps it, even the default one",
			`<worksheet><dimension ref="A1"/><cols><col min="1" max="1" width="9.140625" customWidth="1"/></cols>` + data,
			`<worksheet><dimension ref="A1"/><cols><col min="1" max="1" width="9.140625" customWidth="1"/></cols>` + data,
			fit(map[int]float64{1: 10.7109375})},
		{"what fits the default width changes nothing",
			`<worksheet><dimension ref="A1"/>` + data,
			`<worksheet><dimension ref="A1"/>` + data,
			fit(map[int]float64{1: 8.7109375})},
		{"the sheet's defaultColWidth is the default",
			`<worksheet><dimension ref="A1"/><sheetFormatPr defaultColWidth="12" defaultRowHeight="15"/>` + data,
			`<worksheet><dimension ref="A1"/><sheetFormatPr defaultColWidth="12" defaultRowHeight="15"/>` + data,
			fit(map[int]float64{1: 10.7109375})},
		{"baseColWidth 8 (openpyxl's) is Excel's usual default: 8 characters fit",
			`<worksheet><dimension ref="A1"/><sheetFormatPr baseColWidth="8" defaultRowHeight="15"/>` + data,
			`<worksheet><dimension ref="A1"/><sheetFormatPr baseColWidth="8" defaultRowHeight="15"/>` + data,
			fit(map[int]float64{1: 8.7109375})},
		{"explicit Widths win over FitWidths",
			`<worksheet><dimension ref="A1"/>` + data,
			`<worksheet><dimension ref="A1"/><cols><col min="1" max="1" width="30" customWidth="1"/></cols>` + data,
			Plan{Cols: func(int) []int { return nil }, Widths: map[int]float64{1: 30}, FitWidths: map[int]float64{1: 10.7109375}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := rewrite(t, c.in, c.plan)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}

func TestDefaultColWidth(t *testing.T) {
	cases := []struct{ def, base, want float64 }{
		{0, 0, 9.140625},
		{0, 8, 9.140625},
		{0, 10, 11.42578125},
		{12.5, 8, 12.5},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, DefaultColWidth(c.def, c.base), "defaultColWidth %v baseColWidth %v", c.def, c.base)
	}
}
