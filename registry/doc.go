// Package registry holds the tools of registry-sidecar and calls them.
//
// A Registry maps tool names to Tools (a JSON Schema and a Go function).
// CallTool runs one call end to end and always answers with a Result: an
// unknown tool, arguments that fail the schema, a tool error, a panic, a
// timeout or a cancellation all come back as a payload encoded by
// errorsjson, never as a Go error or a panic. Go programs use it directly:
//
//	reg := registry.New(registry.WithLogger(log))
//	if err := reg.Register(registry.Tool{Name: "add", InputSchema: schema, Func: add}); err != nil {
//		return err
//	}
//	res := reg.CallTool(ctx, "add", []byte(`{"a": 1, "b": 2}`))
//	fmt.Println(res.Text, res.IsError)
package registry
