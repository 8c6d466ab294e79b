package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fitSeed writes the workbook TestWriteCellsWidensColumnsAsExcel starts from:
// column B has the default width set explicitly, D1 a number format, and
// G:H a style (excelize writes their <col> with the default width).
func fitSeed(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "seed.xlsx")
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "header"))
	require.NoError(t, f.SetColWidth("Sheet1", "B", "B", engine.DefaultColWidth))
	money, err := f.NewStyle(&excelize.Style{NumFmt: 4}) // #,##0.00
	require.NoError(t, err)
	require.NoError(t, f.SetCellStyle("Sheet1", "D1", "D1", money))
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	require.NoError(t, f.SetColStyle("Sheet1", "G:H", bold))
	require.NoError(t, f.SaveAs(path))
	return path
}

// TestWriteCellsWidensColumnsAsExcel: a date or a formatted number written
// into a column whose width was never set widens it to show the value, as
// Excel does when one types it; a column with a width keeps it, General
// numbers and values that fit change nothing. Both write paths give the
// same widths, and the splice path changes no other part of the package.
func TestWriteCellsWidensColumnsAsExcel(t *testing.T) {
	skipUnderRace(t)
	seed := fitSeed(t)
	args := map[string]any{"file_path": "w.xlsx", "cell_range": "A2", "values": [][]any{
		{"2024-01-31", "2024-01-31", 1234567890123, 1234567.891, "13:45:00", "2024-01-31 13:45:30", "2024-01-31", "x"},
	}}
	want := []struct {
		col   string
		set   bool
		width float64
	}{
		{"A", true, 10.7109375}, // a date: 2024-01-31
		{"B", true, 9.140625},   // its width was set: kept
		{"C", false, 9.140625},  // General: Excel rounds or goes scientific, never ###
		{"D", false, 9.140625},  // D1 has the format, the written D2 does not: General
		{"E", false, 9.140625},  // 13:45:00 fits
		{"F", true, 19.7109375}, // 2024-01-31 13:45:30
		{"G", true, 9.140625},   // excelize's SetColStyle wrote its <col> with a width: kept
		{"H", true, 9.140625},   // likewise, nothing written
		{"I", false, 9.140625},  // untouched
	}
	for _, on := range []bool{true, false} {
		e := newEnv(t, WithSplice(on))
		data, err := os.ReadFile(seed)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(e.path("w.xlsx"), data, 0o644))
		before := entryCRCs(t, e.path("w.xlsx"))
		e.ok("write_cells", args)
		f := e.open("w.xlsx")
		for _, w := range want {
			col, err := excelize.ColumnNameToNumber(w.col)
			require.NoError(t, err)
			set, err := f.ColWidthSet("Sheet1", col)
			require.NoError(t, err)
			width, err := f.GetColWidth("Sheet1", w.col)
			require.NoError(t, err)
			assert.Equal(t, w.set, set, "splice %v: column %s has a width", on, w.col)
			assert.Equal(t, w.width, width, "splice %v: column %s", on, w.col)
		}
		style, err := f.GetColStyle("Sheet1", "G")
		require.NoError(t, err)
		assert.NotZero(t, style, "splice %v: column G keeps its style", on)
		if on {
			after := entryCRCs(t, e.path("w.xlsx"))
			for name, crc := range before {
				if name != "xl/worksheets/sheet1.xml" && name != "xl/styles.xml" {
					assert.Equal(t, crc, after[name], "splice: %s untouched", name)
				}
			}
		}
	}
}

// TestWriteCellsWidensFormattedNumbers: a number written into a cell with a
// number format widens the column by the text the format gives it, on both
// paths alike.
func TestWriteCellsWidensFormattedNumbers(t *testing.T) {
	skipUnderRace(t)
	seed := fitSeed(t)
	cases := []struct {
		value any
		width float64
	}{
		{1234567.891, 12.7109375}, // 1,234,567.89
		{12.5, 9.140625},          // 12.50 fits
	}
	for _, c := range cases {
		for _, on := range []bool{true, false} {
			e := newEnv(t, WithSplice(on))
			data, err := os.ReadFile(seed)
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(e.path("w.xlsx"), data, 0o644))
			e.ok("write_cells", map[string]any{"file_path": "w.xlsx", "cell": "D1", "value": c.value})
			width, err := e.open("w.xlsx").GetColWidth("Sheet1", "D")
			require.NoError(t, err)
			assert.Equal(t, c.width, width, "splice %v: %v", on, c.value)
		}
	}
}
