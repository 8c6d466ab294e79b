package sheetxml

import (
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWalkerDimension: the ref of the <dimension> before the rows, as
// written; none when the sheet has none, or only one inside the data.
func TestWalkerDimension(t *testing.T) {
	for _, c := range []struct{ name, xml, want string }{
		{"declared", `<worksheet><sheetPr/><dimension ref="B2:D9"/><sheetData><row r="2"><c r="B2"><v>1</v></c></row></sheetData></worksheet>`, "B2:D9"},
		{"prefixed and open", `<x:worksheet xmlns:x="u"><x:dimension ref="A1:C3"></x:dimension><x:sheetData><x:row r="1"/></x:sheetData></x:worksheet>`, "A1:C3"},
		{"none", `<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`, ""},
		{"not before the rows", `<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row><dimension ref="A1:Z9"/></sheetData></worksheet>`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := NewWalker(strings.NewReader(c.xml))
			for {
				_, err := w.Next()
				if errors.Is(err, io.EOF) {
					break
				}
				require.NoError(t, err)
			}
			assert.Equal(t, c.want, string(w.Dimension))
		})
	}
}
