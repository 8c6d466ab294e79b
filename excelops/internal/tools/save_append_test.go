package tools

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEditsAppendToListParts edits workbooks Excel saved with tools that
// must add records to the style table, the shared string table, a
// relationships part or the content types, on both save paths, and checks
// that each such part is the original's bytes with records appended: every
// record Excel wrote stays byte for byte (only the lists' counts change).
// The cell then reads back as written.
func TestEditsAppendToListParts(t *testing.T) {
	t.Parallel()
	styles, sst := "xl/styles.xml", "xl/sharedStrings.xml"
	types, wbRels := "[Content_Types].xml", "xl/_rels/workbook.xml.rels"
	bold := map[string]any{"cell_range": "A60", "font": map[string]any{"bold": true, "color": "FF0000"}, "number_format": "0.000%"}
	text := map[string]any{"cell": "A60", "value": "appended ✓ <&>"}
	rule := map[string]any{"cell_range": "A1:A5", "rule_type": "cell_is", "operator": "greaterThan",
		"values": []any{1}, "format": map[string]any{"fill": map[string]any{"color": "FFFF00"}}}
	cases := []struct {
		file, tool string
		splice     bool
		args       map[string]any
		appended   []string // parts that must be the original plus records
	}{
		{"tutorial02.xlsx", "format_cells", true, bold, []string{styles}},
		{"tutorial02.xlsx", "format_cells", false, bold, []string{styles}},
		{"cond_format06.xlsx", "format_cells", true, bold, []string{styles}},
		{"tutorial02.xlsx", "write_cells", false, text, []string{sst}},
		{"utf8_01.xlsx", "write_cells", false, text, []string{sst}},
		{"rich_string01.xlsx", "write_cells", false, text, []string{sst}},
		// No shared string table yet: the new part is named by appended
		// records of the content types and the workbook's relationships.
		{"chart_bar01.xlsx", "write_cells", false, text, []string{types, wbRels}},
		{"tutorial02.xlsx", "add_conditional_rule", false, rule, []string{styles}},
		{"cond_format06.xlsx", "add_conditional_rule", false, rule, []string{styles}},
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%s/splice=%v", c.file, c.tool, c.splice), func(t *testing.T) {
			t.Parallel()
			e := newEnvOf(t, t.TempDir(), []string{c.tool}, WithSplice(c.splice))
			orig, err := os.ReadFile(filepath.Join(corpusSample, c.file))
			require.NoError(t, err)
			require.NoError(t, os.WriteFile(e.path(c.file), orig, 0o644))
			sheet := firstSheet(t, e.path(c.file))
			args := map[string]any{"file_path": c.file, "sheet_name": sheet}
			for k, v := range c.args {
				args[k] = v
			}
			e.ok(c.tool, args)
			saved := readFile(t, e.path(c.file))
			assertPackageNamesEveryPart(t, saved)
			before, after := zipParts(t, filepath.Join(corpusSample, c.file)), zipParts(t, e.path(c.file))
			for _, part := range c.appended {
				require.Contains(t, after, part)
				assert.NotEqual(t, before[part], after[part], "%s: the edit adds records", part)
				assertAppended(t, part, before[part], after[part])
			}
			f, err := excelize.OpenFile(e.path(c.file))
			require.NoError(t, err)
			defer f.Close()
			switch c.tool {
			case "format_cells":
				id, err := f.GetCellStyle(sheet, "A60")
				require.NoError(t, err)
				st, err := f.GetStyle(id)
				require.NoError(t, err)
				require.NotNil(t, st.Font)
				assert.True(t, st.Font.Bold)
				assert.True(t, strings.HasSuffix(st.Font.Color, "FF0000"), st.Font.Color)
			case "write_cells":
				v, err := f.GetCellValue(sheet, "A60")
				require.NoError(t, err)
				assert.Equal(t, c.args["value"], v)
			}
		})
	}
}

// listEnd finds where records may be appended in a part: before the end
// tag of a list (styles), of the root (the other parts), or in place of a
// list written as one empty tag.
var listEnd = regexp.MustCompile(`</(?:numFmts|fonts|fills|borders|cellStyleXfs|cellXfs|cellStyles|dxfs|tableStyles|sst|Relationships|Types)>|<(?:numFmts|dxfs|tableStyles)\b[^>]*/>`)

// listStart finds where a list the original lacks may be inserted.
var listStart = regexp.MustCompile(`<(?:fonts|fills|borders|cellStyleXfs|cellXfs|cellStyles|dxfs|tableStyles|colors|extLst)\b`)

// countAttr matches a list's count attributes, which an append changes.
var countAttr = regexp.MustCompile(`\b(count|uniqueCount)="\d*"`)

// assertAppended checks that saved is orig with bytes inserted only where a
// list ends (and counts changed): orig, cut at every list end, must appear
// piece by piece, in order, in saved, the first piece at its start.
func assertAppended(t *testing.T, part string, orig, saved []byte) {
	t.Helper()
	o := countAttr.ReplaceAll(orig, []byte(`$1=""`))
	s := countAttr.ReplaceAll(saved, []byte(`$1=""`))
	pos, from := 0, 0
	// Also where a new list may go: before the list or element the
	// schema puts after it.
	cuts := append(listEnd.FindAllIndex(o, -1), listStart.FindAllIndex(o, -1)...)
	slices.SortFunc(cuts, func(a, b []int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return b[1] - a[1] // an empty list's whole tag before its start
	})
	for _, cut := range cuts {
		if cut[0] < from {
			continue
		}
		piece := o[from:cut[0]]
		i := bytes.Index(s[pos:], piece)
		if i < 0 || (from == 0 && i != 0) {
			assert.Fail(t, "original bytes not kept", "%s: %q", part, shorten(piece))
			return
		}
		pos += i + len(piece)
		from = cut[0]
		if tag := o[cut[0]:cut[1]]; bytes.HasPrefix(s[pos:], tag) && bytes.HasSuffix(tag, []byte("/>")) {
			pos += len(tag) // an empty list left empty
			from = cut[1]
		} else if bytes.HasSuffix(tag, []byte("/>")) {
			// An empty list, written out with its new records.
			name := regexp.MustCompile(`^<(\w+)`).FindSubmatch(tag)[1]
			end := bytes.Index(s[pos:], []byte("</"+string(name)+">"))
			if !assert.GreaterOrEqual(t, end, 0, "%s: %s written out", part, name) {
				return
			}
			pos += end + len(name) + 3
			from = cut[1]
		}
	}
	assert.True(t, bytes.HasSuffix(s[pos:], o[from:]), "%s: the end of the part changed", part)
}

func shorten(b []byte) []byte {
	if len(b) > 120 {
		return b[:120]
	}
	return b
}
