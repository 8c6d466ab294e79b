package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSheetCellsShape pins what sheetcells.go reads and changes in the
// parsed worksheet: the cells that exist in a range (value, formula, array
// range), and shared formulas turned into ordinary ones with the same
// texts and cached values.
func TestSheetCellsShape(t *testing.T) {
	e := newEnv(t)
	clearBook(e)
	b, err := e.svc.engine.OpenBook(e.path("k.xlsx"), false, false)
	require.NoError(t, err)
	defer b.Close()
	got, err := engine.ExistingCells(b, "Sheet1", cellarea.Range{C1: 2, R1: 2, C2: 7, R2: 3})
	require.NoError(t, err)
	var refs []string
	values := map[string]bool{}
	for _, c := range got {
		refs = append(refs, c.Ref)
		values[c.Ref] = c.Value
	}
	// E2 and F2 are the empty cells excelize keeps under the merge E1:F2.
	assert.Equal(t, []string{"B2", "C2", "D2", "E2", "F2", "G2", "B3", "C3", "D3"}, refs)
	assert.Equal(t, map[string]bool{"B2": true, "C2": true, "D2": true, "E2": false, "F2": false, "G2": true, "B3": true, "C3": true, "D3": true}, values)
	assert.True(t, got[2].Formula)
	assert.Equal(t, "G2:G3", got[5].ArrayRef)
	assert.False(t, got[0].Formula)

	before := map[string]string{}
	for _, ref := range []string{"D2", "D3", "D5"} {
		before[ref] = bookFormula(t, b, "Sheet1", ref)
	}
	require.NoError(t, engine.UnshareFormulas(b, "Sheet1"))
	for ref, want := range before {
		assert.Equal(t, want, bookFormula(t, b, "Sheet1", ref), ref)
	}
	// The anchor can now be cleared without its followers.
	require.NoError(t, b.SetCellValue("Sheet1", "D2", nil))
	assert.Equal(t, "B4*C4", bookFormula(t, b, "Sheet1", "D4"))
	typ, err := b.CellType("Sheet1", "D4")
	require.NoError(t, err)
	assert.NotEqual(t, excelize.CellTypeSharedString, typ)
}

// bookFormula is the formula of the cell ref of sheet in b.
func bookFormula(t *testing.T, b *engine.Book, sheet, ref string) string {
	t.Helper()
	got, err := b.CellFormula(sheet, ref)
	require.NoError(t, err)
	return got
}
