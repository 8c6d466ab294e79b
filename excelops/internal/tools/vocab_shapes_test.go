package tools

import (
	"archive/zip"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ruleStyle adds one cell_is rule with format to a fresh workbook and
// reads back the differential style Excel will apply.
func ruleStyle(t *testing.T, format map[string]any, inRules bool) map[string]any {
	t.Helper()
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{1}, {5}})
	rule := map[string]any{"rule_type": "cell_is", "operator": "greaterThan", "values": []any{2}}
	if format != nil {
		rule["format"] = format
	}
	args := map[string]any{"file_path": "r.xlsx", "cell_range": "A1:A2"}
	if inRules {
		args["rules"] = []any{rule}
	} else {
		for k, v := range rule {
			args[k] = v
		}
	}
	e.ok("add_conditional_rule", args)
	f := e.open("r.xlsx")
	cfs, err := f.GetConditionalFormats("Sheet1")
	require.NoError(t, err)
	require.Len(t, cfs["A1:A2"], 1)
	require.NotNil(t, cfs["A1:A2"][0].Format)
	st, err := f.GetConditionalStyle(*cfs["A1:A2"][0].Format)
	require.NoError(t, err)
	raw, err := json.Marshal(st)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// TestRuleFormatCanonicalAndAliasMatch: each rule format in the shape
// format_cells takes and in its older flat alias gives the same style, at
// the top level and in rules; the read-back styles are pinned in
// testdata/rule_formats.golden.json.
func TestRuleFormatCanonicalAndAliasMatch(t *testing.T) {
	cases := []struct {
		name      string
		canonical map[string]any
		alias     map[string]any
	}{
		{"font color", map[string]any{"font": map[string]any{"color": "FF0000"}}, map[string]any{"font_color": "FF0000"}},
		{"font color named", map[string]any{"font": map[string]any{"color": "red"}}, map[string]any{"font_color": "#FF0000"}},
		{"fill color", map[string]any{"fill": map[string]any{"color": "C6EFCE"}}, map[string]any{"fill_color": "C6EFCE"}},
		{"bold italic", map[string]any{"font": map[string]any{"bold": true, "italic": true}}, map[string]any{"bold": true, "italic": true}},
		{"excel light red", map[string]any{"font": map[string]any{"color": "9C0006", "bold": true}, "fill": map[string]any{"color": "FFC7CE"}},
			map[string]any{"font_color": "9C0006", "fill_color": "FFC7CE", "bold": true}},
		{"alias false changes nothing", map[string]any{"fill": map[string]any{"color": "FFFF00"}},
			map[string]any{"fill_color": "yellow", "bold": false, "italic": false}},
		{"alias agreeing with nested", map[string]any{"font": map[string]any{"color": "00B050"}},
			map[string]any{"font_color": "green", "font": map[string]any{"color": "#00b050"}}},
		{"short and argb colours", map[string]any{"fill": map[string]any{"color": "FF0000"}}, map[string]any{"fill_color": "FFFF0000"}},
		{"short hex", map[string]any{"fill": map[string]any{"color": "F00"}}, map[string]any{"fill_color": "#FF0000"}},
	}
	got := map[string]any{}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := ruleStyle(t, c.canonical, false)
			assert.Equal(t, want, ruleStyle(t, c.alias, false), "top-level alias")
			assert.Equal(t, want, ruleStyle(t, c.alias, true), "alias in rules")
			assert.Equal(t, want, ruleStyle(t, c.canonical, true), "canonical in rules")
			got[c.name] = want
		})
	}
	// Shapes only the canonical form has: border and number_format (which
	// excelize's reader does not return: read styles.xml itself).
	got["border and number format"] = ruleStyle(t, map[string]any{
		"border": map[string]any{"style": "thin", "color": "blue"}, "number_format": "0.0%"}, false)
	assert.Contains(t, dxfNumFmts(t, map[string]any{"number_format": "0.0%"}), `formatCode="0.0%"`)
	got["default format"] = ruleStyle(t, nil, false)
	compareGolden(t, "rule_formats.golden.json", got)
}

// dxfNumFmts returns the <dxfs> part of styles.xml after a rule with format.
func dxfNumFmts(t *testing.T, format map[string]any) string {
	t.Helper()
	e := newEnv(t)
	e.workbook("n.xlsx", [][]any{{1}})
	e.ok("add_conditional_rule", map[string]any{"file_path": "n.xlsx", "cell_range": "A1", "rule_type": "formula",
		"formula": "A1>0", "format": format})
	zr, err := zip.OpenReader(e.path("n.xlsx"))
	require.NoError(t, err)
	defer zr.Close()
	for _, f := range zr.File {
		if f.Name != "xl/styles.xml" {
			continue
		}
		rc, err := f.Open()
		require.NoError(t, err)
		defer rc.Close()
		raw, err := io.ReadAll(rc)
		require.NoError(t, err)
		s := string(raw)
		if i := strings.Index(s, "<dxfs"); i >= 0 {
			return s[i:]
		}
	}
	return ""
}

