package errorsjson_test

import (
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// FuzzMarshal feeds JSON documents through DecodeOrdered and Marshal: the
// encoding is deterministic, parses back with encoding/json, and decodes to
// the same value the input did.
func FuzzMarshal(f *testing.F) {
	for _, tc := range loadVectors(f) {
		f.Add([]byte(tc.Expected))
	}
	f.Add([]byte(`{"a": [1, 2.5, "\u2028"], "b": {"c": null}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := errorsjson.DecodeOrdered(data)
		if err != nil {
			return
		}
		first, err := errorsjson.Marshal(v)
		require.NoError(t, err)
		second, err := errorsjson.Marshal(v)
		require.NoError(t, err)
		require.Equal(t, first, second, "not deterministic")
		var want, got any
		if json.Unmarshal(data, &want) != nil {
			// NaN/Infinity literals or a number past float64: Python
			// accepts both (the latter as inf); encoding/json does not.
			return
		}
		require.True(t, json.Valid(first), "output does not parse: %q", first)
		require.NoError(t, json.Unmarshal(first, &got))
		if !equalJSON(want, got) {
			t.Fatalf("round trip changed the value:\n in: %q\nout: %q", data, first)
		}
	})
}

// equalJSON compares decoded JSON values, treating floats that overflowed
// to Infinity on one side as equal to the same overflow on the other.
func equalJSON(a, b any) bool {
	fa, okA := a.(float64)
	fb, okB := b.(float64)
	if okA && okB {
		return fa == fb || (math.IsNaN(fa) && math.IsNaN(fb))
	}
	return reflect.DeepEqual(a, b)
}

// FuzzDecodeOrdered never panics, agrees with encoding/json on validity,
// and re-encoding its result is a fixed point.
func FuzzDecodeOrdered(f *testing.F) {
	f.Add([]byte(`{"b":1,"a":[true,false,null,"x\u0000"]}`))
	f.Add([]byte(`[1e400, -0, 0.1]`))
	f.Add([]byte(`{"a":1,"a":2}`))
	f.Add([]byte(`"\ud800"`))
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := errorsjson.DecodeOrdered(data)
		if json.Valid(data) && !errors.Is(err, errorsjson.ErrRecursion) {
			assert.NoError(t, err, "valid JSON refused: %q", data)
		}
		if !json.Valid(data) && err == nil {
			assert.Regexp(t, `NaN|Infinity`, string(data), "invalid JSON accepted: %q", data)
		}
		if err != nil {
			return
		}
		text, err := errorsjson.Marshal(v)
		require.NoError(t, err)
		again, err := errorsjson.DecodeOrdered(text)
		require.NoError(t, err, "own output refused: %q", text)
		text2, err := errorsjson.Marshal(again)
		require.NoError(t, err)
		assert.Equal(t, string(text), string(text2))
	})
}
