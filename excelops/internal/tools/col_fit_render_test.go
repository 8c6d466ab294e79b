package tools

import (
	"image/png"
	"os"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWrittenDatesRenderWithoutHashes renders the dates write_cells wrote
// into columns of default width: LibreOffice draws the digits, not ###.
// "###" is one shape three times, a date many different ones (see
// distinctShapes). The control gives the same columns the default width
// back and must see ###, which proves the check tells the two apart.
func TestWrittenDatesRenderWithoutHashes(t *testing.T) {
	needSoffice(t)
	cases := []struct {
		name   string
		narrow bool // give the columns the default width back
	}{
		{"widened by write_cells", false},
		{"control: default width shows ###", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("d.xlsx", [][]any{{"date", "when"}})
			e.ok("write_cells", map[string]any{"file_path": "d.xlsx", "cell_range": "A2", "values": [][]any{{"2024-01-31", "2024-01-31 13:45:30"}}})
			if c.narrow {
				f := e.open("d.xlsx")
				require.NoError(t, f.SetColWidth("Sheet1", "A", "B", engine.DefaultColWidth))
				require.NoError(t, f.Save())
			}
			e.ok("render_range", map[string]any{"file_path": "d.xlsx", "cell_range": "A2:B2", "output_path": "d.png"})
			fh, err := os.Open(e.path("d.png"))
			require.NoError(t, err)
			img, err := png.Decode(fh)
			_ = fh.Close()
			require.NoError(t, err)
			bands := inkBands(img)
			require.Len(t, bands, 1, "one line of text")
			shapes := distinctShapes(bands[0])
			t.Logf("%d distinct shapes in %d", shapes, len(bands[0]))
			if c.narrow {
				assert.LessOrEqual(t, shapes, 1, "### in both cells")
			} else {
				assert.GreaterOrEqual(t, shapes, 8, "the dates' digits, not ###")
			}
		})
	}
}
