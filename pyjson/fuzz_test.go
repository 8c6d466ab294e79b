package pyjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
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
		v, err := pyjson.DecodeOrdered(data)
		if err != nil {
			return
		}
		first, err := pyjson.Marshal(v)
		require.NoError(t, err)
		second, err := pyjson.Marshal(v)
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
		v, err := pyjson.DecodeOrdered(data)
		if json.Valid(data) && !errors.Is(err, pyjson.ErrRecursion) {
			assert.NoError(t, err, "valid JSON refused: %q", data)
		}
		if !json.Valid(data) && err == nil {
			assert.Regexp(t, `NaN|Infinity`, string(data), "invalid JSON accepted: %q", data)
		}
		if err != nil {
			return
		}
		text, err := pyjson.Marshal(v)
		require.NoError(t, err)
		again, err := pyjson.DecodeOrdered(text)
		require.NoError(t, err, "own output refused: %q", text)
		text2, err := pyjson.Marshal(again)
		require.NoError(t, err)
		assert.Equal(t, string(text), string(text2))
	})
}

// FuzzAppendFloat: every float64 bit pattern encodes deterministically as
// text that json.loads reads back to the same float (NaN and Infinity as
// json.dumps spells them), in repr's notation: scientific exactly when the
// magnitude is below 1e-4 or at least 1e16, otherwise with a '.'.
func FuzzAppendFloat(f *testing.F) {
	for _, v := range []float64{0, math.Copysign(0, -1), 1e-5, 1e-4, 1e15, 1e16, 0.1 + 0.2, 5e-324, math.MaxFloat64, math.Inf(1), math.NaN()} {
		f.Add(math.Float64bits(v))
	}
	f.Fuzz(func(t *testing.T, bits uint64) {
		v := math.Float64frombits(bits)
		out := pyjson.AppendFloat(nil, v)
		require.Equal(t, out, pyjson.AppendFloat(nil, v), "not deterministic")
		back, err := pyjson.DecodeOrdered(out)
		require.NoError(t, err, "%q", out)
		var got float64
		switch b := back.(type) {
		case float64: // NaN and the infinities
			got = b
		case json.Number:
			got, err = b.Float64()
			require.NoError(t, err, "%q", out)
		default:
			t.Fatalf("%q decoded as %T", out, back)
		}
		if math.IsNaN(v) {
			require.True(t, math.IsNaN(got), "%q", out)
			return
		}
		require.Equal(t, bits, math.Float64bits(got), "%q does not round-trip", out)
		if math.IsInf(v, 0) {
			return
		}
		abs := math.Abs(v)
		sci := abs != 0 && (abs < 1e-4 || abs >= 1e16)
		require.Equal(t, sci, bytes.ContainsAny(out, "e"), "%q", out)
		require.True(t, sci || bytes.Contains(out, []byte(".")), "%q has no '.'", out)
	})
}

// FuzzAppendString: any Go string, valid UTF-8 or not, encodes as a JSON
// string literal that parses back; valid text comes back unchanged, and
// only '"', '\\' and U+0000-U+001F are escaped.
func FuzzAppendString(f *testing.F) {
	for _, s := range []string{"", "a\"b\\c", "\x00\x1f\x7f", "\u2028\u2029", "表😀", "\xe4\xb8", "\xff\xfe", "\xf0\x9f\x98x", "\xed\xa0\x80"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := pyjson.AppendString(nil, s)
		require.Equal(t, out, pyjson.AppendString(nil, s), "not deterministic")
		require.True(t, utf8.Valid(out), "output is not UTF-8: %q", out)
		var back string
		require.NoError(t, json.Unmarshal(out, &back), "%q", out)
		if utf8.ValidString(s) {
			require.Equal(t, s, back)
		} else {
			// Every invalid byte is covered by one U+FFFD at most.
			require.LessOrEqual(t, utf8.RuneCountInString(back), len(s))
			require.Contains(t, back, "\ufffd")
		}
		for _, c := range out[1 : len(out)-1] {
			require.GreaterOrEqual(t, c, byte(0x20), "raw control byte in %q", out)
		}
	})
}
