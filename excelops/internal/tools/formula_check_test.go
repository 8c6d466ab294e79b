package tools

import (
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckFormulaTextNamesTheCell(t *testing.T) {
	err := recalc.CheckFormulaText("B3", "VLOOKUPP(1,A1:A2,1)")
	require.Error(t, err)
	assert.ErrorIs(t, err, failure.KindInvalidArgument)
	assert.True(t, strings.HasPrefix(err.Error(), `cell B3: formula "=VLOOKUPP(1,A1:A2,1)" is not valid: `), err.Error())
	_, err = engine.PlanCell(1, 1, "=", engine.ValueTypesAuto)
	assert.NoError(t, err, "a lone = is text")
	_, err = engine.PlanCell(1, 1, "=SUMME(A1)", engine.ValueTypesText)
	assert.NoError(t, err, "value_types text stores formulas as text")
	_, err = engine.PlanCell(2, 2, "=SUMME(A1)", engine.ValueTypesAuto)
	assert.ErrorContains(t, err, "cell B2: ")
}

// TestLetLambdaNamesWrittenPrefixedReadAsTyped writes LET and LAMBDA
// formulas: the file holds the names they bind with Excel's _xlpm. prefix,
// the value computed from that form, and read_excel shows the formula as
// typed.
func TestLetLambdaNamesWrittenPrefixedReadAsTyped(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "x.xlsx", "cell_range": "A1", "values": [][]any{
		{2, "=LET(x,A1,x*3)", "=LAMBDA(a,b,a*b)(A1,5)", "=LAMBDA(a,b,IF(ISOMITTED(b),-1,b))(1,)"}}})
	sheet := part(t, e.path("x.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<f>_xlfn.LET(_xlpm.x,A1,_xlpm.x*3)</f><v>6</v>`)
	assert.Contains(t, sheet, `<f>_xlfn.LAMBDA(_xlpm.a,_xlpm.b,_xlpm.a*_xlpm.b)(A1,5)</f><v>10</v>`)
	assert.Contains(t, sheet, `<f>_xlfn.LAMBDA(_xlpm.a,_xlpm.b,IF(_xlfn.ISOMITTED(_xlpm.b),-1,_xlpm.b))(1,)</f><v>-1</v>`)
	got := e.ok("read_excel", map[string]any{"file_path": "x.xlsx", "range": "B1:D1", "formulas": "both"})
	assert.Equal(t, []any{[]any{
		map[string]any{"formula": "=LET(x,A1,x*3)", "value": 6.0},
		map[string]any{"formula": "=LAMBDA(a,b,a*b)(A1,5)", "value": 10.0},
		map[string]any{"formula": "=LAMBDA(a,b,IF(ISOMITTED(b),-1,b))(1,)", "value": -1.0},
	}}, got["values"])
}

func TestNewerFunctionsWrittenPrefixedReadAsTyped(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "x.xlsx", "cell_range": "A1", "values": [][]any{{"a", "b", `=textjoin("-",TRUE,A1:B1)`}}})
	assert.Contains(t, part(t, e.path("x.xlsx"), "xl/worksheets/sheet1.xml"), `<f>_xlfn.TEXTJOIN(&#34;-&#34;,TRUE,A1:B1)</f><v>a-b</v>`)
	got := e.ok("read_excel", map[string]any{"file_path": "x.xlsx", "range": "C1", "formulas": "both"})
	assert.Equal(t, []any{[]any{map[string]any{"formula": `=TEXTJOIN("-",TRUE,A1:B1)`, "value": "a-b"}}}, got["values"])
}
