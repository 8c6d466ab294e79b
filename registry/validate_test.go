package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// TestViolationPaths: instance paths come from the instance, so an array
// index, an object key that looks like one and a key that needs quoting
// each read back unambiguously.
func TestViolationPaths(t *testing.T) {
	schema := `{"type": "object", "properties": {
	  "a": {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "integer"}}}},
	  "m": {"type": "object", "additionalProperties": {"type": "integer"}},
	  "rows": {"type": "array", "items": {"type": "array", "items": {"type": "string", "maxLength": 2}}}
	}}`
	e, err := compileEntry(Tool{Name: "t", InputSchema: json.RawMessage(schema), Func: func(context.Context, json.RawMessage) (any, error) { return nil, nil }})
	require.NoError(t, err)
	tests := []struct {
		name string
		args string
		want []string
	}{
		{"array index", `{"a": {"b": [1, 2, "three"]}}`, []string{"$.a.b[2]: got string, want integer"}},
		{"numeric object key is a key", `{"m": {"2": "x"}}`, []string{"$.m.2: got string, want integer"}},
		{"dotted key is bracketed", `{"m": {"a.b": "x"}}`, []string{"$.m['a.b']: got string, want integer"}},
		{"quote and backslash escaped", `{"m": {"it's\\": "x"}}`, []string{`$.m['it\'s\\']: got string, want integer`}},
		{"empty key is bracketed", `{"m": {"": "x"}}`, []string{"$.m['']: got string, want integer"}},
		{"CJK key stays plain", `{"m": {"工作表": "x"}}`, []string{"$.m.工作表: got string, want integer"}},
		{"nested arrays, code points", `{"rows": [["ab"], ["ok", "表格😀"]]}`, []string{"$.rows[1][1]: maxLength: got 3, want 2"}},
		{"indices sort numerically", `{"a": {"b": [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "10", "2"]}}`, []string{"$.a.b[10]: got string, want integer", "$.a.b[11]: got string, want integer"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.args))
			require.NoError(t, err)
			got, _ := englishViolations(e.doc, e.schema.Validate(inst), inst)
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestValidationPayloadClipsQuotedValues: a huge argument quoted by a
// violation message (en's pattern text) does not come back whole in the
// payload.
func TestValidationPayloadClipsQuotedValues(t *testing.T) {
	reg := New(WithProfile(ProfileEnglish))
	require.NoError(t, reg.Register(Tool{
		Name:        "p",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"s": {"type": "string", "pattern": "^[a-z]+$"}}}`),
		Func:        func(context.Context, json.RawMessage) (any, error) { return "ok", nil },
	}))
	huge := strings.Repeat("数", 200_000) + "!"
	args, err := json.Marshal(map[string]string{"s": huge})
	require.NoError(t, err)
	res := reg.CallTool(context.Background(), "p", args)
	require.True(t, res.IsError)
	assert.Equal(t, errorsjson.CodeArgumentValidation, res.Code)
	var p errorsjson.ValidationPayload
	require.NoError(t, json.Unmarshal([]byte(res.Text), &p))
	require.Len(t, p.Violations, 1)
	assert.True(t, strings.HasPrefix(p.Violations[0], "$.s: "), p.Violations[0])
	assert.Equal(t, maxViolationChars, utf8.RuneCountInString(p.Violations[0]))
	assert.True(t, strings.HasSuffix(p.Violations[0], "…"))
	assert.Less(t, len(res.Text), 4000, "the payload stays small")
}

// validatorAccepts is the full validator's verdict on args (a JSON object).
func validatorAccepts(t testing.TB, e *entry, args []byte) bool {
	t.Helper()
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	require.NoError(t, err, "%q", args)
	_, isObject := inst.(map[string]any)
	require.True(t, isObject, "%q", args)
	return e.schema.Validate(inst) == nil
}
