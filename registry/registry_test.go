package registry_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

func nop(context.Context, json.RawMessage) (any, error) { return "ok", nil }

func TestRegister(t *testing.T) {
	tests := []struct {
		name   string
		tool   registry.Tool
		target error
	}{
		{"no name", registry.Tool{Func: nop}, registry.ErrInvalidTool},
		{"no func", registry.Tool{Name: "x"}, registry.ErrInvalidTool},
		{"schema not JSON", registry.Tool{Name: "x", Func: nop, InputSchema: json.RawMessage(`{`)}, registry.ErrInvalidTool},
		{"schema does not compile", registry.Tool{Name: "x", Func: nop, InputSchema: json.RawMessage(`{"type": 5}`)}, registry.ErrInvalidTool},
		{"bad pattern", registry.Tool{Name: "x", Func: nop, InputSchema: json.RawMessage(`{"properties": {"a": {"pattern": "("}}}`)}, registry.ErrInvalidTool},
		{"duplicate", registry.Tool{Name: "dup", Func: nop}, registry.ErrDuplicate},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registry.New()
			require.NoError(t, reg.Register(registry.Tool{Name: "dup", Func: nop}))
			err := reg.Register(tc.tool)
			assert.ErrorIs(t, err, tc.target)
		})
	}
}

func TestToolsOrderAndLookup(t *testing.T) {
	reg := registry.New()
	for _, n := range []string{"zeta", "alpha", "mid"} {
		require.NoError(t, reg.Register(registry.Tool{Name: n, Description: n + " tool", Func: nop}))
	}
	var names []string
	for _, tool := range reg.Tools() {
		names = append(names, tool.Name)
	}
	assert.Equal(t, []string{"zeta", "alpha", "mid"}, names)
	tool, ok := reg.Tool("alpha")
	assert.True(t, ok)
	assert.Equal(t, "alpha tool", tool.Description)
	_, ok = reg.Tool("nope")
	assert.False(t, ok)
}

// TestToolsReportDefaultSchema: a tool registered without a schema is listed
// with the schema it is validated against, so front ends need no default.
func TestToolsReportDefaultSchema(t *testing.T) {
	tests := []struct {
		name   string
		schema json.RawMessage
		want   string
	}{
		{"absent", nil, `{"type": "object"}`},
		{"blank", json.RawMessage(" \n"), `{"type": "object"}`},
		{"given", json.RawMessage(`{"type": "object", "required": ["a"]}`), `{"type": "object", "required": ["a"]}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registry.New()
			require.NoError(t, reg.Register(registry.Tool{Name: "t", InputSchema: tc.schema, Func: nop}))
			tools := reg.Tools()
			require.Len(t, tools, 1)
			assert.Equal(t, tc.want, string(tools[0].InputSchema))
			tool, ok := reg.Tool("t")
			require.True(t, ok)
			assert.Equal(t, tc.want, string(tool.InputSchema))
		})
	}
}

func TestFork(t *testing.T) {
	parent := registry.New()
	require.NoError(t, parent.Register(registry.Tool{Name: "shared", Func: nop}))
	child := parent.Fork()
	require.NoError(t, child.Register(registry.Tool{Name: "session", Func: nop}))
	require.NoError(t, parent.Register(registry.Tool{Name: "later", Func: nop}))
	ctx := context.Background()
	assert.False(t, child.CallTool(ctx, "shared", nil).IsError)
	assert.False(t, child.CallTool(ctx, "session", nil).IsError)
	assert.Equal(t, errorsjson.CodeNotFound, parent.CallTool(ctx, "session", nil).Code)
	assert.Equal(t, errorsjson.CodeNotFound, child.CallTool(ctx, "later", nil).Code)
	assert.Len(t, child.Tools(), 2)
	assert.Len(t, parent.Tools(), 2)
	// The same name may be registered independently on each side.
	require.NoError(t, parent.Register(registry.Tool{Name: "session", Func: nop}))
}

func TestOpenAISchemas(t *testing.T) {
	reg := registry.New()
	schema := json.RawMessage(`{"type":"object","properties":{"b":{"type":"string"},"a":{"type":"integer"}},"required":["b"]}`)
	require.NoError(t, reg.Register(registry.Tool{Name: "read_excel", Description: "读取", InputSchema: schema, Func: nop}))
	require.NoError(t, reg.Register(registry.Tool{Name: "list_sheets", Description: "list", Func: nop}))
	tests := []struct {
		name  string
		mode  registry.SchemaMode
		scope []string
		want  string
	}{
		{"responses", registry.ModeResponses, nil,
			`[{"type": "function", "name": "read_excel", "description": "读取", "parameters": {"type": "object", "properties": {"b": {"type": "string"}, "a": {"type": "integer"}}, "required": ["b"]}}, {"type": "function", "name": "list_sheets", "description": "list", "parameters": {"type": "object"}}]`},
		{"chat completions scoped", registry.ModeChatCompletions, []string{"list_sheets", "unknown"},
			`[{"type": "function", "function": {"name": "list_sheets", "description": "list", "parameters": {"type": "object"}}}]`},
		{"empty scope", registry.ModeResponses, []string{}, `[]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := reg.OpenAISchemas(tc.mode, tc.scope)
			require.NoError(t, err)
			text, err := pyjson.MarshalString(got)
			require.NoError(t, err)
			assert.Equal(t, tc.want, text)
		})
	}
	_, err := reg.OpenAISchemas("legacy", nil)
	assert.ErrorIs(t, err, errorsjson.ErrInvalidArgument)
}
