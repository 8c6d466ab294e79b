package registry

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// strictSample has an optional string, an optional enum, an optional
// anyOf, a nullable property, a nested object and an array of objects.
const strictSample = `{"type": "object", "properties": {
	"file_path": {"type": "string", "minLength": 1, "description": "Path"},
	"mode": {"type": "string", "enum": ["a", "b"], "default": "a"},
	"column": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
	"value": {"anyOf": [{"type": "string"}, {"type": "null"}]},
	"font": {"type": "object", "properties": {"bold": {"type": "boolean"}, "size": {"type": "number", "maximum": 409}}, "required": ["size"], "additionalProperties": false},
	"rows": {"type": "array", "maxItems": 3, "items": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": "integer"}}, "required": ["x"], "additionalProperties": false}}},
	"required": ["file_path"], "additionalProperties": false}`

func TestStrictSchema(t *testing.T) {
	doc, err := pyjson.DecodeOrdered([]byte(strictSample))
	require.NoError(t, err)
	before, err := pyjson.MarshalString(doc)
	require.NoError(t, err)
	got, err := pyjson.MarshalString(StrictSchema(doc))
	require.NoError(t, err)
	want := `{"type": "object", "properties": {` +
		`"file_path": {"type": "string", "description": "Path"}, ` +
		`"mode": {"type": ["string", "null"], "enum": ["a", "b", null]}, ` +
		`"column": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}, ` +
		`"value": {"anyOf": [{"type": "string"}, {"type": "null"}]}, ` +
		`"font": {"type": ["object", "null"], "properties": {"bold": {"type": ["boolean", "null"]}, "size": {"type": "number", "maximum": 409}}, "required": ["bold", "size"], "additionalProperties": false}, ` +
		`"rows": {"type": ["array", "null"], "maxItems": 3, "items": {"type": "object", "properties": {"x": {"type": "integer"}, "y": {"type": ["integer", "null"]}}, "required": ["x", "y"], "additionalProperties": false}}}, ` +
		`"required": ["file_path", "mode", "column", "value", "font", "rows"], "additionalProperties": false}`
	assert.Equal(t, want, got)
	after, err := pyjson.MarshalString(doc)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the schema itself is not changed")

	// A $ref property becomes nullable through anyOf.
	ref, err := pyjson.DecodeOrdered([]byte(`{"type": "object", "properties": {"p": {"$ref": "#/$defs/P"}}, "$defs": {"P": {"type": "object", "properties": {"q": {"type": "string"}}}}}`))
	require.NoError(t, err)
	got, err = pyjson.MarshalString(StrictSchema(ref))
	require.NoError(t, err)
	assert.Equal(t, `{"type": "object", "properties": {"p": {"anyOf": [{"$ref": "#/$defs/P"}, {"type": "null"}]}}, "$defs": {"P": {"type": "object", "properties": {"q": {"type": ["string", "null"]}}, "required": ["q"], "additionalProperties": false}}, "required": ["p"], "additionalProperties": false}`, got)
}

func TestOmitNulls(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(strictSample))
	require.NoError(t, err)
	cases := []struct{ name, in, want string }{
		{"no null", `{"file_path": "a.xlsx"}`, `{"file_path": "a.xlsx"}`},
		{"optional nulls dropped", `{"file_path":"a.xlsx","mode":null,"column":null,"font":null,"rows":null}`, `{"file_path":"a.xlsx"}`},
		{"required null kept", `{"file_path":null,"mode":null}`, `{"file_path":null}`},
		{"nullable kept", `{"file_path":"a","value":null}`, `{"file_path":"a","value":null}`},
		{"unknown key kept", `{"file_path":"a","zeta":null}`, `{"file_path":"a","zeta":null}`},
		{"nested object", `{"file_path":"a","font":{"bold":null,"size":null}}`, `{"file_path":"a","font":{"size":null}}`},
		{"array of objects", `{"file_path":"a","rows":[{"x":1,"y":null},{"x":2,"y":3}]}`, `{"file_path":"a","rows":[{"x":1},{"x":2,"y":3}]}`},
		{"numbers and strings kept as sent", `{"file_path":"null \u00e9","column":1e400,"mode":null}`, `{"file_path":"null \u00e9","column":1e400}`},
		{"not an object", `[null]`, `[null]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, string(omitNulls([]byte(c.in), doc)))
		})
	}
}

// TestStrictCallsRoundTrip: OpenAISchemas with Strict gives strict-mode
// functions; a call shaped by them (every optional argument null) succeeds
// with WithNullAsOmitted exactly as the call without them, and fails
// validation without it.
func TestStrictCallsRoundTrip(t *testing.T) {
	reg := New()
	require.NoError(t, reg.Register(Tool{Name: "t", Description: "d", InputSchema: json.RawMessage(strictSample),
		Func: func(_ context.Context, args json.RawMessage) (any, error) { return string(args), nil }}))
	for _, mode := range []SchemaMode{ModeResponses, ModeChatCompletions} {
		list, err := reg.OpenAISchemas(mode, nil, Strict())
		require.NoError(t, err)
		require.Len(t, list, 1)
		fn := list[0]
		if mode == ModeChatCompletions {
			v, _ := fn.Get("function")
			fn = v.(pyjson.Object)
		}
		strict, _ := fn.Get("strict")
		assert.Equal(t, true, strict, mode)
		params, _ := fn.Get("parameters")
		req, _ := params.(pyjson.Object).Get("required")
		assert.Len(t, req, 6, mode)
	}
	plain, err := reg.OpenAISchemas(ModeResponses, nil)
	require.NoError(t, err)
	_, hasStrict := plain[0].Get("strict")
	assert.False(t, hasStrict)

	args := `{"file_path": "a.xlsx", "mode": null, "column": null, "value": null, "font": null, "rows": null}`
	res := reg.CallTool(context.Background(), "t", []byte(args), WithNullAsOmitted())
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, `{"file_path":"a.xlsx","value":null}`, res.Text)
	res = reg.CallTool(context.Background(), "t", []byte(args))
	assert.True(t, res.IsError)
	assert.Contains(t, res.Text, "TOOL_ARGUMENT_VALIDATION_ERROR")
}

// TestLegacyRewritesBeforeValidation: a tool's Legacy hook sees the
// arguments first.
func TestLegacyRewritesBeforeValidation(t *testing.T) {
	reg := New()
	require.NoError(t, reg.Register(Tool{Name: "t", InputSchema: json.RawMessage(`{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false}`),
		Legacy: func(args []byte) []byte {
			if string(args) == `{"count": 1}` {
				return []byte(`{"n": 1}`)
			}
			return args
		},
		Func: func(_ context.Context, args json.RawMessage) (any, error) { return string(args), nil }}))
	assert.Equal(t, `{"n": 1}`, reg.CallTool(context.Background(), "t", []byte(`{"count": 1}`)).Text)
	assert.Equal(t, `{"n": 2}`, reg.CallTool(context.Background(), "t", []byte(`{"n": 2}`)).Text)
	assert.True(t, reg.CallTool(context.Background(), "t", []byte(`{"count": 2}`)).IsError)
}
