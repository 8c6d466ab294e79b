package tools

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFormulaResultKeepsItsType: a formula's cached value has the type of
// its result, as LibreOffice 25.2 computes it (tests/oracle/formula_corpus.py),
// on the splice path and on the excelize path: a text that looks like a
// number stays text, an empty text reads back as "" (t="str" with an empty
// <v>), a reference to a blank cell is 0. A1 holds the text "7" as a
// formula, since write_cells reads "7" as a number. A value written over an
// empty-text formula leaves no empty <v> behind.
func TestFormulaResultKeepsItsType(t *testing.T) {
	for _, splice := range []bool{true, false} {
		t.Run(map[bool]string{true: "splice", false: "excelize"}[splice], func(t *testing.T) {
			e := newEnv(t, WithSplice(splice))
			e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell_range": "A1", "values": [][]any{
				{`="7"`, 7},
			}})
			e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell_range": "A2", "values": [][]any{
				{`=IFERROR(A1,"x")`, `=CLEAN("")`, "=H10", `=IFNA(NA(),"")`, "=B1*2"},
			}})
			got := e.ok("read_excel", map[string]any{"file_path": "t.xlsx", "range": "A2:E2"})
			assert.Equal(t, []any{[]any{"7", "", float64(0), "", float64(14)}}, got["values"])
			assert.Equal(t, 2, strings.Count(part(t, e.path("t.xlsx"), "xl/worksheets/sheet1.xml"), "<v></v>"))

			e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell": "B2", "value": 5})
			e.ok("write_cells", map[string]any{"file_path": "t.xlsx", "cell": "D2", "value": "=1+1"})
			got = e.ok("read_excel", map[string]any{"file_path": "t.xlsx", "range": "A2:E2"})
			assert.Equal(t, []any{[]any{"7", float64(5), float64(0), float64(2), float64(14)}}, got["values"])
			assert.Equal(t, 0, strings.Count(part(t, e.path("t.xlsx"), "xl/worksheets/sheet1.xml"), "<v></v>"))
		})
	}
}
