package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sampleOf is a value schema s accepts: the first enum value, the first
// anyOf branch, the minimum of a number; an object gets its required
// properties and, when strict, null for each optional one (what an OpenAI
// strict-mode model sends for an argument it leaves out).
func sampleOf(s map[string]any, strict bool) any {
	if values, ok := s["enum"].([]any); ok {
		return values[0]
	}
	if branches, ok := s["anyOf"].([]any); ok {
		return sampleOf(branches[0].(map[string]any), strict)
	}
	switch s["type"] {
	case "string":
		return "A1"
	case "integer", "number":
		if m, ok := s["minimum"].(float64); ok {
			return m
		}
		return 1
	case "boolean":
		return true
	case "array":
		n, _ := s["minItems"].(float64)
		items, _ := s["items"].(map[string]any)
		out := []any{}
		for range int(n) {
			out = append(out, sampleOf(items, strict))
		}
		return out
	case "object":
		props, _ := s["properties"].(map[string]any)
		required, _ := s["required"].([]any)
		out := map[string]any{}
		for k, p := range props {
			switch {
			case containsAny(required, k):
				out[k] = sampleOf(p.(map[string]any), strict)
			case strict:
				out[k] = nil
			}
		}
		return out
	}
	return nil
}

func containsAny(list []any, v string) bool {
	for _, e := range list {
		if e == v {
			return true
		}
	}
	return false
}

// TestStrictModeCallsOnEveryTool: for every spreadsheet tool, arguments
// shaped by its strict-mode schema (every optional argument null) pass
// that schema, and with registry.WithNullAsOmitted reach the tool as the
// same call without those arguments; a null the tool's schema accepts
// (write_cells' value) stays.
func TestStrictModeCallsOnEveryTool(t *testing.T) {
	e := newEnv(t)
	echo := registry.New()
	for _, tool := range e.reg.Tools() {
		tool.Func = func(_ context.Context, args json.RawMessage) (any, error) { return args, nil }
		require.NoError(t, echo.Register(tool))
	}
	list, err := echo.OpenAISchemas(registry.ModeResponses, nil, registry.Strict())
	require.NoError(t, err)
	require.Len(t, list, len(e.reg.Tools()))
	for i, tool := range e.reg.Tools() {
		t.Run(tool.Name, func(t *testing.T) {
			var schema map[string]any
			require.NoError(t, json.Unmarshal(tool.InputSchema, &schema))
			strictArgs, err := json.Marshal(sampleOf(schema, true))
			require.NoError(t, err)
			omitted, err := json.Marshal(sampleOf(schema, false))
			require.NoError(t, err)

			params, _ := list[i].Get("parameters")
			raw, err := pyjson.Marshal(params)
			require.NoError(t, err)
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
			require.NoError(t, err)
			c := jsonschema.NewCompiler()
			require.NoError(t, c.AddResource("strict.json", doc))
			strictSchema, err := c.Compile("strict.json")
			require.NoError(t, err)
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(string(strictArgs)))
			require.NoError(t, err)
			require.NoError(t, strictSchema.Validate(inst), "the strict-mode schema accepts %s", strictArgs)

			res := echo.CallTool(context.Background(), tool.Name, strictArgs, registry.WithNullAsOmitted())
			require.False(t, res.IsError, res.Text)
			want := map[string]any{}
			require.NoError(t, json.Unmarshal(omitted, &want))
			if tool.Name == "write_cells" {
				want["value"] = nil // its schema accepts null: a value, not an omission
			}
			var got map[string]any
			require.NoError(t, json.Unmarshal([]byte(res.Text), &got))
			assert.Equal(t, want, got)

			if string(strictArgs) != string(omitted) {
				plain := echo.CallTool(context.Background(), tool.Name, strictArgs)
				assert.Equal(t, errorsjson.CodeArgumentValidation, plain.Code, "without the option the nulls are refused")
			}
		})
	}
}
