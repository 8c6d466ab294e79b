package excelops

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"testing/iotest"
)

// FuzzRunBound: the run bound fails exactly when some run of bytes
// without '<' is longer than the bound, and passes the bytes unchanged.
func FuzzRunBound(f *testing.F) {
	f.Add([]byte(`<row><c><v>123</v></c></row>`), uint8(3))
	f.Add([]byte(`aaaa<bbbbbbbb`), uint8(4))
	f.Add([]byte(`<<<<`), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, max uint8) {
		lim := Limits{MaxCellTextBytes: int64(max)}
		tooLong := false
		for _, run := range bytes.Split(data, []byte("<")) {
			tooLong = tooLong || len(run) > int(max)
		}
		// A reader that returns one byte at a time exercises runs that
		// cross reads; reads of a few bytes, reads shorter and longer than
		// the bound.
		for _, r := range []io.Reader{&oneByte{data}, iotest.HalfReader(bytes.NewReader(data)), bytes.NewReader(data)} {
			got, err := io.ReadAll(lim.newRunBound(r, "x"))
			if tooLong != (err != nil) {
				t.Fatalf("max %d: error %v, want error %v", max, err, tooLong)
			}
			if err != nil && !errors.Is(err, errRunTooLong) {
				t.Fatalf("error %v is not the run bound's", err)
			}
			if err == nil && !bytes.Equal(got, data) {
				t.Fatal("bytes changed")
			}
		}
	})
}

// oneByte reads one byte per call.
type oneByte struct{ data []byte }

func (o *oneByte) Read(p []byte) (int, error) {
	if len(o.data) == 0 {
		return 0, io.EOF
	}
	if len(p) == 0 {
		return 0, nil
	}
	p[0], o.data = o.data[0], o.data[1:]
	return 1, nil
}

// FuzzScanStyles: the style scan never panics on arbitrary sheet XML and
// never holds more than maxCells cells or merges.
func FuzzScanStyles(f *testing.F) {
	f.Add([]byte(`<sheetData><row r="1"><c r="A1" s="1"><v>1</v></c><c s="2"/></row></sheetData><mergeCells><mergeCell ref="A1:B2"/></mergeCells>`))
	f.Add([]byte(`<row r="1048576"><c r="XFD1048576" s="9"/></row><row><c/></row><mergeCell ref="A1"/>`))
	f.Add([]byte(`<x:row r="2"><x:c r="B2" s="3"></x:c></x:row><mergeCell ref="Z:Z"/>`))
	all := cellRange{c1: 1, r1: 1, c2: 16384, r2: 1 << 20}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, _ := scanStylesIn(bytes.NewReader(data), "S", all, 3, func() error { return nil })
		if len(got.cells) > 3 || len(got.merges) > 3 {
			t.Fatalf("held %d cells and %d merges, more than 3", len(got.cells), len(got.merges))
		}
	})
}
