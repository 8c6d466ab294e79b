package formulatext

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
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
	assert.Equal(t, `IFERROR(C3,#N/A)&"C3#"`, WithoutSpillMarks(`IFERROR(C3#,#N/A)&"C3#"`))
	assert.Equal(t, "SUM('Q1 Plan'!C3)", WithoutSpillMarks("SUM('Q1 Plan'!C3#)"))
	// A name ending like a cell is not a spill reference, nor is a call of
	// ANCHORARRAY with something other than one reference.
	assert.Equal(t, "my.C3#", withAnchorArrays("my.C3#"))
	assert.Equal(t, "ANCHORARRAY(A1:B2)", withSpillRefs("ANCHORARRAY(A1:B2)"))
	assert.Equal(t, "MYANCHORARRAY(A1)", withSpillRefs("MYANCHORARRAY(A1)"))
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
		_ = WithoutSpillMarks(s)
		if !strings.Contains(s, "#") {
			assert.Equal(t, s, stored)
		}
		if !strings.Contains(strings.ToLower(s), "anchorarray(") {
			assert.Equal(t, s, withSpillRefs(s))
		}
	})
}
