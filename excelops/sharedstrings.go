package excelops

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
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
	if b.lightID != nil {
		if e := b.svc.light.get(*b.lightID); e != nil && e.sst != nil {
			b.sst = e.sst
			return b.sst, nil
		}
	}
	lim := b.svc.limits
	if err := lim.within("loading the shared strings", 2*int64(zf.UncompressedSize64)); err != nil {
		return nil, err
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
	}
	defer rc.Close()
	dec := xml.NewDecoder(bufio.NewReaderSize(lim.newRunBound(rc, "the shared strings"), sheetxml.BufferSize))
	held := int64(0) // bytes the table holds so far
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
			if kindOf(err) != "" {
				return nil, err
			}
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
				if held += int64(len(cur)) + stringHeaderBytes; held > lim.CallMemoryBudget/2 {
					return nil, lim.within("loading the shared strings", held*2)
				}
				out = append(out, string(cur))
				inSI = false
			case "rPh":
				depth--
			case "t":
				inT = false
			}
		case xml.CharData:
			if inT {
				if cur = append(cur, t...); int64(len(cur)) > lim.MaxCellTextBytes {
					return nil, lim.cellTextErr(fmt.Sprintf("shared string %d", len(out)))
				}
			}
		}
	}
	if out == nil {
		out = []string{}
	}
	b.sst = out
	if b.lightID != nil {
		b.svc.light.putStrings(*b.lightID, out, held)
	}
	return out, nil
}

// stringHeaderBytes is what one Go string costs beyond its bytes.
const stringHeaderBytes = 16
