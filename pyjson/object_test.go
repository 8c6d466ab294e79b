package pyjson_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// TestObjectUnmarshalJSON: a payload holding an Object decodes with
// encoding/json, keeping key order; a non-object is refused.
func TestObjectUnmarshalJSON(t *testing.T) {
	var p errorsjson.ValidationPayload
	text := `{"status": "error", "nested_accepted_fields": {"$.z": ["b", "a"], "$.a": []}}`
	require.NoError(t, json.Unmarshal([]byte(text), &p))
	assert.Equal(t, pyjson.Object{{Key: "$.z", Value: []any{"b", "a"}}, {Key: "$.a", Value: []any{}}}, p.NestedAcceptedFields)
	var o pyjson.Object
	assert.ErrorIs(t, json.Unmarshal([]byte(`[1]`), &o), pyjson.ErrSyntax)
	assert.Error(t, json.Unmarshal([]byte(`{"a": }`), &o))
}
