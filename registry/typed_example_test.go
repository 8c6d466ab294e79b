package registry_test

import (
	"context"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// WriteCellIn is a typed tool's input: its JSON Schema is inferred from the
// struct (json names, omitempty = optional, jsonschema = description,
// enum = allowed values).
type WriteCellIn struct {
	FilePath string `json:"file_path" jsonschema:"workbook path inside the workspace"`
	Cell     string `json:"cell" jsonschema:"A1-style address"`
	Value    string `json:"value"`
	Mode     string `json:"mode,omitempty" enum:"replace,append" jsonschema:"how to combine with the old value"`
}

// WriteCellOut is what the tool returns; it is encoded like any result.
type WriteCellOut struct {
	Status string `json:"status"`
	Cell   string `json:"cell"`
	Mode   string `json:"mode"`
}

// RegisterTyped registers a tool from a typed Go function: the input schema
// comes from the input struct, the arguments arrive decoded, and a
// validation failure never reaches the function.
func ExampleRegisterTyped() {
	reg := registry.New()
	err := registry.RegisterTyped(reg, registry.Tool{Name: "write_cell", Description: "Write one cell."},
		func(_ context.Context, in WriteCellIn) (WriteCellOut, error) {
			mode := in.Mode
			if mode == "" {
				mode = "replace"
			}
			return WriteCellOut{Status: "success", Cell: in.Cell, Mode: mode}, nil
		})
	fmt.Println(err)
	tool, _ := reg.Tool("write_cell")
	fmt.Println(string(tool.InputSchema))
	ctx := context.Background()
	fmt.Println(reg.CallTool(ctx, "write_cell", []byte(`{"file_path": "a.xlsx", "cell": "B2", "value": "x"}`)).Text)
	fmt.Println(reg.CallTool(ctx, "write_cell", []byte(`{"file_path": "a.xlsx", "cell": "B2", "mode": "merge"}`)).Text)
	// Output:
	// <nil>
	// {"type": "object", "properties": {"file_path": {"type": "string", "description": "workbook path inside the workspace"}, "cell": {"type": "string", "description": "A1-style address"}, "value": {"type": "string"}, "mode": {"type": "string", "enum": ["replace", "append"], "description": "how to combine with the old value"}}, "required": ["file_path", "cell", "value"], "additionalProperties": false}
	// {"status": "success", "cell": "B2", "mode": "replace"}
	// {"status": "error", "error_code": "TOOL_ARGUMENT_VALIDATION_ERROR", "tool": "write_cell", "message": "工具参数与 schema 不匹配，请修正后重试。", "detail": "$.value: 缺少必填字段; $.mode: 不在允许枚举中，当前值 'merge'", "violations": ["$.value: 缺少必填字段", "$.mode: 不在允许枚举中，当前值 'merge'"], "required_fields": ["file_path", "cell", "value"], "accepted_fields": ["cell", "file_path", "mode", "value"], "provided_fields": ["cell", "file_path", "mode"]}
}
