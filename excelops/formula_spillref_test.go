package excelops

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSpillReferenceForms(t *testing.T) {
	cases := []struct {
		typed, stored string
	}{
		{"SUM(C3#)", "SUM(_xlfn.ANCHORARRAY(C3))"},
		{"$C$3#*2", "_xlfn.ANCHORARRAY($C$3)*2"},
		{"Data!C3#", "_xlfn.ANCHORARRAY(Data!C3)"},
		{"SUM('Q1 Plan'!C3#,'It''s'!B2#)", "SUM(_xlfn.ANCHORARRAY('Q1 Plan'!C3),_xlfn.ANCHORARRAY('It''s'!B2))"},
		{`IFERROR(C3#,#N/A)&"C3#"`, `IFERROR(_xlfn.ANCHORARRAY(C3),#N/A)&"C3#"`},
		{"#REF!+A1", "#REF!+A1"},
		{"'a#b'!A1", "'a#b'!A1"},
	}
	for _, c := range cases {
		assert.Equal(t, c.stored, withAnchorArrays(c.typed), c.typed)
		assert.Equal(t, c.typed, withSpillRefs(c.stored), c.stored)
	}
	assert.Equal(t, `IFERROR(C3,#N/A)&"C3#"`, withoutSpillMarks(`IFERROR(C3#,#N/A)&"C3#"`))
	assert.Equal(t, "SUM('Q1 Plan'!C3)", withoutSpillMarks("SUM('Q1 Plan'!C3#)"))
	// A name ending like a cell is not a spill reference, nor is a call of
	// ANCHORARRAY with something other than one reference.
	assert.Equal(t, "my.C3#", withAnchorArrays("my.C3#"))
	assert.Equal(t, "ANCHORARRAY(A1:B2)", withSpillRefs("ANCHORARRAY(A1:B2)"))
	assert.Equal(t, "MYANCHORARRAY(A1)", withSpillRefs("MYANCHORARRAY(A1)"))
}

// TestSpillReferences writes formulas reading a whole spill (C3#): stored
// as Excel stores them, read back as typed, computed over the spill as it
// is now, and recomputed when the spill changes size; =C3# spills a copy;
// a spill reference to a cell that anchors nothing has no value.
func TestSpillReferences(t *testing.T) {
	e := newEnv(t)
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell_range": "E1", "values": [][]any{{"=SUM(C3#)", "=ROWS(Sheet1!$C$3#)", "=C3#"}}})
	sheet := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<f>SUM(_xlfn.ANCHORARRAY(C3))</f><v>6</v>`)
	assert.Contains(t, sheet, `<f>ROWS(_xlfn.ANCHORARRAY(Sheet1!$C$3))</f><v>3</v>`)
	assert.Contains(t, sheet, `<c r="G1" cm="1"><f t="array" ref="G1:G3">_xlfn.ANCHORARRAY(C3)</f><v>1</v></c>`)
	got := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "cell_range": "E1:G1", "formulas": "formulas"})
	require.NotEmpty(t, got["values"])
	assert.Equal(t, []any{"=SUM(C3#)", "=ROWS(Sheet1!$C$3#)", "=C3#"}, got["values"].([]any)[0])
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(4,1,10)"})
	assert.Equal(t, "46", e.value("s.xlsx", "Sheet1", "E1"))
	assert.Equal(t, "4", e.value("s.xlsx", "Sheet1", "F1"))
	for i, want := range []string{"10", "11", "12", "13"} {
		assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cellName(7, i+1)))
	}
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "H1", "value": "=SUM(A9#)"})
	assert.NotEqual(t, "0", e.value("s.xlsx", "Sheet1", "H1"), "no spill at A9: #REF! in Excel, never a number")
}

// FuzzSpillReferences checks that no formula text makes the spill
// reference rewriting panic, and that a formula without "#" or
// ANCHORARRAY is left as it is.
func FuzzSpillReferences(f *testing.F) {
	for _, s := range []string{"SUM(C3#)", "'a''b'!C3#", `"x#"&A1#`, "_xlfn.ANCHORARRAY(A1)", "#N/A", "'", `"`, "ANCHORARRAY("} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		stored := withAnchorArrays(s)
		_ = withSpillRefs(stored)
		_ = withoutSpillMarks(s)
		if !strings.Contains(s, "#") {
			assert.Equal(t, s, stored)
		}
		if !strings.Contains(strings.ToLower(s), "anchorarray(") {
			assert.Equal(t, s, withSpillRefs(s))
		}
	})
}
