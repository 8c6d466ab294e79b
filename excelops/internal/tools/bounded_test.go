package tools

import (
	"archive/zip"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readTools are the calls every bounds test makes on one workbook: the
// reads that stream a sheet, the style read and a format that parses it.
func boundedCalls(file string) []struct {
	tool string
	args map[string]any
} {
	return []struct {
		tool string
		args map[string]any
	}{
		{"list_sheets", map[string]any{"file_path": file}},
		{"read_excel", map[string]any{"file_path": file}},
		{"read_excel", map[string]any{"file_path": file, "range": "A1:XFD1048576"}},
		{"read_cell_styles", map[string]any{"file_path": file, "cell_range": "A1:XFD1048576"}},
		{"format_cells", map[string]any{"file_path": file, "cell_range": "A1:B2", "font": map[string]any{"bold": true}}},
		{"write_cells", map[string]any{"file_path": file, "cell": "A1", "value": 1}},
	}
}

// TestNonRegularFilesAreRefusedWithoutBlocking: a FIFO, a socket or a
// device named .xlsx gets a clear error from every tool, at once (opening a
// FIFO for reading would block until a writer comes, forever).
func TestNonRegularFilesAreRefusedWithoutBlocking(t *testing.T) {
	e := newEnv(t)
	mkfifo(t, e.path("fifo.xlsx"))
	l, err := net.Listen("unix", e.path("sock.xlsx"))
	require.NoError(t, err)
	defer l.Close()
	specials := map[string]string{"fifo.xlsx": "named pipe", "sock.xlsx": "socket"}
	// A character device like /dev/null (major 1, minor 3); creating one
	// needs root, which CI's container has.
	if err := mknodNull(e.path("dev.xlsx")); err == nil {
		specials["dev.xlsx"] = "device"
	} else {
		t.Logf("no device node (%v): devices are not covered here", err)
	}
	for name, what := range specials {
		for _, c := range boundedCalls(name) {
			t.Run(name+"/"+c.tool, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
				defer cancel()
				res := e.reg.CallTool(ctx, c.tool, mustJSON(t, c.args))
				require.True(t, res.IsError, res.Text)
				assert.Contains(t, res.Text, `"exception": "ValueError"`)
				assert.Contains(t, res.Text, what)
				assert.Contains(t, res.Text, "only regular files are opened")
			})
		}
	}
}

// zipWith writes a one-sheet workbook at path whose sheet XML and shared
// strings are the given bodies (styles from a real excelize workbook).
func zipWith(t *testing.T, path string, sheet []byte, sst []byte) {
	t.Helper()
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "x")) // makes a sharedStrings part
	require.NoError(t, f.SaveAs(path))
	require.NoError(t, f.Close())
	rewriteZip(t, path, func(zw *zip.Writer, name string) (bool, error) {
		var body []byte
		switch name {
		case "xl/worksheets/sheet1.xml":
			body = sheet
		case "xl/sharedStrings.xml":
			body = sst
		default:
			return false, nil
		}
		w, err := zw.Create(name)
		if err != nil {
			return true, err
		}
		_, err = w.Write(body)
		return true, err
	})
}

// sstXML is a shared string table holding strs.
func sstXML(strs ...string) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d" uniqueCount="%d">`, len(strs), len(strs))
	for _, s := range strs {
		b.WriteString("<si><t>" + s + "</t></si>")
	}
	b.WriteString("</sst>")
	return []byte(b.String())
}

// TestInflatedCellIsRefusedWhileStreaming: one cell (inline or shared)
// whose text inflates past MaxCellTextBytes is reported as too large by
// every tool, from a file that is small on disk, instead of being loaded.
func TestInflatedCellIsRefusedWhileStreaming(t *testing.T) {
	const bound = 64 << 10
	huge := strings.Repeat("A", 512<<10) // 8 times the bound
	cases := map[string]struct{ sheet, sst []byte }{
		"inline string": {
			sheet: sheetXML("A1:B2", `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="B2" t="inlineStr"><is><t>`+huge+`</t></is></c></row>`),
			sst:   sstXML("head"),
		},
		"shared string": {
			sheet: sheetXML("A1:B2", `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="B2" t="s"><v>1</v></c></row>`),
			sst:   sstXML("head", huge),
		},
		"rich text of many small runs": {
			sheet: sheetXML("A1:B2", `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="B2" t="inlineStr"><is>`+strings.Repeat(`<r><t>`+strings.Repeat("R", 1000)+`</t></r>`, 500)+`</is></c></row>`),
			sst:   sstXML("head"),
		},
		"number": {
			sheet: sheetXML("A1:B2", `<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="B2"><v>`+strings.Repeat("9", 512<<10)+`</v></c></row>`),
			sst:   sstXML("head"),
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, WithLimits(limits.Limits{MaxCellTextBytes: bound}))
			zipWith(t, e.path("bomb.xlsx"), c.sheet, c.sst)
			for _, call := range boundedCalls("bomb.xlsx") {
				if call.tool == "list_sheets" || name != "inline string" && name != "number" && call.tool == "read_cell_styles" {
					continue // they hold no cell text: small runs or shared strings cost them nothing
				}
				res := e.call(call.tool, call.args)
				require.True(t, res.IsError, "%s: %s", call.tool, res.Text)
				assert.Contains(t, res.Text, `"exception": "MemoryError"`, call.tool)
				assert.Contains(t, res.Text, "more than 64.0 KiB of text", call.tool)
			}
		})
	}
}

