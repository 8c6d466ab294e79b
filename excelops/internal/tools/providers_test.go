package tools

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What each model provider documents about the tool schemas it accepts,
// as rules over every schema node. Sources: OpenAI's function calling and
// Structured Outputs guide ("Supported schemas": strict mode needs every
// property required, additionalProperties false on every object, at most
// 10 levels of nesting, 5000 properties and 1000 enum values, and accepts
// only its listed keywords); Gemini's FunctionDeclaration.parameters, the
// OpenAPI 3.0 Schema subset (one type per node, string enums, no
// exclusive bounds, an OBJECT with properties; additionalProperties is
// carried by parametersJsonSchema and Vertex AI's Schema); Anthropic's
// tools[].input_schema (JSON Schema whose root is an object, no
// oneOf/anyOf/allOf at the top level).

// schemaNode is one node of a schema walk.
type schemaNode struct {
	path  string
	node  map[string]any
	depth int // objects above this one
	root  bool
}

// providerRule is one documented constraint; check returns "" when n obeys.
type providerRule struct {
	provider, rule string
	check          func(n schemaNode) string
}

var (
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`)
	// geminiKeywords are the fields of Gemini's function-declaration Schema.
	geminiKeywords = []string{"type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems",
		"properties", "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example",
		"anyOf", "propertyOrdering", "default", "items", "minimum", "maximum", "additionalProperties"}
	singleTypes = []string{"string", "number", "integer", "boolean", "array", "object", "null"}
)

func keysOf(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// typed: the node names its type, or every anyOf branch does.
func typed(n schemaNode) string {
	if _, ok := n.node["type"]; ok {
		return ""
	}
	if _, ok := n.node["anyOf"]; ok {
		return "" // branches are nodes of their own
	}
	return "no type"
}

// closedObject: an object refuses unknown keys.
func closedObject(n schemaNode) string {
	if n.node["type"] != "object" && n.node["properties"] == nil {
		return ""
	}
	if n.node["additionalProperties"] != false {
		return fmt.Sprintf("additionalProperties is %v, not false", n.node["additionalProperties"])
	}
	return ""
}

// defaultRules hold for the schemas every door lists.
var defaultRules = []providerRule{
	{"all three", "no type arrays", func(n schemaNode) string {
		if _, isList := n.node["type"].([]any); isList {
			return fmt.Sprint("type ", n.node["type"])
		}
		return ""
	}},
	{"all three", "no exclusiveMinimum/exclusiveMaximum", func(n schemaNode) string {
		for _, k := range []string{"exclusiveMinimum", "exclusiveMaximum"} {
			if _, ok := n.node[k]; ok {
				return k
			}
		}
		return ""
	}},
	{"all three", "every subschema typed", typed},
	{"all three", "additionalProperties false on every object", closedObject},
	{"Gemini", "only the OpenAPI Schema fields", func(n schemaNode) string {
		for _, k := range keysOf(n.node) {
			if !slices.Contains(geminiKeywords, k) {
				return "keyword " + k
			}
		}
		return ""
	}},
	{"Gemini", "one type per node", func(n schemaNode) string {
		if t, ok := n.node["type"]; ok && !slices.Contains(singleTypes, fmt.Sprint(t)) {
			return fmt.Sprint("type ", t)
		}
		return ""
	}},
	{"Gemini", "enums of strings on strings", func(n schemaNode) string {
		values, ok := n.node["enum"].([]any)
		if !ok {
			return ""
		}
		if n.node["type"] != "string" {
			return fmt.Sprint("enum on type ", n.node["type"])
		}
		for _, v := range values {
			if _, isString := v.(string); !isString {
				return fmt.Sprint("enum value ", v)
			}
		}
		return ""
	}},
	{"Gemini", "an OBJECT has properties", func(n schemaNode) string {
		if props, _ := n.node["properties"].(map[string]any); n.node["type"] == "object" && len(props) == 0 {
			return "object without properties"
		}
		return ""
	}},
	{"Gemini", "an ARRAY has items", func(n schemaNode) string {
		if _, ok := n.node["items"].(map[string]any); n.node["type"] == "array" && !ok {
			return "array without items"
		}
		return ""
	}},
	{"Gemini", "additionalProperties only false", func(n schemaNode) string {
		if ap, ok := n.node["additionalProperties"]; ok && ap != false {
			return fmt.Sprint("additionalProperties ", ap)
		}
		return ""
	}},
	{"Anthropic", "input_schema is an object, no oneOf/anyOf/allOf at the top", func(n schemaNode) string {
		if !n.root {
			return ""
		}
		if n.node["type"] != "object" {
			return fmt.Sprint("root type ", n.node["type"])
		}
		for _, k := range []string{"oneOf", "anyOf", "allOf"} {
			if _, ok := n.node[k]; ok {
				return "root " + k
			}
		}
		return ""
	}},
	{"OpenAI", "parameters is an object", func(n schemaNode) string {
		if n.root && n.node["type"] != "object" {
			return fmt.Sprint("root type ", n.node["type"])
		}
		return ""
	}},
}

// strictRules hold for the OpenAI strict-mode schemas (registry.StrictSchema).
var strictRules = []providerRule{
	{"OpenAI strict", "only the supported keywords", func(n schemaNode) string {
		for _, k := range keysOf(n.node) {
			if !slices.Contains(registry.StrictKeywords(), k) {
				return "keyword " + k
			}
		}
		return ""
	}},
	{"OpenAI strict", "every node typed", typed},
	{"OpenAI strict", "additionalProperties false on every object", closedObject},
	{"OpenAI strict", "every property required", func(n schemaNode) string {
		props, _ := n.node["properties"].(map[string]any)
		required, _ := n.node["required"].([]any)
		for _, k := range keysOf(props) {
			if !slices.Contains(required, any(k)) {
				return "optional " + k
			}
		}
		return ""
	}},
	{"OpenAI strict", "the root is an object, not anyOf", func(n schemaNode) string {
		if _, any := n.node["anyOf"]; n.root && (n.node["type"] != "object" || any) {
			return "root not a plain object"
		}
		return ""
	}},
	{"OpenAI strict", "at most 10 levels of nesting", func(n schemaNode) string {
		if n.depth > 10 {
			return fmt.Sprint("depth ", n.depth)
		}
		return ""
	}},
}

// walkSchema visits every schema node of s: properties, items, anyOf.
func walkSchema(s map[string]any, path string, depth int, visit func(schemaNode)) {
	visit(schemaNode{path: path, node: s, depth: depth, root: path == "$"})
	below := depth
	if _, ok := s["properties"]; ok {
		below++
	}
	props, _ := s["properties"].(map[string]any)
	for _, k := range keysOf(props) {
		if sub, ok := props[k].(map[string]any); ok {
			walkSchema(sub, path+"."+k, below, visit)
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkSchema(items, path+"[]", below, visit)
	}
	branches, _ := s["anyOf"].([]any)
	for i, b := range branches {
		if sub, ok := b.(map[string]any); ok {
			walkSchema(sub, fmt.Sprintf("%s|%d", path, i), depth, visit)
		}
	}
}

// violations lists where schema breaks rules, one line per node and rule.
func violations(tool string, schema map[string]any, rules []providerRule) []string {
	var out []string
	walkSchema(schema, "$", 0, func(n schemaNode) {
		for _, r := range rules {
			if why := r.check(n); why != "" {
				out = append(out, fmt.Sprintf("%s %s: %s (%s: %s)", tool, n.path, why, r.provider, r.rule))
			}
		}
	})
	return out
}

// asMap decodes an ordered schema (or JSON text) into maps.
func asMap(t *testing.T, v any) map[string]any {
	t.Helper()
	raw, ok := v.([]byte)
	if !ok {
		s, err := pyjson.Marshal(v)
		require.NoError(t, err)
		raw = s
	}
	var m map[string]any
	require.NoError(t, json.Unmarshal(raw, &m))
	return m
}

// TestSchemasEveryProviderAccepts: every spreadsheet tool's schema keeps
// to what OpenAI, Gemini and Anthropic all accept, and its strict-mode form
// to OpenAI strict mode's rules, totals included.
func TestSchemasEveryProviderAccepts(t *testing.T) {
	e := newEnv(t)
	properties, enumValues := 0, 0
	for _, tool := range e.reg.Tools() {
		assert.Regexp(t, openAIName, tool.Name, "OpenAI and Anthropic tool names")
		assert.Regexp(t, geminiName, tool.Name, "Gemini function names")
		assert.Empty(t, violations(tool.Name, asMap(t, []byte(tool.InputSchema)), defaultRules))

		ordered, err := pyjson.DecodeOrdered(tool.InputSchema)
		require.NoError(t, err)
		strict := asMap(t, registry.StrictSchema(ordered))
		assert.Empty(t, violations(tool.Name, strict, strictRules))
		walkSchema(strict, "$", 0, func(n schemaNode) {
			props, _ := n.node["properties"].(map[string]any)
			values, _ := n.node["enum"].([]any)
			properties, enumValues = properties+len(props), enumValues+len(values)
		})
	}
	assert.LessOrEqual(t, properties, 5000, "OpenAI strict: properties in all schemas")
	assert.LessOrEqual(t, enumValues, 1000, "OpenAI strict: enum values in all schemas")
}

// TestProviderRulesCatchTheOldSchemas: the rules find what a review of the old schemas found in the
// schemas before, so an empty list above means something.
func TestProviderRulesCatchTheOldSchemas(t *testing.T) {
	cases := []struct{ schema, want string }{
		{`{"type": "object", "properties": {"column": {"type": ["string", "integer"]}}, "additionalProperties": false}`, "no type arrays"},
		{`{"type": "object", "properties": {"scale": {"type": "number", "exclusiveMinimum": 0}}, "additionalProperties": false}`, "no exclusiveMinimum"},
		{`{"type": "object", "properties": {"value": {"description": "any"}}, "additionalProperties": false}`, "every subschema typed"},
		{`{"type": "object", "properties": {"columns": {"type": "object", "additionalProperties": {"type": "number"}}}, "additionalProperties": false}`, "additionalProperties false on every object"},
		{`{"type": "object", "properties": {"level": {"type": "integer", "enum": [1, 2]}}, "additionalProperties": false}`, "enums of strings"},
		{`{"anyOf": [{"type": "object"}]}`, "no oneOf/anyOf/allOf at the top"},
	}
	for _, c := range cases {
		got := violations("t", asMap(t, []byte(c.schema)), defaultRules)
		assert.NotEmpty(t, got, c.schema)
		assert.Contains(t, fmt.Sprint(got), c.want, c.schema)
	}
	// Strict mode: an optional property, a keyword it does not know.
	got := violations("t", asMap(t, []byte(`{"type": "object", "properties": {"a": {"type": "string", "minLength": 1}}, "additionalProperties": false}`)), strictRules)
	assert.Contains(t, fmt.Sprint(got), "optional a")
	assert.Contains(t, fmt.Sprint(got), "keyword minLength")
}
