package excelops

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// oracleSharedStrings is the shared-strings parser as it was on
// encoding/xml (RawToken), kept as the oracle of the differential tests of
// parseSharedStrings: same limits, same rules, same errors.
func oracleSharedStrings(r io.Reader, lim Limits) ([]string, int64, error) {
	dec := xml.NewDecoder(bufio.NewReaderSize(lim.newRunBound(r, "the shared strings"), sheetxml.BufferSize))
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
				return nil, 0, err
			}
			return nil, 0, newError(KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
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
					return nil, 0, lim.within("loading the shared strings", held*2)
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
					return nil, 0, lim.cellTextErr(fmt.Sprintf("shared string %d", len(out)))
				}
			}
		}
	}
	if out == nil {
		out = []string{}
	}
	return out, held, nil
}