// TestRowsOutOfOrderAreDamageNotAnEmptySheet: a sheet whose first row is
// row 1048576 (rows out of order) never reads as empty.
func TestRowsOutOfOrderAreDamageNotAnEmptySheet(t *testing.T) {
	rows := `<row r="1048576"><c r="A1048576"><v>9</v></c></row>`
	for r := 1; r <= 5; r++ {
		rows += fmt.Sprintf(`<row r="%d"><c r="A%d"><v>%d</v></c></row>`, r, r, r)
	}
	e := newEnv(t)
	e.workbook("ooo.xlsx", [][]any{{1}})
	withSheetXML(t, e.path("ooo.xlsx"), sheetXML("A1:A1048576", rows))
	for _, args := range []map[string]any{
		{"file_path": "ooo.xlsx"},
		{"file_path": "ooo.xlsx", "range": "A1:C10"},
		{"file_path": "ooo.xlsx", "range": "A1:A1"},
	} {
		p := e.fail("read_excel", args)
		assert.Equal(t, "BadZipFile", p["exception"], p)
		assert.Contains(t, p["message"], "out of order (row 1 comes after row 1048576)")
	}
	// The style read walks every cell that exists: order does not matter.
	got := e.ok("read_cell_styles", map[string]any{"file_path": "ooo.xlsx", "cell_range": "A1:A10"})
	assert.Equal(t, false, got["truncated"])

	t.Run("cells out of order", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("c.xlsx", [][]any{{1}})
		withSheetXML(t, e.path("c.xlsx"), sheetXML("A1:C1", `<row r="1"><c r="C1"><v>3</v></c><c r="A1"><v>1</v></c></row>`))
		for _, args := range []map[string]any{{"file_path": "c.xlsx"}, {"file_path": "c.xlsx", "range": "A1:C1"}} {
			p := e.fail("read_excel", args)
			assert.Contains(t, p["message"], "cells of row 1 of sheet \"Sheet1\" are out of order (A1 comes after C1)")
		}
	})
	t.Run("rows in order after the page still end the read", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("ok.xlsx", [][]any{{"h"}, {1}, {2}, {3}})
		got := e.ok("read_excel", map[string]any{"file_path": "ok.xlsx", "range": "A1:A2"})
		assert.Equal(t, []any{[]any{"h"}, []any{1.0}}, got["values"])
	})
}

