package recalc

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCutReferenceValue(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		t, v    string
		ok      bool
	}{
		{"A1*2", "", "", false},
		{`"#REF!"&A1`, "", "", false}, // text, not a reference
		{"#REF!", "e", "#REF!", true},
		{"SUM(#REF!)", "e", "#REF!", true}, // excelize says 0
		{"Sheet1!#REF!*2", "e", "#REF!", true},
		{"IFERROR(#REF!,0)", "", "", true}, // may look past it: uncomputed
		{"IF(A1>0,1,#REF!)", "", "", true},
		{"ISERROR(#REF!)", "", "", true},
		{"_xlfn.IFNA(#REF!,1)", "", "", true},
	}
	for _, c := range cases {
		gt, gv, ok := cutReferenceValue(c.formula)
		assert.Equal(t, []any{c.t, c.v, c.ok}, []any{gt, gv, ok}, c.formula)
	}
}

func TestReadsPosition(t *testing.T) {
	t.Parallel()
	cases := []struct {
		formula string
		cut     bool
		want    bool
	}{
		{"SUM(A1:A3)", true, false},
		{"ROW()", false, true},
		{"_xlfn.SHEET(A1)", false, true},
		{"COLUMNS(A1:C1)*2", false, true},
		{"#REF!+1", true, true},
		{"#REF!+1", false, false}, // an insert cuts nothing: the #REF! was there before
		{`"ROW("&A1`, false, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, readsPosition(c.formula, c.cut), c.formula)
	}
}

// TestNewDepScopeNames: a defined name resolves to its cells only when its
// references are absolute and name their sheet; a relative one moves with
// the formula's cell and may read anything.
func TestNewDepScopeNames(t *testing.T) {
	t.Parallel()
	f := excelize.NewFile()
	defer f.Close()
	for name, refers := range map[string]string{"Abs": "Sheet1!$A$1:$A$3", "Rel": "Sheet1!A1", "Rate": "0.2"} {
		require.NoError(t, f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: refers}))
	}
	d := newDepScope(f)
	at := cellarea.Area{Sheet: "Sheet1", C1: 5, R1: 5, C2: 5, R2: 5}
	got, wide := formuladeps.Scan("SUM(Abs)", at, d)
	assert.False(t, wide)
	assert.Equal(t, []cellarea.Area{{Sheet: "Sheet1", C1: 1, R1: 1, C2: 1, R2: 3}}, got)
	_, wide = formuladeps.Scan("Rel*2", at, d)
	assert.True(t, wide, "a relative name is wide")
	got, wide = formuladeps.Scan("Rate*2", at, d)
	assert.False(t, wide, "a constant reads no cell")
	assert.Empty(t, got)
}
