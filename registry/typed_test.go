package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

type fontIn struct {
	Bold  bool    `json:"bold,omitempty"`
	Size  float64 `json:"size,omitempty" enum:"10,10.5,12" jsonschema:"point size"`
	Color string  `json:"color,omitempty"`
}

type Align string

type formatIn struct {
	FilePath string   `json:"file_path" jsonschema:"workbook path"`
	Range    string   `json:"cell_range"`
	Level    int      `json:"level,omitempty" enum:"1,2,3"`
	Sheets   []string `json:"sheets,omitempty" enum:"S1,S2"`
	Font     *fontIn  `json:"font,omitempty" jsonschema:"font settings"`
	Align    Align    `json:"align,omitempty"`
	Strict   bool     `json:"strict,omitzero"`
	Skipped  string   `json:"-"`
	//lint:ignore U1000 an unexported field must stay out of the schema
	hidden int
}

// schemaOf decodes a tool's inferred schema.
func schemaOf(t *testing.T, tool registry.Tool) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(tool.InputSchema, &m))
	return m
}

func prop(m map[string]any, path ...string) map[string]any {
	for _, p := range path {
		m = m["properties"].(map[string]any)[p].(map[string]any)
	}
	return m
}

// TestTypedToolSchema: required fields, descriptions and enums come from
// the input struct's tags, nested structs and slices included.
func TestTypedToolSchema(t *testing.T) {
	alignSchema := &jsonschema.Schema{Type: "string", Enum: []any{"left", "center", "right"}}
	tool, err := registry.TypedTool(registry.Tool{Name: "format"}, func(context.Context, formatIn) (string, error) { return "ok", nil },
		registry.WithTypeSchema(reflect.TypeFor[Align](), alignSchema))
	require.NoError(t, err)
	s := schemaOf(t, tool)
	assert.Equal(t, "object", s["type"])
	assert.Equal(t, []any{"file_path", "cell_range"}, s["required"], "fields without omitempty/omitzero are required, in field order")
	assert.Equal(t, false, s["additionalProperties"])
	props := s["properties"].(map[string]any)
	assert.NotContains(t, props, "Skipped")
	assert.NotContains(t, props, "hidden")
	assert.Equal(t, "workbook path", prop(s, "file_path")["description"])
	assert.Equal(t, []any{1.0, 2.0, 3.0}, prop(s, "level")["enum"])
	assert.Equal(t, "integer", prop(s, "level")["type"])
	assert.Equal(t, []any{"S1", "S2"}, prop(s, "sheets")["items"].(map[string]any)["enum"], "a slice's enum applies to its items")
	assert.Equal(t, "font settings", prop(s, "font")["description"])
	assert.Equal(t, []any{10.0, 10.5, 12.0}, prop(s, "font", "size")["enum"], "nested struct tags apply")
	assert.Equal(t, "point size", prop(s, "font", "size")["description"])
	assert.Equal(t, []any{"left", "center", "right"}, prop(s, "align")["enum"], "WithTypeSchema for a named type")
}

