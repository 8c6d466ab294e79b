package registry

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// TestResultText pins how a tool's return value becomes text in each
// profile: a string is itself, raw JSON is its bytes (compact JSON
// re-spaced only in excelmanus), anything else is json.dumps of it.
func TestResultText(t *testing.T) {
	tests := []struct {
		name       string
		value      any
		excelmanus string
		en         string
	}{
		{"string is the text", "done\n\"quoted\" 😀", "done\n\"quoted\" 😀", "done\n\"quoted\" 😀"},
		{"JSON-looking string stays as is", `{"a":1}`, `{"a":1}`, `{"a":1}`},
		{"invalid UTF-8 string as errorsjson writes it", "a\xffb\xe4\xb8", "a\ufffdb\ufffd", "a\ufffdb\ufffd"},
		{"compact raw re-spaced, strings untouched", json.RawMessage(`{"a":[1,2.50,"x, y: z"],"b":"q\":,"}`), `{"a": [1, 2.50, "x, y: z"], "b": "q\":,"}`, `{"a":[1,2.50,"x, y: z"],"b":"q\":,"}`},
		{"raw escapes and numbers kept", json.RawMessage(`["\u00e9",1E3]`), `["\u00e9", 1E3]`, `["\u00e9",1E3]`},
		{"non-compact raw unchanged", json.RawMessage("{\"a\": 1,\n \"b\":2}"), "{\"a\": 1,\n \"b\":2}", "{\"a\": 1,\n \"b\":2}"},
		{"scalar raw", json.RawMessage(`42`), `42`, `42`},
		// What the spreadsheet tools return: objects with raw rows inside,
		// encoded exactly as before in both profiles.
		{"object with nested raw rows", pyjson.Object{{Key: "status", Value: "success"}, {Key: "rows", Value: []any{json.RawMessage(`[1,"a",null]`)}}},
			`{"status": "success", "rows": [[1, "a", null]]}`, `{"status": "success", "rows": [[1, "a", null]]}`},
		{"struct", struct {
			Status string  `json:"status"`
			N      float64 `json:"n"`
		}{"success", 1}, `{"status": "success", "n": 1.0}`, `{"status": "success", "n": 1.0}`},
		{"nil", nil, "null", "null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := resultText(tc.value, ProfileExcelmanus.texts())
			require.NoError(t, err)
			assert.Equal(t, tc.excelmanus, got)
			got, err = resultText(tc.value, ProfileEnglish.texts())
			require.NoError(t, err)
			assert.Equal(t, tc.en, got)
			if _, isText := tc.value.(string); !isText {
				if _, isRaw := tc.value.(json.RawMessage); !isRaw {
					want, err := pyjson.MarshalString(tc.value)
					require.NoError(t, err)
					assert.Equal(t, want, got, "other values: errorsjson as before")
				}
			}
		})
	}
	_, err := resultText(json.RawMessage(`{"a":`), ProfileExcelmanus.texts())
	assert.Equal(t, "ValueError", errorsjson.ExceptionName(err))
}
