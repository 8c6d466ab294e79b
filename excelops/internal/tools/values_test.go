package tools

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rawCell reads a cell's stored text, its type and its number format code.
func rawCell(t *testing.T, f *excelize.File, sheet, ref string) (string, excelize.CellType, string) {
	t.Helper()
	v, err := f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	typ, err := f.GetCellType(sheet, ref)
	require.NoError(t, err)
	id, err := f.GetCellStyle(sheet, ref)
	require.NoError(t, err)
	st, err := f.GetStyle(id)
	require.NoError(t, err)
	code, _ := dates.Builtin(st.NumFmt)
	if st.CustomNumFmt != nil {
		code = *st.CustomNumFmt
	}
	return v, typ, code
}

func TestWriteCellsStoresISODatesAsExcelDates(t *testing.T) {
	e := newEnv(t)
	got := e.ok("write_cells", map[string]any{"file_path": "d.xlsx", "cell_range": "A1", "values": [][]any{
		{"2024-01-31", "13:45:00", "2024-01-31T13:45:30.5", "2024-01-31 08:00", "9:05"},
		{"'2024-01-31", "1899-12-31", "2024-02-30", "2024-01-31T10:00:00Z", "24:00"},
	}})
	assert.Equal(t, float64(5), got["dates_written"])
	f := e.open("d.xlsx")
	want := []struct {
		ref, value string
		typ        excelize.CellType
		format     string
	}{
		{"A1", "45322", excelize.CellTypeUnset, "yyyy-mm-dd"},
		// excelize keeps 15 significant digits, as Excel does.
		{"B1", "0.572916666666666", excelize.CellTypeUnset, "h:mm:ss"},
		{"C1", "45322.5732696759", excelize.CellTypeUnset, "yyyy-mm-dd h:mm:ss"},
		{"D1", "45322.3333333333", excelize.CellTypeUnset, "yyyy-mm-dd h:mm:ss"},
		{"E1", "0.378472222222222", excelize.CellTypeUnset, "h:mm:ss"},
		// Text: asked for with an apostrophe, before 1900, not a real
		// date, with a time zone, not a time of day.
		{"A2", "2024-01-31", excelize.CellTypeSharedString, ""},
		{"B2", "1899-12-31", excelize.CellTypeSharedString, ""},
		{"C2", "2024-02-30", excelize.CellTypeSharedString, ""},
		{"D2", "2024-01-31T10:00:00Z", excelize.CellTypeSharedString, ""},
		{"E2", "24:00", excelize.CellTypeSharedString, ""},
	}
	for _, w := range want {
		v, typ, code := rawCell(t, f, "Sheet1", w.ref)
		assert.Equal(t, w.value, v, w.ref)
		assert.Equal(t, w.typ, typ, w.ref)
		if w.format != "" {
			assert.Equal(t, w.format, code, w.ref)
		}
	}
	// read_excel gives back the ISO text openpyxl's isoformat() would.
	read := e.ok("read_excel", map[string]any{"file_path": "d.xlsx", "range": "A1:E1"})
	assert.Equal(t, []any{[]any{"2024-01-31T00:00:00", "13:45:00", "2024-01-31T13:45:30.500000", "2024-01-31T08:00:00", "09:05:00"}}, read["values"])
}

func TestDatesRoundTripThroughReadAndWrite(t *testing.T) {
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{"when", "amount"}})
	f := e.open("r.xlsx")
	custom := "dd/mm/yyyy"
	dmy, err := f.NewStyle(&excelize.Style{CustomNumFmt: &custom})
	require.NoError(t, err)
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	require.NoError(t, f.SetCellValue("Sheet1", "A2", time.Date(2023, 7, 4, 0, 0, 0, 0, time.UTC)))
	require.NoError(t, f.SetCellStyle("Sheet1", "A2", "A2", dmy))
	require.NoError(t, f.SetCellStyle("Sheet1", "A3", "A3", bold))
	require.NoError(t, f.Save())

	read := e.ok("read_excel", map[string]any{"file_path": "r.xlsx", "range": "A2"})
	iso := read["values"].([]any)[0].([]any)[0]
	require.Equal(t, "2023-07-04T00:00:00", iso)
	// Write it back in place and into a bold cell with no date format.
	e.ok("write_cells", map[string]any{"file_path": "r.xlsx", "cell_range": "A2", "values": [][]any{{iso}, {iso}}})
	f = e.open("r.xlsx")
	v, _, code := rawCell(t, f, "Sheet1", "A2")
	assert.Equal(t, "45111", v)
	assert.Equal(t, "dd/mm/yyyy", code, "a cell formatted as a date keeps its format")
	v, _, code = rawCell(t, f, "Sheet1", "A3")
	assert.Equal(t, "45111", v)
	assert.Equal(t, "yyyy-mm-dd h:mm:ss", code)
	id, err := f.GetCellStyle("Sheet1", "A3")
	require.NoError(t, err)
	st, err := f.GetStyle(id)
	require.NoError(t, err)
	assert.True(t, st.Font != nil && st.Font.Bold, "the cell's other formatting stays")
	again := e.ok("read_excel", map[string]any{"file_path": "r.xlsx", "range": "A2:A3"})
	assert.Equal(t, []any{[]any{iso}, []any{iso}}, again["values"])
}

