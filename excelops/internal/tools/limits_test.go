package tools

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withSheetXML rewrites the workbook at path so that sheet1's XML is body
// (written with an honest zip header).
func withSheetXML(t *testing.T, path string, body []byte) {
	t.Helper()
	rewriteZip(t, path, func(zw *zip.Writer, name string) (bool, error) {
		if name != "xl/worksheets/sheet1.xml" {
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

// rewriteZip copies the zip at path, letting replace write some entries.
func rewriteZip(t *testing.T, path string, replace func(zw *zip.Writer, name string) (bool, error)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	require.NoError(t, err)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		done, err := replace(zw, f.Name)
		require.NoError(t, err)
		if done {
			continue
		}
		require.NoError(t, zw.Copy(f))
	}
	require.NoError(t, zw.Close())
	require.NoError(t, os.WriteFile(path, out.Bytes(), 0o644))
}

// sheetXML wraps row elements in a worksheet document.
func sheetXML(dimension, rows string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` +
		`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><dimension ref="` + dimension + `"/><sheetData>` +
		rows + `</sheetData></worksheet>`)
}

func TestZipBombIsRefused(t *testing.T) {
	skipUnderRace(t)
	t.Run("honest headers over the unzip limit", func(t *testing.T) {
		e := newEnv(t, WithLimits(limits.Limits{UnzipSizeLimit: 16 << 20, UnzipXMLSizeLimit: 4 << 20}))
		e.workbook("bomb.xlsx", [][]any{{1}})
		// 64 MiB of padding inside the sheet compresses to ~64 KiB.
		pad := strings.Repeat(" ", 64<<20)
		withSheetXML(t, e.path("bomb.xlsx"), sheetXML("A1", `<row r="1"><c r="A1"><v>1</v></c></row>`+pad))
		st, err := os.Stat(e.path("bomb.xlsx"))
		require.NoError(t, err)
		require.Less(t, st.Size(), int64(1<<20), "the bomb must be small on disk")
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"read_excel", map[string]any{"file_path": "bomb.xlsx"}},
			{"write_cells", map[string]any{"file_path": "bomb.xlsx", "cell": "A1", "value": 2}},
		} {
			p := e.fail(c.tool, c.args)
			assert.Equal(t, "MemoryError", p["exception"])
			assert.Contains(t, p["message"], "zip bomb")
		}
	})
	t.Run("forged header claiming 5 GiB", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("forged.xlsx", [][]any{{1}})
		body := sheetXML("A1", `<row r="1"><c r="A1"><v>1</v></c></row>`)
		rewriteZip(t, e.path("forged.xlsx"), func(zw *zip.Writer, name string) (bool, error) {
			if name != "xl/worksheets/sheet1.xml" {
				return false, nil
			}
			var comp bytes.Buffer
			fw, _ := flate.NewWriter(&comp, flate.BestCompression)
			_, _ = fw.Write(body)
			_ = fw.Close()
			w, err := zw.CreateRaw(&zip.FileHeader{Name: name, Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(body),
				CompressedSize64: uint64(comp.Len()), UncompressedSize64: 5 << 30})
			if err != nil {
				return true, err
			}
			_, err = io.Copy(w, &comp)
			return true, err
		})
		p := e.fail("read_excel", map[string]any{"file_path": "forged.xlsx"})
		assert.Equal(t, "MemoryError", p["exception"])
		assert.Contains(t, p["message"], "unzip limit")
	})
}

func TestHugeRowNumberBombIsRefused(t *testing.T) {
	cases := []struct {
		name   string
		limits limits.Limits
		rows   func() string
		want   string
		tool   string // default write_cells (the splice path refuses rows past the limit)
	}{
		// Padding only costs on the excelize path, which a structural edit takes.
		{"cells at column XFD pad every row", limits.Limits{}, func() string {
			var sb strings.Builder
			for r := 1; r <= 2000; r++ {
				fmt.Fprintf(&sb, `<row r="%d"><c r="XFD%d"><v>1</v></c></row>`, r, r)
			}
			return sb.String()
		}, "more than 20000000 cells", "insert_rows"},
		{"row 1048576 with a small row limit", limits.Limits{MaxRows: 100000}, func() string {
			return `<row r="1"><c r="A1"><v>1</v></c></row><row r="1048576"><c r="XFD1048576"><v>1</v></c></row>`
		}, "row 1048576", ""},
		{"row number past Excel's last row", limits.Limits{}, func() string {
			return `<row r="1"><c r="A1"><v>1</v></c></row><row r="99999999"><c r="A99999999"><v>1</v></c></row>`
		}, "row 99999999", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, WithLimits(c.limits))
			e.workbook("bomb.xlsx", [][]any{{1}})
			withSheetXML(t, e.path("bomb.xlsx"), sheetXML("A1:XFD1048576", c.rows()))
			orig, err := os.ReadFile(e.path("bomb.xlsx"))
			require.NoError(t, err)
			var p map[string]any
			if c.tool == "insert_rows" {
				p = e.fail("insert_rows", map[string]any{"file_path": "bomb.xlsx", "row": 2})
			} else {
				p = e.fail("write_cells", map[string]any{"file_path": "bomb.xlsx", "cell": "B2", "value": 1})
			}
			assert.Equal(t, "MemoryError", p["exception"], p)
			assert.Contains(t, p["message"], c.want)
			got, err := os.ReadFile(e.path("bomb.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, orig, got)
		})
	}
}

func TestDamagedSheetIsReportedNotShortened(t *testing.T) {
	var full strings.Builder
	for r := 1; r <= 200; r++ {
		fmt.Fprintf(&full, `<row r="%d"><c r="A%d"><v>%d</v></c></row>`, r, r, r)
	}
	rows := full.String()
	cut := strings.Index(rows, `<row r="120"`)
	cases := []struct {
		name string
		xml  []byte
	}{
		{"truncated mid-row", nil},
		{"truncated after a row", nil},
		{"garbage in the middle", sheetXML("A1:A200", rows[:cut]+`<row r="120"><c r="A120"><v>1</v></c><<garbage>>`+rows[cut:])},
	}
	head := sheetXML("A1:A200", rows)
	cases[0].xml = head[:bytes.Index(head, []byte(`<row r="150"`))+20]
	cases[1].xml = head[:bytes.Index(head, []byte(`<row r="150"`))]
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("dmg.xlsx", [][]any{{1}})
			withSheetXML(t, e.path("dmg.xlsx"), c.xml)
			for _, args := range []map[string]any{
				{"file_path": "dmg.xlsx", "max_rows": 500},
				{"file_path": "dmg.xlsx", "range": "A1:A200"},
			} {
				p := e.fail("read_excel", args)
				assert.Equal(t, "BadZipFile", p["exception"], p)
				assert.Contains(t, p["message"], "damaged")
			}
			p := e.fail("write_cells", map[string]any{"file_path": "dmg.xlsx", "cell": "B1", "value": 1})
			assert.Contains(t, p["message"], "damaged")
		})
	}
	t.Run("intact sheet read to its end is not damaged", func(t *testing.T) {
		e := newEnv(t)
		e.workbook("ok.xlsx", [][]any{{1}})
		withSheetXML(t, e.path("ok.xlsx"), sheetXML("A1:A200", rows))
		got := e.ok("read_excel", map[string]any{"file_path": "ok.xlsx", "range": "A1:A500"})
		assert.EqualValues(t, 200, got["rows_returned"])
	})
}

func TestFileSizeCap(t *testing.T) {
	e := newEnv(t, WithLimits(limits.Limits{MaxFileSize: 1024}))
	e.workbook("big.xlsx", [][]any{{strings.Repeat("x", 5000)}})
	p := e.fail("read_excel", map[string]any{"file_path": "big.xlsx"})
	assert.Equal(t, "MemoryError", p["exception"])
	assert.Contains(t, p["message"], "limit of 1024")
}

func TestDefaultLimits(t *testing.T) {
	l := limits.Limits{}.WithDefaults()
	assert.Equal(t, limits.DefaultLimits(), l)
	assert.Equal(t, int64(excelize.TotalRows), int64(l.MaxRows))
	custom := limits.Limits{UnzipSizeLimit: 10, UnzipXMLSizeLimit: 20}.WithDefaults()
	assert.Equal(t, int64(10), custom.UnzipXMLSizeLimit, "the XML limit never exceeds the unzip limit")
}

// TestBombInAnotherSheetIsRefused: some excelize operations parse every
// sheet of the workbook, not just the one edited (inserting or deleting
// rows or columns adjusts formulas everywhere; deleting or moving a sheet
// rewrites every sheet's view). A bomb in a sheet the call does not name
// must still be refused before excelize expands it.
func TestBombInAnotherSheetIsRefused(t *testing.T) {
	var bomb strings.Builder
	for r := 1; r <= 2000; r++ {
		fmt.Fprintf(&bomb, `<row r="%d"><c r="CV%d"><v>1</v></c></row>`, r, r)
	}
	// 2,000 rows padded to column CV (100) expand to 200,000 cells.
	lim := limits.Limits{MaxCells: 100_000}
	cases := []struct {
		tool string
		args map[string]any
	}{
		{"insert_rows", map[string]any{"sheet_name": "Sheet1", "row": 1}},
		{"delete_rows", map[string]any{"sheet_name": "Sheet1", "row": 1}},
		{"insert_columns", map[string]any{"sheet_name": "Sheet1", "column": "A"}},
		{"delete_sheet", map[string]any{"sheet_name": "Extra", "confirm": true}},
		{"create_sheet", map[string]any{"sheet_name": "First", "position": 0}},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			e := newEnv(t, WithLimits(lim))
			e.workbook("two.xlsx", [][]any{{1}})
			f := e.open("two.xlsx")
			_, err := f.NewSheet("Bomb")
			require.NoError(t, err)
			_, err = f.NewSheet("Extra")
			require.NoError(t, err)
			require.NoError(t, f.Save())
			withPart(t, e.path("two.xlsx"), "xl/worksheets/sheet2.xml", sheetXML("A1:CV2000", bomb.String()))
			orig, err := os.ReadFile(e.path("two.xlsx"))
			require.NoError(t, err)
			args := map[string]any{"file_path": "two.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			p := e.fail(c.tool, args)
			assert.Equal(t, "MemoryError", p["exception"], p)
			assert.Contains(t, p["message"], "more than 100000 cells")
			got, err := os.ReadFile(e.path("two.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, orig, got)
		})
	}
	t.Run("deleting the bomb sheet itself is allowed", func(t *testing.T) {
		e := newEnv(t, WithLimits(lim))
		e.workbook("two.xlsx", [][]any{{1}})
		f := e.open("two.xlsx")
		_, err := f.NewSheet("Bomb")
		require.NoError(t, err)
		require.NoError(t, f.Save())
		withPart(t, e.path("two.xlsx"), "xl/worksheets/sheet2.xml", sheetXML("A1:CV2000", bomb.String()))
		got := e.ok("delete_sheet", map[string]any{"file_path": "two.xlsx", "sheet_name": "Bomb", "confirm": true})
		assert.Equal(t, []any{"Sheet1"}, got["remaining_sheets"])
	})
}

// withPart rewrites the workbook at path so that the zip entry name holds
// body.
func withPart(t *testing.T, path, name string, body []byte) {
	t.Helper()
	rewriteZip(t, path, func(zw *zip.Writer, entry string) (bool, error) {
		if entry != name {
			return false, nil
		}
		w, err := zw.Create(entry)
		if err != nil {
			return true, err
		}
		_, err = w.Write(body)
		return true, err
	})
}
