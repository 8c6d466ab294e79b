package tools

import (
	"archive/zip"
	"os"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// entryCRCs returns the CRC-32 of every entry of the package at path.
func entryCRCs(t *testing.T, path string) map[string]uint32 {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	out := map[string]uint32{}
	for _, f := range zr.File {
		out[f.Name] = f.CRC32
	}
	return out
}

// TestSpliceWritesDatesAsTheExcelizePathDoes: dates, times, datetimes,
// pre-epoch dates (text), forced text and floats written on the splice path
// store what the excelize path stores (value, number format, the cell's
// other formatting kept), answer the same, and the splice path really took
// them (workbook.xml, which excelize rewrites, is untouched).
func TestSpliceWritesDatesAsTheExcelizePathDoes(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	f := excelize.NewFile()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	dated, err := f.NewStyle(&excelize.Style{NumFmt: 15})
	require.NoError(t, err)
	require.NoError(t, f.SetSheetRow("Sheet1", "A1", &[]any{"x", 1, 2, 3}))
	require.NoError(t, f.SetCellStyle("Sheet1", "B1", "B1", bold))
	require.NoError(t, f.SetCellStyle("Sheet1", "C1", "C1", dated))
	require.NoError(t, f.SaveAs(seed))
	require.NoError(t, f.Close())

	args := map[string]any{"file_path": "d.xlsx", "cell_range": "A1", "values": [][]any{
		{"2024-01-31", "13:45:00", "2024-01-31T13:45:30.5", "2024-02-29 08:00"},
		{"'2024-01-31", "1899-12-31", 0.1 + 0.2, 1.0 / 3},
		{"0:00", "2024-01-31", true, nil},
	}}
	answers := map[bool]map[string]any{}
	books := map[bool]*excelize.File{}
	for _, on := range []bool{true, false} {
		e := newEnv(t, WithSplice(on))
		data, err := os.ReadFile(seed)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(e.path("d.xlsx"), data, 0o644))
		before := entryCRCs(t, e.path("d.xlsx"))
		answers[on] = e.ok("write_cells", args)
		after := entryCRCs(t, e.path("d.xlsx"))
		if on {
			assert.Equal(t, before["xl/workbook.xml"], after["xl/workbook.xml"], "the splice path took the write")
			assert.Equal(t, before["xl/sharedStrings.xml"], after["xl/sharedStrings.xml"])
		}
		books[on] = e.open("d.xlsx")
	}
	assert.Equal(t, answers[false], answers[true])
	assert.Equal(t, float64(6), answers[true]["dates_written"])
	for r := 1; r <= 3; r++ {
		for c := 1; c <= 4; c++ {
			ref := grid.CellName(c, r)
			v1, t1, f1 := rawCell(t, books[true], "Sheet1", ref)
			v2, t2, f2 := rawCell(t, books[false], "Sheet1", ref)
			assert.Equal(t, v2, v1, ref)
			assert.Equal(t, f2, f1, ref)
			isText := func(ct excelize.CellType) bool {
				return ct == excelize.CellTypeSharedString || ct == excelize.CellTypeInlineString
			}
			assert.Equal(t, isText(t2), isText(t1), ref)
			s1, err := books[true].GetCellStyle("Sheet1", ref)
			require.NoError(t, err)
			st, err := books[true].GetStyle(s1)
			require.NoError(t, err)
			assert.Equal(t, ref == "B1", st.Font != nil && st.Font.Bold, "%s: bold kept where it was", ref)
		}
	}
	_, _, format := rawCell(t, books[true], "Sheet1", "C1")
	assert.Equal(t, "d-mmm-yy", format, "a cell already formatted as a date keeps its format")
}

// TestNormalizeColors: aRGB colors another program wrote lose their alpha
// (excelize would prefix "FF" to all eight digits); the base style is not
// changed.
func TestNormalizeColors(t *testing.T) {
	base := &excelize.Style{
		Font:   &excelize.Font{Color: "00FF0000"},
		Fill:   excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"00FFFF00"}},
		Border: []excelize.Border{{Type: "left", Color: "FF123456", Style: 1}, {Type: "top", Color: "ABCDEF", Style: 1}},
	}
	st := *base
	vocab.NormalizeColors(&st)
	assert.Equal(t, "FF0000", st.Font.Color)
	assert.Equal(t, []string{"FFFF00"}, st.Fill.Color)
	assert.Equal(t, "123456", st.Border[0].Color)
	assert.Equal(t, "ABCDEF", st.Border[1].Color)
	assert.Equal(t, "00FF0000", base.Font.Color, "base untouched")
	assert.Equal(t, []string{"00FFFF00"}, base.Fill.Color, "base untouched")
	assert.Equal(t, "FF123456", base.Border[0].Color, "base untouched")
}
