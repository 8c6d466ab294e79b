package registry

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFastSchemaAgreesWithValidator runs schemas inside and outside the
// fast subset against arguments on both sides of each keyword: the fast
// path may only ever say "valid" when the full validator agrees, and it
// must stay off for schemas whose meaning it does not model.
func TestFastSchemaAgreesWithValidator(t *testing.T) {
	tests := []struct {
		name   string
		schema string
		fast   bool // compileFast must accept the schema
		args   []string
	}{
		{
			name:   "draft-07 asserts format, so no fast path",
			schema: `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"e": {"type": "string", "format": "email"}}}`,
			args:   []string{`{"e": "not an email"}`, `{"e": "a@b.example"}`},
		},
		{
			name:   "draft-04 exclusiveMaximum boolean",
			schema: `{"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"type": "number", "maximum": 5, "exclusiveMaximum": true}}}`,
			args:   []string{`{"n": 5}`, `{"n": 4}`},
		},
		{
			name:   "explicit 2020-12 keeps the fast path",
			schema: `{"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"e": {"type": "string", "format": "email"}}}`,
			fast:   true,
			args:   []string{`{"e": "not an email"}`, `{"e": 5}`},
		},
		{
			name:   "unsupported keyword const",
			schema: `{"type": "object", "properties": {"c": {"const": "x"}}}`,
			args:   []string{`{"c": "y"}`, `{"c": "x"}`},
		},
		{
			name:   "every subset keyword",
			schema: fuzzSchema,
			fast:   true,
			args: []string{
				`{"s": "ab"}`, `{"s": ""}`, `{"s": "abcde"}`, `{"s": "表😀表😀"}`, `{"s": "表😀表😀表"}`, `{"s": "AB"}`,
				`{"s": "a", "e": "x"}`, `{"s": "a", "e": "z"}`, `{"s": "a", "e": 1}`,
				`{"s": "a", "n": -1.5}`, `{"s": "a", "n": -1.6}`, `{"s": "a", "n": 100}`, `{"s": "a", "n": 99.999}`,
				`{"s": "a", "i": 0}`, `{"s": "a", "i": 1}`, `{"s": "a", "i": 10}`, `{"s": "a", "i": 11}`, `{"s": "a", "i": 2.0}`, `{"s": "a", "i": 2.5}`,
				`{"s": "a", "b": true}`, `{"s": "a", "b": null}`, `{"s": "a", "b": 0}`,
				`{"s": "a", "l": []}`, `{"s": "a", "l": [1, 2, 3]}`, `{"s": "a", "l": [1, 2, 3, 4]}`, `{"s": "a", "l": ["1"]}`,
				`{"s": "a", "o": {"k": "v"}}`, `{"s": "a", "o": {}}`, `{"s": "a", "o": {"k": "v", "x": 1}}`, `{"s": "a", "o": {"k": "v", "x": "1"}}`,
				`{"s": "a", "extra": 1}`, `{"s": "a", "s": 5}`, `{"s": "\u0061"}`, `{"\u0073": "a"}`, `{"s": "a\u0000"}`,
				`{"s": "a", "n": 1e400}`, `{"s": "a", "n": -1e400}`, `{"s": "a", "n": 1e-400}`,
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.schema))
			require.NoError(t, err)
			fast := compileFast(doc)
			assert.Equal(t, tc.fast, fast != nil, "fast path availability")
			e, err := compileEntry(Tool{Name: "t", InputSchema: json.RawMessage(tc.schema), Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
			require.NoError(t, err)
			for _, args := range tc.args {
				full := validatorAccepts(t, e, []byte(args))
				if fast != nil && fast.valid([]byte(args)) {
					assert.True(t, full, "fast path accepted %s, the validator refuses it", args)
				}
				// CallTool must answer as the full validator does.
				r := New()
				require.NoError(t, r.Register(Tool{Name: "t", InputSchema: json.RawMessage(tc.schema), Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }}))
				res := r.CallTool(context.Background(), "t", []byte(args))
				assert.Equal(t, !full, res.IsError, "%s: %s", args, res.Text)
			}
		})
	}
}
