package tools

import (
	"strconv"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadExcelDates reads dates written by excelize through read_excel in
// both modes and both date systems.
func TestReadExcelDates(t *testing.T) {
	skipUnderRace(t)
	for _, date1904 := range []bool{false, true} {
		t.Run(map[bool]string{false: "1900", true: "1904"}[date1904], func(t *testing.T) {
			e := newEnv(t)
			f := excelize.NewFile()
			t.Cleanup(func() { _ = f.Close() })
			require.NoError(t, f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &date1904}))
			dateStyle, err := f.NewStyle(&excelize.Style{NumFmt: 14})
			require.NoError(t, err)
			custom := "yyyy/mm/dd hh:mm"
			customStyle, err := f.NewStyle(&excelize.Style{CustomNumFmt: &custom})
			require.NoError(t, err)
			pct, err := f.NewStyle(&excelize.Style{NumFmt: 10})
			require.NoError(t, err)
			timeStyle, err := f.NewStyle(&excelize.Style{NumFmt: 21})
			require.NoError(t, err)
			base := 45322.0 // 2024-01-31 in the 1900 system
			want := "2024-01-31T00:00:00"
			if date1904 {
				base -= 1462
			}
			cells := []struct {
				cell  string
				v     any
				style int
			}{
				{"A1", "when", 0}, {"B1", "pct", 0}, {"C1", "clock", 0}, {"D1", "plain", 0},
				{"A2", base, dateStyle}, {"B2", 0.25, pct}, {"C2", 0.5729166667, timeStyle}, {"D2", base, 0},
				{"A3", base + 0.5, customStyle}, {"B3", -3, dateStyle}, {"C3", "text", dateStyle}, {"D3", 7, 0},
			}
			for _, c := range cells {
				require.NoError(t, f.SetCellValue("Sheet1", c.cell, c.v))
				if c.style != 0 {
					require.NoError(t, f.SetCellStyle("Sheet1", c.cell, c.cell, c.style))
				}
			}
			require.NoError(t, f.SaveAs(e.path("d.xlsx")))
			wantRows := `[["` + want + `", 0.25, "13:45:00", ` + strconv.Itoa(int(base)) + `], ["2024-01-31T12:00:00", -3, "text", 7]]`
			res := e.call("read_excel", map[string]any{"file_path": "d.xlsx", "range": "A2:D3"})
			require.False(t, res.IsError, res.Text)
			assert.Contains(t, res.Text, `"values": `+wantRows)
			res = e.call("read_excel", map[string]any{"file_path": "d.xlsx"})
			require.False(t, res.IsError, res.Text)
			assert.Contains(t, res.Text, `"rows": `+wantRows)
		})
	}
}
