package excelize

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmptyTextResult: a formula marked as caching an empty text is written
// as Excel writes one, <c t="str"><f>...</f><v></v></c>; unmarked, or once a
// value replaces the formula, no empty <v> is written.
func TestEmptyTextResult(t *testing.T) {
	for _, c := range []struct {
		name      string
		mark      bool
		overwrite bool
		want      string
	}{
		{"marked", true, false, `<c r="A1" t="str"><f>CLEAN(&#34;&#34;)</f><v></v></c>`},
		{"unmarked", false, false, `<c r="A1" t="str"><f>CLEAN(&#34;&#34;)</f></c>`},
		{"overwritten", true, true, `<c r="A1"><v>5</v></c>`},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := NewFile()
			defer f.Close()
			require.NoError(t, f.SetCellFormula("Sheet1", "A1", `CLEAN("")`))
			ws, err := f.workSheetReader("Sheet1")
			require.NoError(t, err)
			cell := &ws.SheetData.Row[0].C[0]
			cell.T, cell.V = "str", ""
			cell.F.SetEmptyTextResult(c.mark)
			if c.overwrite {
				require.NoError(t, f.SetCellValue("Sheet1", "A1", 5))
			}
			var buf bytes.Buffer
			require.NoError(t, f.Write(&buf))
			g, err := OpenReader(&buf)
			require.NoError(t, err)
			defer g.Close()
			part, ok := g.Pkg.Load("xl/worksheets/sheet1.xml")
			require.True(t, ok)
			assert.True(t, strings.Contains(string(part.([]byte)), c.want), string(part.([]byte)))
		})
	}
}
