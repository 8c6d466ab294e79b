package splice

import (
	"bytes"
	"fmt"
	"io"
	"testing"
)

// BenchmarkRewrite: one 100 x 10 edit of a 50,000 x 10 sheet of numbers,
// without compression (the scan alone), with untouched rows passed on by
// their bytes and, in the same run, tokenized (the peer).
func BenchmarkRewrite(b *testing.B) {
	var sheet bytes.Buffer
	sheet.WriteString(`<worksheet><dimension ref="A1:J50001"/><sheetData>`)
	for r := 1; r <= 50_001; r++ {
		fmt.Fprintf(&sheet, `<row r="%d">`, r)
		for c := 1; c <= 10; c++ {
			fmt.Fprintf(&sheet, `<c r="%s"><v>%d.%d</v></c>`, Ref(c, r), (r*31+c*17)%1000, c)
		}
		sheet.WriteString(`</row>`)
	}
	sheet.WriteString(`</sheetData></worksheet>`)
	cells := map[int][]int{}
	for r := 20_000; r < 20_100; r++ {
		cells[r] = []int{12, 13, 14, 15, 16, 17, 18, 19, 20, 21}
	}
	for _, mode := range []string{"skip", "tokenize"} {
		b.Run(mode, func(b *testing.B) {
			b.SetBytes(int64(sheet.Len()))
			for b.Loop() {
				plan := cellsPlan(cells)
				plan.NoFormulas, plan.MaxCellText, plan.tokenizeAll = true, 32767, mode == "tokenize"
				if _, _, err := Rewrite(bytes.NewReader(sheet.Bytes()), plan, io.Discard); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
