package tools

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// schemaGaps walks a JSON Schema and lists, by path, every property without
// a description and every object that is not fully specified (no
// properties, or unknown keys not refused), looking into properties, array
// items, map values, $defs and the branches of anyOf/oneOf/allOf.
func schemaGaps(path string, node any, isProperty bool) []string {
	m, ok := node.(map[string]any)
	if !ok {
		return nil
	}
	var gaps []string
	if isProperty {
		if d, _ := m["description"].(string); strings.TrimSpace(d) == "" {
			gaps = append(gaps, path+": no description")
		}
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if ap, ok := m["additionalProperties"].(bool); !ok || ap {
			gaps = append(gaps, path+": object does not refuse unknown keys")
		}
		names := make([]string, 0, len(props))
		for k := range props {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			gaps = append(gaps, schemaGaps(path+"."+k, props[k], true)...)
		}
	} else if m["type"] == "object" {
		if _, isMap := m["additionalProperties"].(map[string]any); !isMap {
			gaps = append(gaps, path+": object without properties")
		}
	}
	if items, ok := m["items"]; ok {
		gaps = append(gaps, schemaGaps(path+"[]", items, false)...)
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok {
		gaps = append(gaps, schemaGaps(path+".*", ap, false)...)
	}
	for _, key := range []string{"$defs", "definitions"} {
		if defs, ok := m[key].(map[string]any); ok {
			for k, d := range defs {
				gaps = append(gaps, schemaGaps(path+"."+key+"."+k, d, false)...)
			}
		}
	}
	for _, key := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := m[key].([]any); ok {
			for i, b := range list {
				gaps = append(gaps, schemaGaps(fmt.Sprintf("%s.%s[%d]", path, key, i), b, false)...)
			}
		}
	}
	return gaps
}

// TestEverySchemaPropertyIsDescribed fails on any argument or nested
// property of any tool without a description, and on any nested object a
// model cannot follow (unspecified or open).
func TestEverySchemaPropertyIsDescribed(t *testing.T) {
	e := newEnv(t)
	var gaps []string
	for _, tool := range e.reg.Tools() {
		var schema any
		require.NoError(t, json.Unmarshal(tool.InputSchema, &schema), tool.Name)
		gaps = append(gaps, schemaGaps(tool.Name, schema, false)...)
	}
	assert.Empty(t, gaps)
}

func TestSchemaGapsFindsWhatIsMissing(t *testing.T) {
	var schema any
	require.NoError(t, json.Unmarshal([]byte(`{"type": "object", "properties": {
		"a": {"type": "string", "description": "ok"},
		"b": {"type": "object", "description": "open", "properties": {"c": {"type": "integer"}}},
		"d": {"type": "array", "description": "list", "items": {"type": "object", "properties": {"e": {"type": "string", "description": " "}}, "additionalProperties": false}},
		"f": {"type": "object", "description": "vague"},
		"g": {"type": "object", "description": "map", "additionalProperties": {"type": "number"}}},
		"additionalProperties": false}`), &schema))
	assert.Equal(t, []string{
		"t.b: object does not refuse unknown keys",
		"t.b.c: no description",
		"t.d[].e: no description",
		"t.f: object without properties",
	}, schemaGaps("t", schema, false))
}

// TestVocabulariesMatchTheCode: every enum value the schemas offer is
// accepted by the code that reads it.
func TestVocabulariesMatchTheCode(t *testing.T) {
	for _, s := range vocab.BorderStyles() {
		_, err := vocab.BorderStyleID(s)
		assert.NoError(t, err, s)
	}
	for _, op := range vocab.CellIsOperators() {
		_, ok := cellIsCriteria(op)
		assert.True(t, ok, op)
	}
	for _, c := range vocab.ColorNames() {
		_, err := vocab.ParseColor(c)
		assert.NoError(t, err, c)
	}
	for _, h := range vocab.HorizontalAlignments() {
		_, err := vocab.ParseStyleChange(nil, nil, nil, &vocab.AlignSpec{Horizontal: &h}, nil)
		assert.NoError(t, err, h)
	}
	for _, v := range vocab.VerticalAlignments() {
		_, err := vocab.ParseStyleChange(nil, nil, nil, &vocab.AlignSpec{Vertical: &v}, nil)
		assert.NoError(t, err, v)
	}
}