// TestTypedToolCalls: valid arguments arrive decoded; the schema refuses
// missing required fields, values outside an enum and unknown fields before
// the function runs; results and errors become payloads as usual.
func TestTypedToolCalls(t *testing.T) {
	reg := registry.New()
	var got []formatIn
	require.NoError(t, registry.RegisterTyped(reg, registry.Tool{Name: "format", Description: "Format cells."},
		func(_ context.Context, in formatIn) (pyjson.Object, error) {
			got = append(got, in)
			if in.Range == "Z0" {
				return nil, errorsjson.Exception("KeyError", "'Z0'")
			}
			return pyjson.Object{{Key: "status", Value: "success"}, {Key: "range", Value: in.Range}}, nil
		}))
	require.NoError(t, registry.RegisterTyped(reg, registry.Tool{Name: "echo"},
		func(_ context.Context, in struct {
			Text string `json:"text"`
		}) (string, error) {
			return in.Text, nil
		}))
	ctx := context.Background()
	tests := []struct {
		name, tool, args string
		code             errorsjson.Code
		text             string
	}{
		{"valid", "format", `{"file_path": "a.xlsx", "cell_range": "A1", "level": 2, "font": {"bold": true, "size": 10.5}}`, "", `{"status": "success", "range": "A1"}`},
		{"required missing", "format", `{"cell_range": "A1"}`, errorsjson.CodeArgumentValidation, ""},
		{"enum refused", "format", `{"file_path": "a", "cell_range": "A1", "level": 4}`, errorsjson.CodeArgumentValidation, ""},
		{"nested enum refused", "format", `{"file_path": "a", "cell_range": "A1", "font": {"size": 11}}`, errorsjson.CodeArgumentValidation, ""},
		{"item enum refused", "format", `{"file_path": "a", "cell_range": "A1", "sheets": ["S3"]}`, errorsjson.CodeArgumentValidation, ""},
		{"unknown nested key refused", "format", `{"file_path": "a", "cell_range": "A1", "font": {"italic": true}}`, errorsjson.CodeArgumentValidation, ""},
		{"tool error", "format", `{"file_path": "a", "cell_range": "Z0"}`, errorsjson.CodeExecution, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "format", "exception": "KeyError", "message": "'Z0'"}`},
		{"string result is the text", "echo", `{"text": "已完成\n第二行"}`, "", "已完成\n第二行"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := len(got)
			res := reg.CallTool(ctx, tc.tool, []byte(tc.args))
			assert.Equal(t, tc.code, res.Code, res.Text)
			if tc.text != "" {
				assert.Equal(t, tc.text, res.Text)
			}
			if tc.code == errorsjson.CodeArgumentValidation {
				assert.Len(t, got, before, "the function never sees refused arguments")
			}
		})
	}
	require.NotEmpty(t, got)
	assert.Equal(t, formatIn{FilePath: "a.xlsx", Range: "A1", Level: 2, Font: &fontIn{Bold: true, Size: 10.5}}, got[0])

	res := reg.CallTool(ctx, "format", []byte(`{"file_path": "a", "cell_range": "A1", "font": {"italic": true}}`))
	var p errorsjson.ValidationPayload
	require.NoError(t, json.Unmarshal([]byte(res.Text), &p))
	assert.Equal(t, []string{"$.font.italic: 非法字段（schema 未声明）"}, p.Violations)
}

// TestTypedToolRefusals: inputs that cannot be a JSON object, bad enum tags
// and a preset schema or function are registration errors.
func TestTypedToolRefusals(t *testing.T) {
	_, err := registry.TypedTool(registry.Tool{Name: "n"}, func(context.Context, int) (int, error) { return 0, nil })
	assert.ErrorIs(t, err, registry.ErrInvalidTool)
	_, err = registry.TypedTool(registry.Tool{Name: "e"}, func(context.Context, struct {
		N int `json:"n" enum:"one"`
	}) (int, error) {
		return 0, nil
	})
	assert.ErrorIs(t, err, registry.ErrInvalidTool)
	assert.Contains(t, err.Error(), `enum value "one" is not an integer`)
	_, err = registry.TypedTool(registry.Tool{Name: "s", InputSchema: json.RawMessage(`{}`)}, func(context.Context, formatIn) (int, error) { return 0, nil })
	assert.ErrorIs(t, err, registry.ErrInvalidTool)
	_, err = registry.TypedTool[formatIn, int](registry.Tool{Name: "f"}, nil)
	assert.ErrorIs(t, err, registry.ErrInvalidTool)
	reg := registry.New()
	ok := func(context.Context, formatIn) (int, error) { return 0, nil }
	require.NoError(t, registry.RegisterTyped(reg, registry.Tool{Name: "dup"}, ok))
	assert.True(t, errors.Is(registry.RegisterTyped(reg, registry.Tool{Name: "dup"}, ok), registry.ErrDuplicate))
}