// compareGolden compares v, as indented JSON, with testdata/name
// (rewritten by -update).
func compareGolden(t *testing.T, name string, v any) {
	t.Helper()
	out, err := json.MarshalIndent(v, "", "  ")
	require.NoError(t, err)
	out = append(out, '\n')
	path := filepath.Join("testdata", name)
	if *update {
		require.NoError(t, os.WriteFile(path, out, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), string(out))
}

// TestRuleFormatAliasConflicts: an alias given beside the nested form it
// names must agree with it, and a rule's font cannot set name or size;
// both are invalid arguments naming the keys.
func TestRuleFormatAliasConflicts(t *testing.T) {
	cases := []struct {
		name   string
		format vocab.RuleFormat
		want   []string
	}{
		{"font colour", vocab.RuleFormat{FontColor: ptr(vocab.ColorValue("red")), Font: &vocab.FontSpec{Color: ptr(vocab.ColorValue("00FF00"))}},
			[]string{"format.font_color", "format.font.color", "disagree"}},
		{"fill colour", vocab.RuleFormat{FillColor: ptr(vocab.ColorValue("FFC7CE")), Fill: &vocab.FillSpec{Color: "C6EFCE"}},
			[]string{"format.fill_color", "format.fill.color"}},
		{"bold", vocab.RuleFormat{Bold: ptr(true), Font: &vocab.FontSpec{Bold: ptr(false)}}, []string{"format.bold", "format.font.bold"}},
		{"italic", vocab.RuleFormat{Italic: ptr(false), Font: &vocab.FontSpec{Italic: ptr(true)}}, []string{"format.italic", "format.font.italic"}},
		{"font size", vocab.RuleFormat{Font: &vocab.FontSpec{Size: ptr(14.0)}}, []string{"name or size"}},
		{"bad alias colour", vocab.RuleFormat{FontColor: ptr(vocab.ColorValue("teal-ish"))}, []string{"invalid colour"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.format.Style()
			require.Error(t, err)
			var e *failure.Error
			require.True(t, errors.As(err, &e))
			assert.Equal(t, failure.KindInvalidArgument, e.Kind)
			for _, w := range c.want {
				assert.Contains(t, err.Error(), w)
			}
		})
	}
}

// TestRuleFormatConflictThroughCallTool: the conflict reaches the caller
// as a ValueError naming the rule.
func TestRuleFormatConflictThroughCallTool(t *testing.T) {
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{1}, {5}})
	got := e.fail("add_conditional_rule", map[string]any{"file_path": "r.xlsx", "cell_range": "A1:A2",
		"rule_type": "cell_is", "operator": "greaterThan", "values": []any{2},
		"format": map[string]any{"font_color": "red", "font": map[string]any{"color": "blue"}}})
	assert.Equal(t, "ValueError", got["exception"], got)
	assert.Contains(t, got["message"], "format.font_color")
}

// TestColorFormsGiveOneStyle: every colour form format_cells accepts (hex
// with or without #, 3, 6 or 8 digits, any case, or a name) writes the
// same font, fill and border colour.
func TestColorFormsGiveOneStyle(t *testing.T) {
	forms := []string{"FF0000", "#FF0000", "ff0000", "F00", "#f00", "FFFF0000", "#00FF0000", "red", " Red "}
	seen := map[string]bool{}
	for _, form := range forms {
		e := newEnv(t)
		e.workbook("c.xlsx", [][]any{{1}})
		e.ok("format_cells", map[string]any{"file_path": "c.xlsx", "cell_range": "A1",
			"font": map[string]any{"color": form}, "fill": map[string]any{"color": form},
			"border": map[string]any{"style": "thin", "color": form}})
		f := e.open("c.xlsx")
		id, err := f.GetCellStyle("Sheet1", "A1")
		require.NoError(t, err)
		st, err := f.GetStyle(id)
		require.NoError(t, err)
		colors := []string{st.Font.Color, st.Fill.Color[0]}
		for _, b := range st.Border {
			colors = append(colors, b.Color)
		}
		sort.Strings(colors)
		raw, _ := json.Marshal(colors)
		seen[string(raw)] = true
		assert.Equal(t, "FF0000", st.Font.Color, form)
	}
	assert.Len(t, seen, 1, "every form gives the same colours: %v", seen)
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }
