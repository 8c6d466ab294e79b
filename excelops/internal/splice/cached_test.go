package splice

import (
	"encoding/xml"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSetCached: the cached value and type of a formula cell change, and
// nothing else does; cells that are not plain formula cells are refused.
func TestSetCached(t *testing.T) {
	for _, c := range []struct {
		name, raw, t, v, want string
	}{
		{"a number", `<c r="B1" s="3"><f>SUM(A1:A3)</f><v>6</v></c>`, "", "7.5", `<c r="B1" s="3"><f>SUM(A1:A3)</f><v>7.5</v></c>`},
		{"text replacing a number", `<c r="B1"><f>A1&amp;"x"</f><v>1</v></c>`, "str", `a<b&"c"`, `<c r="B1" t="str"><f>A1&amp;"x"</f><v>a&lt;b&amp;&quot;c&quot;</v></c>`},
		{"a number replacing text", `<c r="B1" t="str" s="1"><f>A1</f><v>x</v></c>`, "", "2", `<c r="B1" s="1"><f>A1</f><v>2</v></c>`},
		{"an error", `<c r="B1"><f>1/0</f></c>`, "e", "#DIV/0!", `<c r="B1" t="e"><f>1/0</f><v>#DIV/0!</v></c>`},
		{"dropped", `<c r="B1" t="b"><f>A1&gt;2</f><v>1</v></c>`, "b", "", `<c r="B1"><f>A1&gt;2</f></c>`},
		{"a shared member", `<c r="E2" t="e"><f t="shared" si="0"/><v>#N/A</v></c>`, "", "4", `<c r="E2"><f t="shared" si="0"/><v>4</v></c>`},
		{"an extension kept after the value", `<c r="B1" cm="1"><f>A1</f><v>1</v><extLst><ext uri="x"/></extLst></c>`, "", "2", `<c r="B1" cm="1"><f>A1</f><v>2</v><extLst><ext uri="x"/></extLst></c>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			out, err := SetCached([]byte("<row>"), []byte(c.raw), c.t, c.v)
			require.NoError(t, err)
			assert.Equal(t, "<row>"+c.want, string(out))
		})
	}
	for _, raw := range []string{
		`<c r="B1"><v>6</v></c>`,             // no formula
		`<c r="B1"/>`,                        // empty
		`<x:c r="B1"><x:f>A1</x:f></x:c>`,    // prefixed
		`<c><f>A1</f><v>1</v></c>`,           // no reference
		`<c r="B1"><f>A1</f><v>1</v>`,        // not closed
		`<row r="1"><c r="B1"><f>A1</f></c>`, // not a cell
	} {
		_, err := SetCached(nil, []byte(raw), "", "1")
		assert.ErrorIs(t, err, ErrUnsupported, raw)
	}
}

// FuzzSetCached: any bytes as a formula cell never panic; what SetCached
// accepts stays well-formed XML holding the formula and the new value.
func FuzzSetCached(f *testing.F) {
	f.Add(`<c r="B1" s="3"><f>SUM(A1:A3)</f><v>6</v></c>`, "str", "x<y")
	f.Add(`<c r="E2"><f t="shared" si="0"/><v>4</v></c>`, "", "")
	f.Add(`<c r="B1"><f>A1</f><v>1</v><extLst/></c>`, "e", "#N/A")
	f.Fuzz(func(t *testing.T, raw, typ, v string) {
		if typ != "" && typ != "str" && typ != "b" && typ != "e" {
			typ = "str"
		}
		out, err := SetCached(nil, []byte(raw), typ, v)
		if err != nil {
			if !errors.Is(err, ErrUnsupported) && !strings.Contains(err.Error(), "sheetxml") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if xml.Unmarshal([]byte(raw), new(any)) != nil || !utf8.ValidString(v) {
			return // broken input passed on as it was
		}
		var cell struct {
			F *struct{} `xml:"f"`
			V *string   `xml:"v"`
		}
		require.NoError(t, xml.Unmarshal(out, &cell), "%s", out)
		require.NotNil(t, cell.F, "%s", out)
		if v != "" {
			require.NotNil(t, cell.V, "%s", out)
		}
		if v == "" {
			require.Nil(t, cell.V, "%s", out)
		}
	})
}
