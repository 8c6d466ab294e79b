package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// fuzzSchema uses every keyword of the fast subset.
const fuzzSchema = `{"type": "object", "properties": {
  "s": {"type": "string", "minLength": 1, "maxLength": 4, "pattern": "^[a-z表😀]+$"},
  "e": {"enum": ["x", "y"]},
  "n": {"type": "number", "minimum": -1.5, "exclusiveMaximum": 100},
  "i": {"type": "integer", "maximum": 10, "exclusiveMinimum": 0},
  "b": {"type": ["boolean", "null"]},
  "l": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 3},
  "o": {"type": "object", "properties": {"k": {"type": "string"}}, "required": ["k"], "additionalProperties": {"type": "integer"}}
}, "required": ["s"], "additionalProperties": false}`

func fuzzSeeds(f *testing.F) {
	for _, s := range []string{
		`{"s": "ab"}`, `{"s": "表😀", "e": "x", "n": -1.5, "i": 10, "b": null, "l": [1], "o": {"k": "v", "z": 1}}`,
		`{"s": "ab", "n": 1e400}`, `{"s": "a\u0062"}`, `{"s": "ab", "s": ""}`, `{"s": "ab", "i": 1.0}`,
		`{"s": "\xff"}`, `{}`, `[]`, `null`, ``, `{"s": "ab",}`, `{"s": "ab"} x`, `{"\u0073": "ab"}`,
		`{"s": "ab", "l": []}`, `{"s": "ab", "o": {"z": 1}}`, `{"s": "ab", "i": 0}`, `{"s": "ab", "n": 100}`,
	} {
		f.Add([]byte(s))
	}
}

// FuzzFastSchema: whenever the fast path calls arguments valid, the full
// JSON Schema validator agrees.
func FuzzFastSchema(f *testing.F) {
	fuzzSeeds(f)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(fuzzSchema))
	require.NoError(f, err)
	fast := compileFast(doc)
	require.NotNil(f, fast)
	e, err := compileEntry(Tool{Name: "t", InputSchema: json.RawMessage(fuzzSchema), Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, args []byte) {
		if !fast.valid(args) {
			return
		}
		inst, _, violations := parseArguments(args)
		require.Nil(t, violations, "fast path accepted %q", args)
		require.Nil(t, validate(e.schema, inst), "fast path accepted %q", args)
	})
}

// FuzzCallTool: CallTool never panics and always answers a JSON object
// with a status that agrees with Result.
func FuzzCallTool(f *testing.F) {
	fuzzSeeds(f)
	r := New(WithMaxResultChars(200))
	echo := func(_ context.Context, args json.RawMessage) (any, error) {
		return errorsjson.Object{{Key: "status", Value: "success"}, {Key: "echo", Value: args}}, nil
	}
	for _, tool := range []Tool{
		{Name: "strict", InputSchema: json.RawMessage(fuzzSchema), Func: echo},
		{Name: "open", Func: echo},
		{Name: "panics", Func: func(context.Context, json.RawMessage) (any, error) { panic("fuzz") }},
	} {
		require.NoError(f, r.Register(tool))
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		for _, call := range []struct {
			name  string
			scope []string
		}{{"strict", nil}, {"open", nil}, {"panics", nil}, {string(args), nil}, {"open", []string{"strict"}}, {"open", []string{string(args)}}} {
			res := r.CallTool(context.Background(), call.name, args, WithScope(call.scope))
			// Python's json.loads grammar: an argument number past
			// float64 comes back as Infinity, as Python writes it.
			v, err := errorsjson.DecodeOrdered([]byte(res.Text))
			require.NoError(t, err, "not JSON: %q", res.Text)
			obj, ok := v.(errorsjson.Object)
			require.True(t, ok, res.Text)
			status, ok := obj.Get("status")
			require.True(t, ok, res.Text)
			require.Equal(t, res.IsError, status == "error", res.Text)
			if res.IsError {
				code, _ := obj.Get("error_code")
				require.Equal(t, string(res.Code), code)
			}
			require.False(t, bytes.Contains([]byte(res.Text), []byte("\n[结果已截断")), "object cut as plain text: %q", res.Text)
		}
	})
}
