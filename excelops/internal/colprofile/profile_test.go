package colprofile

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// toMap is res as the JSON object an agent decodes.
func toMap(t *testing.T, res any) map[string]any {
	t.Helper()
	text, err := pyjson.MarshalString(res)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &m))
	return m
}

// TestColumnProfile: what a column's entry says about the values fed to it.
func TestColumnProfile(t *testing.T) {
	cases := []struct {
		name   string
		values []any
		want   map[string]any
	}{
		{"numbers", []any{int64(3), 1.5, nil, int64(3)}, map[string]any{"type": "number", "non_empty": 3.0, "empty": 1.0, "unique": 2.0, "unique_ratio": 0.6667,
			"min": 1.5, "p25": 2.25, "median": 3.0, "p75": 3.0, "max": 3.0, "quantiles_from": "all 3 numbers",
			"outliers": map[string]any{"lower_fence": 1.125, "upper_fence": 4.125, "count": 0.0, "examples": []any{}}, "samples": []any{3.0, 1.5}}},
		{"text and numbers differ", []any{"1", int64(1)}, map[string]any{"type": "mixed", "non_empty": 2.0, "empty": 0.0, "unique": 2.0, "unique_ratio": 1.0,
			"min": 1.0, "p25": 1.0, "median": 1.0, "p75": 1.0, "max": 1.0, "quantiles_from": "the one number",
			"outliers": map[string]any{"lower_fence": 1.0, "upper_fence": 1.0, "count": 0.0, "examples": []any{}}, "samples": []any{"1", 1.0}}},
		{"booleans", []any{true, false, true}, map[string]any{"type": "boolean", "non_empty": 3.0, "empty": 0.0, "unique": 2.0, "unique_ratio": 0.6667, "samples": []any{true, false}}},
		{"empty", []any{nil, nil}, map[string]any{"type": "empty", "non_empty": 0.0, "empty": 2.0, "unique": 0.0, "unique_ratio": nil, "samples": []any{}}},
		{"three samples at most", []any{"a", "b", "c", "d"}, map[string]any{"type": "text", "non_empty": 4.0, "empty": 0.0, "unique": 4.0, "unique_ratio": 1.0, "samples": []any{"a", "b", "c"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := Profile{Name: "h"}
			for i, v := range c.values {
				p.Add(v, i+2)
			}
			got := toMap(t, p.Encode(2))
			want := map[string]any{"column": "B", "header": "h"}
			for k, v := range c.want {
				want[k] = v
			}
			assert.Equal(t, want, got)
		})
	}
}

// TestRowKey: two rows are duplicates when their keys are equal.
func TestRowKey(t *testing.T) {
	cases := []struct {
		name string
		a, b []any
		same bool
	}{
		{"trailing empties do not count", []any{"a", int64(1)}, []any{"a", int64(1), nil}, true},
		{"position counts", []any{nil, "a"}, []any{"a"}, false},
		{"kind counts", []any{"1"}, []any{int64(1)}, false},
		{"int and float of one number are one", []any{int64(2)}, []any{2.0}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.same, RowKey(c.a) == RowKey(c.b))
		})
	}
}
