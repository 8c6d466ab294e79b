package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/stretchr/testify/assert"
)

func TestCallsUncomputedForm(t *testing.T) {
	for formula, want := range map[string]bool{
		`CELL("row",A1)`:              false,
		`=CELL( "Contents" , B2:C3 )`: false,
		`CELL("address",A1)`:          false,
		`CELL("type",Other!A1)`:       false,
		`PHONETIC(A1)`:                false,
		`_xlfn.PHONETIC(A1:B2)&"x"`:   false,
		`SUM(A1:A3)`:                  false,
		`CELL(12,C5)`:                 false, // #VALUE!: info_type is text
		`CELL(TRUE)`:                  false,
		`CELL("nonsense",A1)`:         false,
		`CELL(B1,A1)`:                 false, // the whole formula: an uncomputed info type leaves it without a value
		` CELL( E2 , C5 ) `:           false,
		`CELL("Nonsense")`:            false,
		`CELL("width")`:               true, // an info type: the host's answer
		`CELL(12&"",A1)`:              true, // not a literal alone
		`CELL("filename",A1)`:         true,
		`MID(CELL("filename",A1),FIND("]",CELL("filename",A1))+1,99)`: true,
		`IFERROR(CELL("width",A1),5)`:                                 true,
		`CELL("row")`:                                                 true,
		`CELL("row",)`:                                                true,
		`CELL(B1,A1)+1`:                                               true, // an uncomputed info type would be #VALUE!+1
		`IFERROR(CELL(B1,A1),5)`:                                      true,
		`CELL(B1:B2,A1)`:                                              true,
		`CELL("address",Other!A1)`:                                    true,
		`CELL("row",A1)+_xlfn.CELL("format",A1)`:                      true,
		`CELL("row",INDEX(A1:A5,3))`:                                  true,
		`IFERROR(PHONETIC(INDEX(A1:A5,2)),"")`:                        true,
		`PHONETIC("x")`:                                               true,
	} {
		assert.Equal(t, want, formulatext.CallsUncomputedForm(formula), formula)
		assert.Equal(t, want, recalc.CallsUncomputable(formula), formula)
	}
}

// TestCellInfoTypeFromACell checks a CELL call whose info_type is a cell:
// computed when the engine knows the info type or refuses the value, left
// without a cached value when the info type is the host's.
func TestCellInfoTypeFromACell(t *testing.T) {
	e := newEnv(t)
	e.workbook("c.xlsx", [][]any{{"row", "filename", "Banana"}})
	e.ok("write_cells", map[string]any{"file_path": "c.xlsx", "cell_range": "D1",
		"values": [][]any{{`=CELL(A1,B3)`, `=CELL(B1,B3)`, `=CELL(C1,B3)`, `=CELL(H9,B3)`}}})
	got := e.ok("read_excel", map[string]any{"file_path": "c.xlsx", "range": "D1:G1", "formulas": "both"})
	row := got["values"].([]any)[0].([]any)
	assert.Equal(t, map[string]any{"formula": "=CELL(A1,B3)", "value": 3.0}, row[0])
	assert.Nil(t, row[1].(map[string]any)["value"], "filename: the host's answer")
	assert.Equal(t, "#VALUE!", row[2].(map[string]any)["value"])
	assert.Equal(t, "#VALUE!", row[3].(map[string]any)["value"])
}
