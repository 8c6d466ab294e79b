package splice

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSharedStringsChecked: with Plan.SharedStrings, a cell pointing past
// the shared string table fails the rewrite wherever it is: a row passed
// on by its bytes, a row tokenized (it holds a comment), a rebuilt row;
// rows skipped and tokenized agree.
func TestSharedStringsChecked(t *testing.T) {
	const head = `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`
	const end = `</sheetData></worksheet>`
	const good = `<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1"><v>7</v></c></row>`
	cases := []struct {
		name, rows string
		bad        *SharedRefError
	}{
		{"all in range", good + `<row r="2"><c r="A2" t="s" s="3"><v>1</v></c><c r="B2" t="s"/></row>`, nil},
		{"plain row", good + `<row r="3"><c r="A3"><v>5</v></c><c r="B3" t="s"><v>2</v></c></row>`, &SharedRefError{Row: 3, Col: 2, Value: []byte("2")}},
		{"tokenized row", good + `<row r="3"><!-- note --><c r="D3" t="s"><v>9</v></c></row>`, &SharedRefError{Row: 3, Col: 4, Value: []byte("9")}},
		{"single quotes", good + `<row r="3"><c r='B3' t='s'><v>3</v></c></row>`, &SharedRefError{Row: 3, Col: 2, Value: []byte("3")}},
		{"after other attributes", good + `<row r="3"><c r="C3" s="1" t="s"><v>2</v></c><c r="D3" t="s"><v>0</v></c></row>`, &SharedRefError{Row: 3, Col: 3, Value: []byte("2")}},
		{"not a number", good + `<row r="3"><c r="A3" t="s"><v>x</v></c></row>`, &SharedRefError{Row: 3, Col: 1, Value: []byte("x")}},
		{"rebuilt row", good + `<row r="5"><c r="A5" t="s"><v>4</v></c></row>`, &SharedRefError{Row: 5, Col: 1, Value: []byte("4")}},
		{"inline text is not a reference", good + `<row r="3"><c r="A3" t="inlineStr"><is><t>t="s" &lt;v&gt;99</t></is></c></row>`, nil},
	}
	for _, c := range cases {
		for _, all := range []bool{false, true} {
			t.Run(c.name, func(t *testing.T) {
				plan := cellsPlan(map[int][]int{5: {3}})
				plan.tokenizeAll = all
				asked := 0
				plan.SharedStrings = func() (int, error) { asked++; return 2, nil }
				_, _, err := rewrite(t, head+c.rows+end, plan)
				assert.Equal(t, 1, asked, "the table's size is asked once")
				if c.bad == nil {
					require.NoError(t, err)
					return
				}
				var ref *SharedRefError
				require.True(t, errors.As(err, &ref), "%v", err)
				assert.Equal(t, c.bad, ref)
			})
		}
	}
	t.Run("unchecked without SharedStrings", func(t *testing.T) {
		_, _, err := rewrite(t, head+`<row r="1"><c r="A1" t="s"><v>9</v></c></row>`+end, cellsPlan(map[int][]int{2: {1}}))
		assert.NoError(t, err)
	})
}
