package excelops

import (
	"bufio"
	"encoding/xml"
	"errors"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// sharedStrings loads the shared string table of the package as on disk.
func (b *book) sharedStrings() ([]string, error) {
	if b.sst != nil || b.zr == nil {
		return b.sst, nil
	}
	zf := findPart(b.zr, "xl/sharedStrings.xml")
	if zf == nil {
		b.sst = []string{}
		return b.sst, nil
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	defer rc.Close()
	dec := xml.NewDecoder(bufio.NewReaderSize(rc, sheetxml.BufferSize))
	var (
		out   []string
		cur   []byte
		depth int // >0 inside a phonetic run, whose text is not the value
		inT   bool
		inSI  bool
	)
	for {
		tok, err := dec.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				inSI, cur = true, cur[:0]
			case "rPh":
				depth++
			case "t":
				inT = inSI && depth == 0
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				out = append(out, string(cur))
				inSI = false
			case "rPh":
				depth--
			case "t":
				inT = false
			}
		case xml.CharData:
			if inT {
				cur = append(cur, t...)
			}
		}
	}
	b.sst = out
	return out, nil
}
