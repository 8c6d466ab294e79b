package sheetread

import (
	"bytes"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
)

// FuzzScanSheet: the sheet scanner never panics and stays within its limits.
func FuzzScanSheet(f *testing.F) {
	f.Add([]byte(`<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`))
	f.Add([]byte(`<x:row r="99999999"><x:c r="XFD1"/></x:row>`))
	f.Add([]byte(`<row><c/><c r="$B$2"/></row><sheetData/>`))
	lim := limits.Limits{MaxRows: 1000, MaxCells: 100000}.WithDefaults()
	f.Fuzz(func(t *testing.T, data []byte) {
		ext, err := ScanSheet(bytes.NewReader(data), lim, nil)
		if err == nil && (ext.MaxRow > lim.MaxRows || ext.Padded > lim.MaxCells) {
			t.Fatalf("limits not enforced: %+v", ext)
		}
	})
}

// FuzzRowReader: the fast row reader never panics on arbitrary sheet XML.
func FuzzRowReader(f *testing.F) {
	f.Add([]byte(`<sheetData><row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>a&amp;b</t></is></c><c r="C1"><v>1.5</v></c></row></sheetData>`))
	f.Add([]byte(`<sheetData><row r="2"><c t="b"><v>1</v></c><c t="e"><v>#N/A</v></c></row>`))
	f.Add([]byte(`<sheetData><row r="3"><c r="A3" s="2"><v>45322.5</v></c><c s="1"><v>-1</v></c><c s="99"><v>1e400</v></c></row></sheetData>`))
	ds := &dates.Styles{IsDate: []bool{false, true, true}, Date1904: true}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, encode := range []bool{false, true} {
			rr := NewRowReader(bytes.NewReader(data), []string{"x"}, 1, 5, ds, RowOpts{Encode: encode})
			_ = rr.Walk(func(int, []any) error { return nil })
		}
	})
}
