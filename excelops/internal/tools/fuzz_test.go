package tools

import (
	"archive/zip"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
