package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestUnrelatedEditKeepsCachedValues(t *testing.T) {
	e := newEnv(t)
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "12"))
	require.NoError(t, f.SetCellValue("Sheet1", "B1", 12)) // WEBSERVICE: Excel's, not the engine's
	require.NoError(t, f.SetCellFormula("Sheet1", "B1", `WEBSERVICE(A1)`))
	require.NoError(t, f.SetCellValue("Sheet1", "C1", 3))
	require.NoError(t, f.SetCellFormula("Sheet1", "C1", "D1*3"))
	require.NoError(t, f.SaveAs(e.path("u.xlsx")))
	require.NoError(t, f.Close())

	e.ok("write_cells", map[string]any{"file_path": "u.xlsx", "cell": "D1", "value": 2})
	got := e.ok("read_excel", map[string]any{"file_path": "u.xlsx", "range": "B1:C1"})
	assert.Equal(t, []any{[]any{"12", 6.0}}, got["values"], "B1 does not read D1: its value stays")
	e.ok("write_cells", map[string]any{"file_path": "u.xlsx", "cell": "A1", "value": "13"})
	got = e.ok("read_excel", map[string]any{"file_path": "u.xlsx", "range": "B1:C1"})
	assert.Equal(t, []any{[]any{`=WEBSERVICE(A1)`, 6.0}}, got["values"], "B1 reads A1: its stale value goes")
}
