package sharedstrings

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// oracleSharedStrings is the shared-strings parser as it was on
// encoding/xml (RawToken), kept as the oracle of the differential tests of
// Parse: same limits, same rules, same errors.
func oracleSharedStrings(r io.Reader, lim budget.Budget) ([]string, int64, error) {
	dec := xml.NewDecoder(bufio.NewReaderSize(lim.RunBound(r, "the shared strings"), sheetxml.BufferSize))
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
			if failure.KindOf(err) != "" {
				return nil, 0, err
			}
			return nil, 0, failure.New(failure.KindDamaged, "file is damaged: shared strings: "+err.Error(), err)
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
				cur = append(cur[:0], excelize.UnescapeXstring(string(cur))...) // then as Excel decodes an ST_Xstring
				if held += int64(len(cur)) + StringHeaderBytes; held > lim.Memory/2 {
					return nil, 0, lim.Within("loading the shared strings", held*2)
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
				if cur = append(cur, t...); int64(len(cur)) > lim.MaxText {
					return nil, 0, lim.CellText(fmt.Sprintf("shared string %d", len(out)))
				}
			}
		}
	}
	if out == nil {
		out = []string{}
	}
	return out, held, nil
}
