package tools

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// FuzzOpenWorkbook: reading an arbitrary file as a workbook returns a
// payload, never a panic, and never leaves temporaries behind.
func FuzzOpenWorkbook(f *testing.F) {
	var buf bytes.Buffer
	wb := excelize.NewFile()
	_ = wb.SetCellValue("Sheet1", "A1", "seed")
	_ = wb.Write(&buf)
	f.Add(buf.Bytes())
	f.Add([]byte("PK\x03\x04"))
	var z bytes.Buffer
	zw := zip.NewWriter(&z)
	w, _ := zw.Create("xl/workbook.xml")
	_, _ = w.Write([]byte("<workbook><sheets><sheet name=\"S\"/></sheets></workbook>"))
	_ = zw.Close()
	f.Add(z.Bytes())
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		tmp := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.xlsx"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		svc, err := New(dir, WithTempDir(tmp), WithLimits(limits.Limits{UnzipSizeLimit: 64 << 20, MaxCells: 1 << 20}))
		if err != nil {
			t.Fatal(err)
		}
		_, _ = svc.readExcel(context.Background(), readExcelArgs{fileArg: fileArg{FilePath: "f.xlsx"}, Range: "A1:C5"})
		_, _ = svc.listSheets(context.Background(), listSheetsArgs{fileArg{FilePath: "f.xlsx"}})
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Fatalf("temporaries left: %v", left)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 1 || strings.HasPrefix(ents[0].Name(), ".~") {
			t.Fatalf("workspace changed: %v", ents)
		}
	})
}

// FuzzParseRange: any text is a range, or an error saying which forms are
// accepted or which edge of the grid it is past; a range renders back to
// itself.
func FuzzParseRange(f *testing.F) {
	for _, s := range []string{"A1", "A1:C3", "$B$7", "A:A", "1:3", "XFD1048576", "XFE1", "A1048577", "a1:b2", "A0", "ZZZZ9", "A1:B2:C3", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := grid.ParseRange(s)
		if err != nil {
			msg := err.Error()
			if !strings.Contains(msg, "invalid cell range") {
				t.Fatalf("%q: %s", s, msg)
			}
			return
		}
		if r.C1 < 1 || r.R1 < 1 || r.C2 > grid.LastCol || r.R2 > grid.LastRow || r.C1 > r.C2 || r.R1 > r.R2 {
			t.Fatalf("%q parsed to %+v", s, r)
		}
		back, err := grid.ParseRange(r.String())
		if err != nil || back != r {
			t.Fatalf("%q -> %s -> %+v, %v", s, r, back, err)
		}
	})
}

// FuzzISODate: a string write_cells takes for a date comes back, through
// the serial it stores and the reader's conversion, as the same instant
// (to the millisecond openpyxl keeps).
func FuzzISODate(f *testing.F) {
	for _, s := range []string{"2024-01-31", "13:45:00", "2024-01-31T13:45:30.5", "2024-01-31 08:00", "9:05", "1900-02-28", "1900-03-01", "9999-12-31T23:59:59.999", "24:00", "2024-02-30"} {
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, date1904 bool) {
		tm, kind := engine.ParseISODate(s)
		if kind == engine.NotDate {
			return
		}
		serial, ok := engine.ExcelSerial(tm, kind, date1904)
		if !ok {
			return // before the epoch: stored as text
		}
		if !date1904 && kind != engine.KindTime && tm.Before(time.Date(1900, 3, 1, 0, 0, 0, 0, time.UTC)) {
			return // the 1900 leap-year bug's first two months read one day off, as in openpyxl
		}
		iso, ok := dates.SerialISO(serial, date1904)
		if !ok {
			t.Fatalf("%q: serial %v does not read back", s, serial)
		}
		back, _ := engine.ParseISODate(iso)
		// Within the millisecond openpyxl rounds to (and one more for a
		// time of day rounded up to midnight, which reads as a date).
		if d := back.Sub(tm.Truncate(time.Microsecond)); d > time.Millisecond || d < -time.Millisecond {
			if kind == engine.KindTime && tm.Round(time.Millisecond).Day() != tm.Day() {
				return
			}
			t.Fatalf("%q -> %v -> %q -> %v", s, serial, iso, back)
		}
	})
}
