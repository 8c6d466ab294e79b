package splicepath

import (
	"context"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// FuzzSheetFormulasMiss: the formula check reads any worksheet XML without
// panicking or hanging, and a sheet it calls free of formulas reading A1
// holds no formula naming A1 plainly.
func FuzzSheetFormulasMiss(f *testing.F) {
	f.Add(`<worksheet><sheetData><row r="1"><c r="B1"><f>SUM(A1:A3)</f><v>6</v></c></row></sheetData></worksheet>`)
	f.Add(`<worksheet><sheetData><row r="2"><c r="E1"><f t="shared" ref="E1:E3" si="0">C1*2</f><v>2</v></c><c r="E2"><f t="shared" si="0"/><v>1</v></c></row></sheetData></worksheet>`)
	f.Add(`<worksheet><sheetData><row><c><f t="shared" si="7"/><v>1</v></c></row></sheetData></worksheet>`)
	f.Fuzz(func(t *testing.T, xml string) {
		free, _, err := sheetFormulasMiss(context.Background(), strings.NewReader(xml), "Sheet1", cellarea.Area{Sheet: "Sheet1", C1: 1, R1: 1, C2: 1, R2: 1})
		if err == nil && free && strings.Contains(xml, "<f>A1</f>") && strings.Contains(xml, "<v>") && !strings.Contains(xml, "<!") {
			w := sheetxml.NewWalker(strings.NewReader(xml))
			for {
				ev, err := w.Next()
				if err != nil {
					break
				}
				if ev == sheetxml.CellDone && string(w.Cell.FormulaText) == "A1" {
					t.Fatalf("a formula reading A1 was missed:\n%s", xml)
				}
			}
		}
	})
}
