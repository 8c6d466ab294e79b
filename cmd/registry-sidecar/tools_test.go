package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// propertyPaths lists every property of schema as docs/TOOLS.md names it:
// "a", "a.b" inside an object, "a[].b" inside a list of objects.
func propertyPaths(schema gjson.Result, prefix string) []string {
	var out []string
	schema.Get("properties").ForEach(func(k, v gjson.Result) bool {
		name := prefix + k.String()
		out = append(out, name)
		out = append(out, propertyPaths(v, name+".")...)
		out = append(out, propertyPaths(v.Get("items"), name+"[].")...)
		return true
	})
	return out
}

// TestToolsMarkdownRendersNestedProperties: every property at every depth
// of every tool has its own row in docs/TOOLS.md, with its description.
func TestToolsMarkdownRendersNestedProperties(t *testing.T) {
	var md, js bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"tools", "--format", "markdown"}, &md, io.Discard))
	require.NoError(t, run(context.Background(), []string{"tools", "--format", "json"}, &js, io.Discard))
	nested := 0
	for _, tool := range gjson.Parse(js.String()).Array() {
		for _, p := range propertyPaths(tool.Get("inputSchema"), "") {
			assert.Contains(t, md.String(), "| `"+p+"` |", "%s: %s", tool.Get("name"), p)
			if strings.ContainsAny(p, ".[") {
				nested++
			}
		}
	}
	assert.Greater(t, nested, 40, "the nested objects (font, border, rules, ...) are rendered")
	assert.Contains(t, md.String(), "| `rules[].format.fill.color` | string | yes | Fill colour: hex")
	assert.Contains(t, md.String(), "| `rules[].format.fill_color` | string | no | Fill colour; alias of fill.color")
}

func TestToolsMarkdownResolvesRefs(t *testing.T) {
	tool := registry.Tool{Name: "t", Description: "d", InputSchema: json.RawMessage(`{"type": "object",
		"properties": {"side": {"$ref": "#/$defs/side"}, "list": {"type": "array", "description": "many", "items": {"$ref": "#/$defs/side"}}},
		"required": ["side"], "additionalProperties": false,
		"$defs": {"side": {"type": "object", "description": "one edge", "properties": {"style": {"type": "string", "enum": ["thin"], "description": "line"}}, "additionalProperties": false}}}`)}
	md := toolsMarkdown([]registry.Tool{tool})
	assert.Contains(t, md, "| `side` | object | yes | one edge |\n| `side.style` | string | no | line; one of `\"thin\"` |\n")
	assert.Contains(t, md, "| `list` | array | no | many |\n| `list[].style` | string | no | line; one of `\"thin\"` |\n")
}