func TestWriteCellsValueTypesText(t *testing.T) {
	e := newEnv(t)
	got := e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell_range": "A1", "value_types": "text",
		"values": [][]any{{"2024-01-31", "=1+1", "007", "12", 12, "'x"}}})
	assert.NotContains(t, got, "dates_written")
	f := e.open("t.xlsx")
	for ref, want := range map[string]string{"A1": "2024-01-31", "B1": "=1+1", "C1": "007", "D1": "12", "F1": "'x"} {
		v, typ, _ := rawCell(t, f, "Sheet1", ref)
		assert.Equal(t, want, v, ref)
		assert.Equal(t, excelize.CellTypeSharedString, typ, ref)
		fm, _ := f.GetCellFormula("Sheet1", ref)
		assert.Empty(t, fm, ref)
	}
	v, typ, _ := rawCell(t, f, "Sheet1", "E1")
	assert.Equal(t, "12", v)
	assert.NotEqual(t, excelize.CellTypeSharedString, typ, "JSON numbers stay numbers")
	bad := e.fail("write_cells", map[string]any{"file_path": "t.xlsx", "cell": "A1", "value": "x", "value_types": "string"})
	assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", bad["error_code"], "the schema's enum refuses it")
	// Auto mode: an apostrophe keeps a formula or a number as text.
	e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell_range": "A2", "values": [][]any{{"'=1+1", "'12"}}})
	f = e.open("t.xlsx")
	v, typ, _ = rawCell(t, f, "Sheet1", "A2")
	assert.Equal(t, "=1+1", v)
	assert.Contains(t, textTypes, typ)
	v, typ, _ = rawCell(t, f, "Sheet1", "B2")
	assert.Equal(t, "12", v)
	assert.Contains(t, textTypes, typ)
}

// textTypes are the cell types of text: a shared string (the excelize
// path) or an inline string (the splice path).
var textTypes = []excelize.CellType{excelize.CellTypeSharedString, excelize.CellTypeInlineString}

func TestDatesIn1904Workbooks(t *testing.T) {
	e := newEnv(t)
	e.workbook("m.xlsx", [][]any{{"x"}})
	f := e.open("m.xlsx")
	yes := true
	require.NoError(t, f.SetWorkbookProps(&excelize.WorkbookPropsOptions{Date1904: &yes}))
	require.NoError(t, f.Save())
	e.ok("write_cells", map[string]any{"file_path": "m.xlsx", "cell_range": "A2", "values": [][]any{{"2024-01-31", "1903-12-31"}}})
	v, _, _ := rawCell(t, e.open("m.xlsx"), "Sheet1", "A2")
	assert.Equal(t, "43860", v, "1,462 days fewer than in the 1900 system")
	v, typ, _ := rawCell(t, e.open("m.xlsx"), "Sheet1", "B2")
	assert.Equal(t, "1903-12-31", v, "before the 1904 epoch: text")
	assert.Contains(t, textTypes, typ)
	read := e.ok("read_excel", map[string]any{"file_path": "m.xlsx", "range": "A2"})
	assert.Equal(t, []any{[]any{"2024-01-31T00:00:00"}}, read["values"])
}

// TestExcelSerialInvertsSerialISO checks the writer against the reader
// (which mirrors openpyxl's from_excel) on the 1900 leap-year bug's edges
// and random instants of both date systems.
func TestExcelSerialInvertsSerialISO(t *testing.T) {
	edges := map[string]float64{"1900-01-01": 1, "1900-02-28": 59, "1900-03-01": 61, "9999-12-31": 2958465}
	for iso, want := range edges {
		tm, kind := engine.ParseISODate(iso)
		require.Equal(t, engine.KindDate, kind)
		got, ok := engine.ExcelSerial(tm, kind, false)
		require.True(t, ok)
		assert.Equal(t, want, got, iso)
	}
	r := rand.New(rand.NewPCG(14, 14))
	for i := 0; i < 5000; i++ {
		date1904 := i%2 == 1
		start := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC)
		if date1904 {
			start = dates.Epoch(true)
		}
		span := time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC).UnixMilli() - start.UnixMilli()
		tm := time.UnixMilli(start.UnixMilli() + r.Int64N(span)).UTC()
		if tm.Year() == 1900 && tm.Month() < 3 && !date1904 {
			continue // dates.SerialISO maps the bug's serials back one day off by design
		}
		serial, ok := engine.ExcelSerial(tm, engine.KindDateTime, date1904)
		require.True(t, ok)
		iso, ok := dates.SerialISO(serial, date1904)
		require.True(t, ok)
		back, kind := engine.ParseISODate(iso)
		require.NotEqual(t, engine.NotDate, kind, iso)
		assert.Equal(t, tm, back, "serial %v, 1904=%v", serial, date1904)
	}
}

// BenchmarkWriteDates writes a 1,000 x 10 block through CallTool: ISO
// dates (each becomes a serial plus a date style) against the same block
// of plain numbers, the peer measured in the same run.
func BenchmarkWriteDates(b *testing.B) {
	for _, kind := range []string{"numbers", "dates"} {
		b.Run(kind, func(b *testing.B) {
			svc, err := New(b.TempDir(), WithCacheBudget(0))
			require.NoError(b, err)
			reg := registry.New(registry.WithMaxResultChars(-1))
			require.NoError(b, svc.Register(reg))
			rows := make([][]any, 1000)
			for i := range rows {
				rows[i] = make([]any, 10)
				for j := range rows[i] {
					if kind == "dates" {
						rows[i][j] = time.Date(2020, 1, 1+i, j, 0, 0, 0, time.UTC).Format("2006-01-02T15:04:05")
					} else {
						rows[i][j] = 43000 + i + j
					}
				}
			}
			args, err := json.Marshal(map[string]any{"file_path": "b.xlsx", "cell_range": "A1", "values": rows})
			require.NoError(b, err)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if res := reg.CallTool(context.Background(), "write_cells", args); res.IsError {
					b.Fatal(res.Text)
				}
			}
		})
	}
}
