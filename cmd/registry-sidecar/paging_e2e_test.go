package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestCallTimeoutFlagBoundsSpreadsheetTools: --call-timeout is the
// deadline of every tool, the spreadsheet tools' own defaults included, and
// a client's timeoutMs overrides it for one call.
func TestCallTimeoutFlagBoundsSpreadsheetTools(t *testing.T) {
	bin := buildBinary(t)
	ws := t.TempDir()
	writeWorkbook(t, filepath.Join(ws, "t.xlsx"), func(w io.Writer) error {
		_, err := io.WriteString(w, `<row r="1"><c r="A1"><v>1</v></c></row>`)
		return err
	})
	s := startSidecar(t, bin, "", "--workspace", ws, "--call-timeout", "1ns")
	conn := s.dial(t)
	for _, c := range []struct{ tool, args string }{
		{"read_excel", `{"file_path": "t.xlsx"}`},
		{"read_cell_styles", `{"file_path": "t.xlsx", "cell_range": "A1"}`},
		{"write_cells", `{"file_path": "t.xlsx", "cell": "B1", "value": 2}`},
	} {
		p := callWS(t, conn, c.tool, c.args, "")
		assert.Equal(t, "TOOL_TIMEOUT", p.Get("error_code").String(), "%s: %s", c.tool, p.Raw)
	}
	p := callWS(t, conn, "read_excel", `{"file_path": "t.xlsx", "range": "A1"}`, `{"timeoutMs": 60000}`)
	assert.Equal(t, "success", p.Get("status").String(), p.Raw)
	assert.Equal(t, `[[1]]`, p.Get("values").Raw)
}

// TestPagingThroughTheSidecar: with the default result cap (3000
// characters), pages of long rows are sized to fit, so following
// next_offset reads every row exactly once, in summary and range mode.
func TestPagingThroughTheSidecar(t *testing.T) {
	bin := buildBinary(t)
	ws := t.TempDir()
	const rows = 300
	text := func(r int) string { return fmt.Sprintf("row %d ", r) + strings.Repeat("é中", 40) }
	writeWorkbook(t, filepath.Join(ws, "long.xlsx"), func(w io.Writer) error {
		for r := 1; r <= rows; r++ {
			if _, err := fmt.Fprintf(w, `<row r="%d"><c r="A%d"><v>%d</v></c><c r="B%d" t="inlineStr"><is><t>%s</t></is></c></row>`, r, r, r, r, text(r)); err != nil {
				return err
			}
		}
		return nil
	})
	s := startSidecar(t, bin, "", "--workspace", ws)
	conn := s.dial(t)
	for _, mode := range []struct{ args, key string }{
		{`"max_rows": 50`, "rows"},
		{`"range": "A1:B1000"`, "values"},
	} {
		t.Run(mode.key, func(t *testing.T) {
			var got []gjson.Result
			pages := 0
			for offset := 0; ; pages++ {
				require.Less(t, pages, rows, "paging does not end")
				p := callWS(t, conn, "read_excel", fmt.Sprintf(`{"file_path": "long.xlsx", %s, "offset": %d}`, mode.args, offset), "")
				require.Equal(t, "success", p.Get("status").String(), p.Raw)
				assert.LessOrEqual(t, utf8.RuneCountInString(p.Raw), 3000)
				p.ForEach(func(k, _ gjson.Result) bool {
					assert.False(t, strings.HasPrefix(k.String(), "_"), "page cut by truncation: %s", p.Raw)
					return true
				})
				page := p.Get(mode.key).Array()
				require.Equal(t, int64(len(page)), p.Get("rows_returned").Int())
				got = append(got, page...)
				if !p.Get("has_more").Bool() {
					assert.False(t, p.Get("next_offset").Exists())
					break
				}
				require.NotEmpty(t, page)
				require.Equal(t, int64(offset+len(page)), p.Get("next_offset").Int())
				offset = int(p.Get("next_offset").Int())
			}
			first := 1
			if mode.key == "rows" {
				first = 2 // row 1 is the header
			}
			require.Len(t, got, rows-first+1)
			for i, row := range got {
				r := first + i
				assert.Equal(t, int64(r), row.Get("0").Int())
				assert.Equal(t, text(r), row.Get("1").String())
			}
			assert.Greater(t, pages, 5, "long rows need many pages under the cap")
		})
	}
}
