package engine

import (
	"bytes"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
)

// FuzzScanStyles: the style scan never panics on arbitrary sheet XML and
// never holds more than maxCells cells or merges.
func FuzzScanStyles(f *testing.F) {
	f.Add([]byte(`<sheetData><row r="1"><c r="A1" s="1"><v>1</v></c><c s="2"/></row></sheetData><mergeCells><mergeCell ref="A1:B2"/></mergeCells>`))
	f.Add([]byte(`<row r="1048576"><c r="XFD1048576" s="9"/></row><row><c/></row><mergeCell ref="A1"/>`))
	f.Add([]byte(`<x:row r="2"><x:c r="B2" s="3"></x:c></x:row><mergeCell ref="Z:Z"/>`))
	all := cellarea.Range{C1: 1, R1: 1, C2: 16384, R2: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _ := scanStylesIn(bytes.NewReader(data), "S", all, 3, func() error { return nil })
		if len(got.Cells) > 3 || len(got.Merges) > 3 {
			t.Fatalf("held %d cells and %d merges, more than 3", len(got.Cells), len(got.Merges))
		}
	})
}
