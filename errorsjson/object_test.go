package errorsjson_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// TestObjectUnmarshalJSON: a payload holding an Object decodes with
// encoding/json, keeping key order; a non-object is refused.
func TestObjectUnmarshalJSON(t *testing.T) {
	var p errorsjson.ValidationPayload
	text := `{"status": "error", "nested_accepted_fields": {"$.z": ["b", "a"], "$.a": []}}`
	require.NoError(t, json.Unmarshal([]byte(text), &p))
	assert.Equal(t, errorsjson.Object{{Key: "$.z", Value: []any{"b", "a"}}, {Key: "$.a", Value: []any{}}}, p.NestedAcceptedFields)
	var o errorsjson.Object
	assert.ErrorIs(t, json.Unmarshal([]byte(`[1]`), &o), errorsjson.ErrSyntax)
	assert.Error(t, json.Unmarshal([]byte(`{"a": }`), &o))
}