// styledSheet is sheet XML of rows rows whose cells A and B carry style s.
func styledSheet(rows, s int) []byte {
	var b strings.Builder
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="A%d" s="%d"><v>%d</v></c><c r="B%d"><v>1</v></c></row>`, r, r, s, r, r)
	}
	doc := sheetXML(fmt.Sprintf("A1:B%d", rows), b.String())
	merges := `<mergeCells count="2"><mergeCell ref="C1:D2"/><mergeCell ref="Z900:Z901"/></mergeCells>`
	return []byte(strings.Replace(string(doc), "</sheetData>", "</sheetData>"+merges, 1))
}

// TestWholeSheetRangesAreBoundedByWhatExists: read_cell_styles and
// read_excel on A1:XFD1048576 walk only the cells that exist and answer;
// format_cells on it is refused by the memory budget before allocating.
func TestWholeSheetRangesAreBoundedByWhatExists(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	require.NoError(t, f.SaveAs(e.path("big.xlsx")))
	require.NoError(t, f.Close())
	withSheetXML(t, e.path("big.xlsx"), styledSheet(3000, bold))

	got := e.ok("read_cell_styles", map[string]any{"file_path": "big.xlsx", "cell_range": "A1:XFD1048576"})
	assert.Len(t, got["styled_cells"], maxStyledCells)
	assert.Equal(t, true, got["truncated"])
	assert.Equal(t, []any{"C1:D2", "Z900:Z901"}, got["merged_ranges"])
	first := got["styled_cells"].([]any)[0].(map[string]any)
	assert.Equal(t, "A1", first["cell"])
	assert.Equal(t, true, first["font"].(map[string]any)["bold"])

	got = e.ok("read_cell_styles", map[string]any{"file_path": "big.xlsx", "cell_range": "B1:XFD1048576"})
	assert.Empty(t, got["styled_cells"], "column B holds no styled cell")
	assert.Equal(t, []any{"C1:D2", "Z900:Z901"}, got["merged_ranges"])

	got = e.ok("read_excel", map[string]any{"file_path": "big.xlsx", "range": "A1:XFD1048576", "max_rows": 3})
	assert.Equal(t, []any{[]any{1.0, 1.0}, []any{2.0, 1.0}, []any{3.0, 1.0}}, got["values"], "wide ranges return rows as wide as the data")

	p := e.fail("format_cells", map[string]any{"file_path": "big.xlsx", "cell_range": "A1:XFD1048576", "font": map[string]any{"bold": true}})
	assert.Equal(t, "MemoryError", p["exception"])
	assert.Contains(t, p["message"], "more than")

	small := newEnv(t, WithLimits(limits.Limits{CallMemoryBudget: 1 << 20}))
	small.workbook("w.xlsx", [][]any{{1, 2}})
	p = small.fail("format_cells", map[string]any{"file_path": "w.xlsx", "cell_range": "A1:Z500", "font": map[string]any{"bold": true}})
	assert.Contains(t, p["message"], "formatting A1:Z500 (13000 cells) needs about 7.4 MiB, more than the per-call memory budget of 1.0 MiB")
	got = small.ok("format_cells", map[string]any{"file_path": "w.xlsx", "cell_range": "A1:B2", "font": map[string]any{"bold": true}})
	assert.EqualValues(t, 4, got["cells_formatted"])
}

// TestMemoryBudgetRefusesBeforeAllocating: a workbook or a sheet parse
// bigger than the per-call budget gets a MemoryError naming the budget.
func TestMemoryBudgetRefusesBeforeAllocating(t *testing.T) {
	// The budget bounds what a parse allocates: the excelize path (the
	// splice path parses nothing and holds the compressed file).
	e := newEnv(t, withoutSplice(), WithLimits(limits.Limits{CallMemoryBudget: 200 << 10}))
	rows := make([][]any, 3000)
	for i := range rows {
		rows[i] = []any{i, "some text to make the sheet larger", i * 2}
	}
	e.workbook("b.xlsx", rows)
	p := e.fail("write_cells", map[string]any{"file_path": "b.xlsx", "cell": "A1", "value": 1})
	assert.Equal(t, "MemoryError", p["exception"])
	assert.Contains(t, p["message"], "per-call memory budget of 200.0 KiB")
	// A streamed read holds a page, not the sheet: it still answers.
	got := e.ok("read_excel", map[string]any{"file_path": "b.xlsx", "max_rows": 5})
	assert.EqualValues(t, 5, got["rows_returned"])
}

// TestDefaultCallMemoryBudgetIsSizedForTheMachine checks the bounds.
func TestDefaultCallMemoryBudgetIsSizedForTheMachine(t *testing.T) {
	b := limits.DefaultCallMemoryBudget()
	assert.GreaterOrEqual(t, b, int64(limits.MinCallMemoryBudget))
	assert.LessOrEqual(t, b, int64(limits.MaxCallMemoryBudget))
	assert.Equal(t, b, limits.DefaultLimits().CallMemoryBudget)
}

// mustJSON marshals v.
func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	raw, err := json.Marshal(v)
	require.NoError(t, err)
	return raw
}

// TestCallTimeoutBoundsSpreadsheetTools: the operator's call timeout
// replaces the spreadsheet tools' own 2- and 5-minute defaults, and a
// caller's timeout still overrides it for one call.
func TestCallTimeoutBoundsSpreadsheetTools(t *testing.T) {
	e := newEnv(t)
	e.workbook("t.xlsx", [][]any{{"a"}, {1}})
	reg := registry.New(registry.WithCallTimeout(time.Nanosecond))
	require.NoError(t, e.svc.Register(reg))
	for _, c := range boundedCalls("t.xlsx") {
		res := reg.CallTool(context.Background(), c.tool, mustJSON(t, c.args))
		assert.Equal(t, errorsjson.CodeTimeout, res.Code, "%s: %s", c.tool, res.Text)
	}
	res := reg.CallTool(context.Background(), "read_excel", []byte(`{"file_path": "t.xlsx"}`), registry.WithTimeout(time.Minute))
	assert.False(t, res.IsError, res.Text)
}

// TestEmptyRowsCountAgainstThePage: rows without cells still take their
// place in a range page, padded to the range's width, so they count
// against the page's cell limit: a sheet with rows 1 and 1,000,000 pages
// instead of padding a million rows into one result.
func TestEmptyRowsCountAgainstThePage(t *testing.T) {
	e := newEnv(t, WithLimits(limits.Limits{MaxReadCells: 1000}))
	e.workbook("gap.xlsx", [][]any{{1}})
	withSheetXML(t, e.path("gap.xlsx"), sheetXML("A1:J1000000", `<row r="1"><c r="A1"><v>1</v></c></row><row r="1000000"><c r="J1000000"><v>2</v></c></row>`))
	got := e.ok("read_excel", map[string]any{"file_path": "gap.xlsx", "range": "A1:J1000000"})
	assert.EqualValues(t, 100, got["rows_returned"], "1000 cells of 10 columns")
	assert.Equal(t, true, got["has_more"])
	assert.EqualValues(t, 100, got["next_offset"])
}
