package registry_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Register adds a tool: a name, a JSON Schema for its arguments and a Go
// function. A duplicate name or a schema that does not compile is refused.
func ExampleRegistry_Register() {
	reg := registry.New()
	add := registry.Tool{
		Name:        "add",
		Description: "Add two integers.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]}`),
		Func: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct{ A, B int }
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return pyjson.Object{{Key: "status", Value: "success"}, {Key: "sum", Value: in.A + in.B}}, nil
		},
	}
	fmt.Println(reg.Register(add))
	fmt.Println(reg.Register(add))
	// Output:
	// <nil>
	// register "add": tool already registered
}

// CallTool always answers with a payload: the tool's result, or an error
// payload an agent can act on.
func ExampleRegistry_CallTool() {
	reg := registry.New()
	_ = reg.Register(registry.Tool{
		Name:        "greet",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"name": {"type": "string", "minLength": 1}}, "required": ["name"]}`),
		Func: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct{ Name string }
			_ = json.Unmarshal(args, &in)
			return pyjson.Object{{Key: "status", Value: "success"}, {Key: "greeting", Value: "你好, " + in.Name}}, nil
		},
	})
	ctx := context.Background()
	fmt.Println(reg.CallTool(ctx, "greet", []byte(`{"name": "Ada"}`)).Text)
	res := reg.CallTool(ctx, "greet", []byte(`{}`))
	fmt.Println(res.IsError, res.Code)
	res = reg.CallTool(ctx, "greet", []byte(`{"name": "Ada"}`), registry.WithScope([]string{"other"}))
	fmt.Println(res.Text)
	// Output:
	// {"status": "success", "greeting": "你好, Ada"}
	// true TOOL_ARGUMENT_VALIDATION_ERROR
	// {"status": "error", "error_code": "TOOL_NOT_ALLOWED", "tool": "greet", "exception": "ToolNotAllowedError", "message": "工具 'greet' 不在授权范围内。"}
}

// WithProfile words the texts the registry writes itself; excelmanus (the
// default) uses excelmanus's exact words, en plain English. A call may pick
// its own with WithCallProfile. Validity never depends on the profile.
func ExampleWithProfile() {
	schema := json.RawMessage(`{"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"], "additionalProperties": false}`)
	ok := func(context.Context, json.RawMessage) (any, error) { return "ok", nil }
	for _, name := range []string{"excelmanus", "en"} {
		p, err := registry.ParseProfile(name)
		if err != nil {
			panic(err)
		}
		reg := registry.New(registry.WithProfile(p))
		_ = reg.Register(registry.Tool{Name: "t", InputSchema: schema, Func: ok})
		var v errorsjson.ValidationPayload
		_ = json.Unmarshal([]byte(reg.CallTool(context.Background(), "t", []byte(`{"n": "3", "x": 1}`)).Text), &v)
		fmt.Println(v.Message)
		fmt.Println(v.Violations)
	}
	// Output:
	// 工具参数与 schema 不匹配，请修正后重试。
	// [$.x: 非法字段（schema 未声明） $.n: 类型不匹配，期望 'integer'，实际 str]
	// The arguments do not match the tool's schema; fix them and retry.
	// [$: additional properties 'x' not allowed $.n: got string, want integer]
}

// With Strict, OpenAISchemas gives schemas for OpenAI strict function
// calling: every argument required, the optional ones nullable. A strict
// model then sends null for an argument it leaves out; WithNullAsOmitted
// takes such a null as the omission it means.
func ExampleStrict() {
	reg := registry.New()
	_ = reg.Register(registry.Tool{
		Name:        "greet",
		Description: "Greet someone.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"name": {"type": "string"}, "title": {"type": "string"}}, "required": ["name"], "additionalProperties": false}`),
		Func: func(_ context.Context, args json.RawMessage) (any, error) {
			var in struct{ Name, Title string }
			err := json.Unmarshal(args, &in)
			return "hello " + in.Title + in.Name, err
		},
	})
	schemas, _ := reg.OpenAISchemas(registry.ModeResponses, nil, registry.Strict())
	text, _ := pyjson.MarshalString(schemas[0])
	fmt.Println(text)
	fmt.Println(reg.CallTool(context.Background(), "greet", []byte(`{"name": "Ana", "title": null}`), registry.WithNullAsOmitted()).Text)
	// Output:
	// {"type": "function", "name": "greet", "description": "Greet someone.", "parameters": {"type": "object", "properties": {"name": {"type": "string"}, "title": {"type": ["string", "null"]}}, "required": ["name", "title"], "additionalProperties": false}, "strict": true}
	// hello Ana
}
