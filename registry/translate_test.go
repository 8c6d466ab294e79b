package registry_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// TestExcelmanusOutsideSubset: keywords excelmanus's walk does not know
// are still enforced by the full validator and worded in the same style
// (Chinese, "{path}: ..."), after the walk's own violations and never
// repeating them.
func TestExcelmanusOutsideSubset(t *testing.T) {
	tests := []struct {
		name, schema, args string
		want               []string
	}{
		{"const", `{"properties": {"v": {"const": "x"}}}`, `{"v": "y"}`, []string{"$.v: 必须等于 'x'，当前值 'y'"}},
		{"anyOf", `{"properties": {"v": {"anyOf": [{"type": "string"}, {"type": "integer"}]}}}`, `{"v": 1.5}`, []string{"$.v: 必须至少匹配 anyOf 的 1 个分支"}},
		{"not", `{"properties": {"v": {"not": {"type": "string"}}}}`, `{"v": "s"}`, []string{"$.v: 不能匹配 not 指定的 schema"}},
		{"exclusive bounds and multipleOf", `{"properties": {"a": {"exclusiveMinimum": 0}, "b": {"exclusiveMaximum": 2.5}, "c": {"multipleOf": 0.5}}}`, `{"a": 0, "b": 2.5, "c": 0.7}`,
			[]string{"$.a: 必须大于 0", "$.b: 必须小于 2.5", "$.c: 必须是 0.5 的倍数"}},
		{"uniqueItems", `{"properties": {"v": {"uniqueItems": true}}}`, `{"v": [1, 2, 1]}`, []string{"$.v: 列表项不能重复（第 0 项与第 2 项相同）"}},
		{"min and max properties", `{"properties": {"o": {"minProperties": 2}, "p": {"maxProperties": 1}}}`, `{"o": {"a": 1}, "p": {"a": 1, "b": 2}}`,
			[]string{"$.o: 字段数不能小于 2", "$.p: 字段数不能超过 1"}},
		{"dependentRequired", `{"dependentRequired": {"start": ["end"]}}`, `{"start": 1}`, []string{"$.end: 缺少必填字段（提供 'start' 时必填）"}},
		{"additionalProperties false without properties", `{"additionalProperties": false}`, `{"b": 1, "a": 2}`,
			[]string{"$.a: 非法字段（schema 未声明）", "$.b: 非法字段（schema 未声明）"}},
		{"additionalProperties schema", `{"properties": {"a": {}}, "additionalProperties": {"type": "integer"}}`, `{"a": "x", "m": "y"}`,
			[]string{"$.m: 类型不匹配，期望 'integer'，实际 str"}},
		{"behind $ref", `{"$defs": {"pos": {"type": "integer", "minimum": 1}}, "properties": {"row": {"$ref": "#/$defs/pos"}}}`, `{"row": 0}`, []string{"$.row: 不能小于 1"}},
		{"behind allOf, after the walk's own", `{"properties": {"a": {"type": "string"}, "b": {"allOf": [{"maxLength": 2}]}}}`, `{"b": "long", "a": 1}`,
			[]string{"$.a: 类型不匹配，期望 'string'，实际 int", "$.b: 长度不能超过 2"}},
		{"prefixItems", `{"properties": {"p": {"prefixItems": [{"type": "string"}], "items": false}}}`, `{"p": [1, 2]}`,
			[]string{"$.p[0]: 类型不匹配，期望 'string'，实际 int", "$.p[1]: 列表不允许这一项（schema 为 false）"}},
		{"false property", `{"properties": {"legacy": false}}`, `{"legacy": 1}`, []string{"$.legacy: 不允许此字段（schema 为 false）"}},
		{"JSON Schema's enum: true is not 1", `{"properties": {"v": {"enum": [1, 2]}}}`, `{"v": true}`, []string{"$.v: 不在允许枚举中，当前值 True"}},
		{"if/then", `{"if": {"properties": {"kind": {"const": "range"}}}, "then": {"required": ["cell_range"]}}`, `{"kind": "range"}`, []string{"$.cell_range: 缺少必填字段"}},
		{"walk stops at a failed type: no repeats below", `{"properties": {"o": {"type": "string", "properties": {"x": {"type": "integer"}}}}}`, `{"o": {"x": "s"}}`,
			[]string{"$.o: 类型不匹配，期望 'string'，实际 dict"}},
		{"walk stops at oneOf: branch findings stay out", `{"properties": {"o": {"oneOf": [{"type": "string"}, {"type": "object", "required": ["a"]}]}}}`, `{"o": {}}`,
			[]string{"$.o: 必须匹配 oneOf 的 1 个分支，当前匹配 0 个"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registry.New()
			require.NoError(t, reg.Register(registry.Tool{Name: "t", InputSchema: json.RawMessage(tc.schema),
				Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }}))
			res := reg.CallTool(context.Background(), "t", []byte(tc.args))
			require.Equal(t, errorsjson.CodeArgumentValidation, res.Code, res.Text)
			var p errorsjson.ValidationPayload
			require.NoError(t, json.Unmarshal([]byte(res.Text), &p))
			assert.Equal(t, tc.want, p.Violations)
			assert.Equal(t, "工具参数与 schema 不匹配，请修正后重试。", p.Message)
		})
	}
}

// TestProfilesDecideAlike: validity is the validator's in every profile;
// where Python's rules and JSON Schema's differ (5.0 is an integer to
// JSON Schema, a float to Python) the call is accepted in both.
func TestProfilesDecideAlike(t *testing.T) {
	for _, p := range registry.Profiles() {
		reg := registry.New(registry.WithProfile(p))
		require.NoError(t, reg.Register(registry.Tool{Name: "t", InputSchema: json.RawMessage(`{"properties": {"n": {"type": "integer"}}}`),
			Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }}))
		res := reg.CallTool(context.Background(), "t", []byte(`{"n": 5.0}`))
		assert.Equal(t, "ok", res.Text, p)
		assert.Equal(t, p, reg.Profile())
	}
}

// TestParseProfile: names, case and spaces; unknown names are refused.
func TestParseProfile(t *testing.T) {
	for in, want := range map[string]registry.Profile{"excelmanus": registry.ProfileExcelmanus, " EN ": registry.ProfileEnglish, "en": registry.ProfileEnglish} {
		got, err := registry.ParseProfile(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	_, err := registry.ParseProfile("fr")
	assert.ErrorIs(t, err, registry.ErrUnknownProfile)
	assert.Equal(t, registry.DefaultProfile, registry.New().Profile())
}

// TestExcelmanusTooDeep: arguments the validator refuses but json.loads
// could not even parse (nesting past 1000) get one clear violation.
func TestExcelmanusTooDeep(t *testing.T) {
	reg := registry.New()
	require.NoError(t, reg.Register(registry.Tool{Name: "t", InputSchema: json.RawMessage(`{"properties": {"v": {"type": "string"}}}`),
		Func: func(context.Context, json.RawMessage) (any, error) { return "ok", nil }}))
	deep := `{"v": ` + strings.Repeat("[", 1100) + strings.Repeat("]", 1100) + `}`
	res := reg.CallTool(context.Background(), "t", []byte(deep))
	require.Equal(t, errorsjson.CodeArgumentValidation, res.Code, res.Text)
	var p errorsjson.ValidationPayload
	require.NoError(t, json.Unmarshal([]byte(res.Text), &p))
	require.Len(t, p.Violations, 1)
	assert.True(t, strings.HasPrefix(p.Violations[0], "$: 参数无法按 JSON 解析（"), p.Violations[0])
}
