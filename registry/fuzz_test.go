package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
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

// seeder is the part of *testing.F that fuzzSeeds uses.
type seeder interface{ Add(args ...any) }

func fuzzSeeds(f seeder) {
	for _, s := range []string{
		`{"s": "ab"}`, `{"s": "表😀", "e": "x", "n": -1.5, "i": 10, "b": null, "l": [1], "o": {"k": "v", "z": 1}}`,
		`{"s": "ab", "n": 1e400}`, `{"s": "a\u0062"}`, `{"s": "ab", "s": ""}`, `{"s": "ab", "i": 1.0}`,
		`{"s": "\xff"}`, `{}`, `[]`, `null`, ``, `{"s": "ab",}`, `{"s": "ab"} x`, `{"\u0073": "ab"}`,
		`{"s": "ab", "l": []}`, `{"s": "ab", "o": {"z": 1}}`, `{"s": "ab", "i": 0}`, `{"s": "ab", "n": 100}`,
		`{"s": "ab", "e": 1}`, `{"s": "ab", "e": null}`, `{"s": "ab", "e": ["x"]}`,
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
		require.True(t, validatorAccepts(t, e, args), "fast path accepted %q", args)
	})
}

// fuzzArgSeeds are the argument seeds as strings, for targets that take
// more than the argument bytes.
func fuzzArgSeeds() []string {
	var out []string
	f := &seedCollector{}
	fuzzSeeds(f)
	for _, b := range f.seeds {
		out = append(out, string(b))
	}
	return out
}

// seedCollector captures fuzzSeeds' corpus without a *testing.F.
type seedCollector struct{ seeds [][]byte }

func (c *seedCollector) Add(args ...any) { c.seeds = append(c.seeds, args[0].([]byte)) }

// FuzzCallTool: over (tool name, argument bytes, scope), CallTool never
// panics and always answers a JSON object whose status and error_code agree
// with Result. A tool that does not panic never yields TOOL_INTERNAL_ERROR
// (CallTool's own last-resort recover would otherwise hide a registry bug),
// the scope is checked before the lookup, and an unknown name is
// TOOL_NOT_FOUND.
func FuzzCallTool(f *testing.F) {
	for _, args := range fuzzArgSeeds() {
		for _, name := range []string{"strict", "open", "panics", ""} {
			f.Add(name, []byte(args), "", false)
		}
		f.Add("open", []byte(args), "strict", true)
		f.Add(args, []byte(args), args, true)
	}
	f.Add("open", []byte(`{}`), "", true)
	f.Add("nope", []byte(`{}`), "strict", true)
	f.Add("strict", []byte(`{"s": "ab"}`), "open,strict", true)
	r := New(WithMaxResultChars(200))
	echo := func(_ context.Context, args json.RawMessage) (any, error) {
		return pyjson.Object{{Key: "status", Value: "success"}, {Key: "echo", Value: args}}, nil
	}
	for _, tool := range []Tool{
		{Name: "strict", InputSchema: json.RawMessage(fuzzSchema), Func: echo},
		{Name: "open", Func: echo},
		{Name: "panics", Func: func(context.Context, json.RawMessage) (any, error) { panic("fuzz") }},
	} {
		require.NoError(f, r.Register(tool))
	}
	f.Fuzz(func(t *testing.T, name string, args []byte, scopeList string, scoped bool) {
		var scope []string
		if scoped {
			scope = []string{}
			if scopeList != "" {
				scope = strings.Split(scopeList, ",")
			}
		}
		// excelmanus (the default) may cut an object that no phase fits as
		// plain text, as Python does; en keeps it JSON. Both must answer.
		xm := r.CallTool(context.Background(), name, args, WithScope(scope))
		require.Equal(t, xm.Code, r.CallTool(context.Background(), name, args, WithScope(scope), WithCallProfile(ProfileExcelmanus)).Code)
		res := r.CallTool(context.Background(), name, args, WithScope(scope), WithCallProfile(ProfileEnglish))
		require.Equal(t, xm.Code, res.Code, "the profile words, it never decides: %s / %s", xm.Text, res.Text)
		require.Equal(t, xm.IsError, res.IsError)
		// Python's json.loads grammar: an argument number past
		// float64 comes back as Infinity, as Python writes it.
		v, err := pyjson.DecodeOrdered([]byte(res.Text))
		require.NoError(t, err, "not JSON: %q", res.Text)
		obj, ok := v.(pyjson.Object)
		require.True(t, ok, res.Text)
		status, ok := obj.Get("status")
		require.True(t, ok, res.Text)
		require.Equal(t, res.IsError, status == "error", res.Text)
		require.False(t, bytes.Contains([]byte(res.Text), []byte("\n[结果已截断")), "object cut as plain text: %q", res.Text)
		if !res.IsError {
			return
		}
		code, _ := obj.Get("error_code")
		require.Equal(t, string(res.Code), code)
		inScope := !scoped || slices.Contains(scope, name)
		_, known := r.Tool(name)
		switch {
		case !inScope:
			require.Equal(t, errorsjson.CodeNotAllowed, res.Code, res.Text)
		case !known:
			require.Equal(t, errorsjson.CodeNotFound, res.Code, res.Text)
		case name == "panics" && res.Code != errorsjson.CodeArgumentValidation:
			require.Equal(t, errorsjson.CodeInternal, res.Code, res.Text)
		default:
			require.Equal(t, errorsjson.CodeArgumentValidation, res.Code, "a tool that returns cleanly: %s", res.Text)
		}
	})
}