// TestNestedStylesThroughCallTool: every enum value of format_cells' and
// add_conditional_rule's nested objects works end to end, and a value off
// the list is refused by the schema before the tool runs.
func TestNestedStylesThroughCallTool(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{1, 2}, {3, 4}})
	for i, style := range vocab.BorderStyles() {
		side := map[string]any{"style": style, "color": "blue"}
		e.ok("format_cells", map[string]any{"file_path": "s.xlsx", "cell_range": grid.CellName(1, i+1),
			"border": map[string]any{"style": "thin", "left": side},
			"alignment": map[string]any{"horizontal": vocab.HorizontalAlignments()[i%len(vocab.HorizontalAlignments())],
				"vertical": vocab.VerticalAlignments()[i%len(vocab.VerticalAlignments())]}})
	}
	for _, icon := range vocab.IconStyles() {
		e.ok("add_conditional_rule", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:B2", "rule_type": "icon_set", "icon_style": icon})
	}
	// Values off the lists never reach the tool: the schema names the path.
	for _, c := range []struct {
		tool string
		args map[string]any
		path string
	}{
		{"format_cells", map[string]any{"cell_range": "A1", "border": map[string]any{"style": "wavy"}}, "$.border.style"},
		{"format_cells", map[string]any{"cell_range": "A1", "border": map[string]any{"top": map[string]any{"style": "wavy"}}}, "$.border.top.style"},
		{"format_cells", map[string]any{"cell_range": "A1", "alignment": map[string]any{"horizontal": "middle"}}, "$.alignment.horizontal"},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A3", "rule_type": "cell_is", "operator": "bigger", "values": []any{1}}, "$.operator"},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A3", "rules": []any{map[string]any{"rule_type": "icon_set", "icon_style": "smileys"}}}, "$.rules[0].icon_style"},
	} {
		c.args["file_path"] = "s.xlsx"
		got := e.fail(c.tool, c.args)
		assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", got["error_code"], c.path)
		assert.Contains(t, fmt.Sprint(got["violations"]), c.path)
	}
}

// TestGuessedNestedKeysGetTheAcceptedOnes: a guessed nested key is
// refused with the keys accepted at that level, so the model's retry can
// be right (format: {"font": {...}} is now accepted: see
// TestRuleFormatCanonicalAndAliasMatch).
func TestGuessedNestedKeysGetTheAcceptedOnes(t *testing.T) {
	e := newEnv(t)
	e.workbook("s.xlsx", [][]any{{1}, {2}})
	cases := []struct {
		tool      string
		args      map[string]any
		violation string
		level     string
		accepted  []any
	}{
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A2", "rule_type": "cell_is", "operator": "greaterThan", "values": []any{1},
			"format": map[string]any{"font": map[string]any{"colour": "red"}}},
			"$.format.font.colour", "$.format.font", []any{"bold", "color", "italic", "name", "size", "strike", "underline"}},
		{"add_conditional_rule", map[string]any{"cell_range": "A1:A2", "rules": []any{map[string]any{"rule_type": "formula", "formula": "A1>1",
			"format": map[string]any{"background": "red"}}}},
			"$.rules[0].format.background", "$.rules[0].format", []any{"bold", "border", "fill", "fill_color", "font", "font_color", "italic", "number_format"}},
		{"format_cells", map[string]any{"cell_range": "A1", "font": map[string]any{"colour": "red"}},
			"$.font.colour", "$.font", []any{"bold", "color", "italic", "name", "size", "strike", "underline"}},
		{"format_cells", map[string]any{"cell_range": "A1", "border": map[string]any{"left": map[string]any{"width": 2}}},
			"$.border.left.width", "$.border.left", []any{"color", "style"}},
	}
	for _, c := range cases {
		t.Run(c.violation, func(t *testing.T) {
			c.args["file_path"] = "s.xlsx"
			got := e.fail(c.tool, c.args)
			assert.Equal(t, "TOOL_ARGUMENT_VALIDATION_ERROR", got["error_code"])
			assert.Contains(t, fmt.Sprint(got["violations"]), c.violation)
			nested, _ := got["nested_accepted_fields"].(map[string]any)
			assert.Equal(t, c.accepted, nested[c.level], "%v", got)
		})
	}
}
