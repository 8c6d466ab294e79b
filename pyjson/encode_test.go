package pyjson_test

import (
	"encoding/json"
	"math"
	"math/big"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

type embeddedBase struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

type withEmbedded struct {
	embeddedBase
	Name  string `json:"name"` // shallower: wins over embeddedBase.Name
	Extra bool   `json:"extra"`
}

type withNilEmbedded struct {
	*embeddedBase
	Own string `json:"own"`
}

type omitRules struct {
	EmptySlice []int          `json:"empty_slice,omitempty"`
	ZeroStruct struct{}       `json:"zero_struct,omitempty"`
	NilPtr     *int           `json:"nil_ptr,omitempty"`
	ZeroTime   time.Time      `json:"zero_time,omitzero"`
	Kept       []string       `json:"kept"`
	NilMap     map[string]int `json:"nil_map"`
}

type cyclic struct {
	Next *cyclic `json:"next"`
}

type marshalErr struct{}

func (marshalErr) MarshalJSON() ([]byte, error) { return nil, errorsjson.ErrInvalidArgument }

func TestMarshalCases(t *testing.T) {
	seven := 7
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"invalid UTF-8 becomes U+FFFD", "a\xffb\xc3", `"a` + "\ufffd" + `b` + "\ufffd" + `"`},
		{"map sorted", map[string]any{"b": 1, "a": []any{true, nil}}, `{"a": [true, null], "b": 1}`},
		{"typed map sorted", map[string]float64{"z": 1, "y": 0.5}, `{"y": 0.5, "z": 1.0}`},
		{"int keys become strings", map[int]string{10: "x", 2: "y"}, `{"10": "x", "2": "y"}`},
		{"nil map", map[string]int(nil), `{}`},
		{"json.Number int", json.Number("123456789012345678901234567890"), `123456789012345678901234567890`},
		{"json.Number float", json.Number("1E5"), `100000.0`},
		{"json.Number overflow", json.Number("1e400"), `Infinity`},
		{"raw message re-encoded in order", json.RawMessage(`{"z":1,"a":[1.0,"x"]}`), `{"z": 1, "a": [1.0, "x"]}`},
		{"nil pointer", (*int)(nil), `null`},
		{"pointer", &seven, `7`},
		{"nil big.Int", (*big.Int)(nil), `null`},
		{"big.Int value", *big.NewInt(-5), `-5`},
		{"nil []any", []any(nil), `[]`},
		{"nil []string", []string(nil), `[]`},
		{"typed nil slice", []int(nil), `[]`},
		{"array", [2]int8{-1, 2}, `[-1, 2]`},
		{"float32 as Python sees the double", float32(0.5), `0.5`},
		{"small ints", []any{int8(-8), uint16(16), uint(3)}, `[-8, 16, 3]`},
		{"embedded promoted", withEmbedded{embeddedBase: embeddedBase{ID: 1, Name: "inner"}, Name: "outer", Extra: true}, `{"id": 1, "name": "outer", "extra": true}`},
		{"nil embedded pointer skipped", withNilEmbedded{Own: "x"}, `{"own": "x"}`},
		{"omitempty and omitzero", omitRules{}, `{"zero_struct": {}, "kept": [], "nil_map": {}}`},
		{"json.Marshaler", time.Date(2024, 6, 1, 12, 0, 0, 0, time.UTC), `"2024-06-01T12:00:00Z"`},
		{"TextMarshaler", netip.MustParseAddr("127.0.0.1"), `"127.0.0.1"`},
		{"Object keeps order", pyjson.Object{{Key: "z", Value: 1}, {Key: "a", Value: pyjson.Object{}}}, `{"z": 1, "a": {}}`},
		{"interface slice of structs", []any{embeddedBase{ID: 2}}, `[{"id": 2, "name": ""}]`},
		{"NaN", math.NaN(), `NaN`},
		{"code type", errorsjson.CodeTimeout, `"TOOL_TIMEOUT"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pyjson.Marshal(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, string(got))
		})
	}
}

func TestMarshalErrors(t *testing.T) {
	loop := &cyclic{}
	loop.Next = loop
	tests := []struct {
		name   string
		in     any
		target any
	}{
		{"channel", make(chan int), new(*pyjson.UnsupportedValueError)},
		{"func", func() {}, new(*pyjson.UnsupportedValueError)},
		{"bytes like Python", []byte("x"), new(*pyjson.UnsupportedValueError)},
		{"bool map keys", map[bool]int{true: 1}, new(*pyjson.UnsupportedValueError)},
		{"complex", complex(1, 2), new(*pyjson.UnsupportedValueError)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := pyjson.Marshal(tc.in)
			require.Error(t, err)
			assert.ErrorAs(t, err, tc.target)
			assert.Equal(t, "TypeError", errorsjson.ExceptionName(err))
		})
	}
	t.Run("cycle hits the recursion limit", func(t *testing.T) {
		_, err := pyjson.Marshal(loop)
		assert.ErrorIs(t, err, pyjson.ErrRecursion)
	})
	t.Run("marshaler error is returned", func(t *testing.T) {
		_, err := pyjson.Marshal(marshalErr{})
		assert.ErrorIs(t, err, errorsjson.ErrInvalidArgument)
	})
	t.Run("invalid json.Number", func(t *testing.T) {
		_, err := pyjson.Marshal(json.Number("12abc"))
		assert.Error(t, err)
	})
}

func TestAppend(t *testing.T) {
	got, err := pyjson.Append([]byte("x="), []any{1, "二"})
	require.NoError(t, err)
	assert.Equal(t, `x=[1, "二"]`, string(got))
	s, err := pyjson.MarshalString(pyjson.Object{{Key: "k", Value: 1.0}})
	require.NoError(t, err)
	assert.Equal(t, `{"k": 1.0}`, s)
}

func TestObject(t *testing.T) {
	o := pyjson.Object{{Key: "a", Value: 1}}
	o = o.Set("b", 2).Set("a", 3)
	assert.Equal(t, pyjson.Object{{Key: "a", Value: 3}, {Key: "b", Value: 2}}, o)
	v, ok := o.Get("b")
	assert.True(t, ok)
	assert.Equal(t, 2, v)
	_, ok = o.Get("zz")
	assert.False(t, ok)
	o = o.Delete("a").Delete("missing")
	assert.Equal(t, pyjson.Object{{Key: "b", Value: 2}}, o)
}

func TestDecodeOrdered(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string // re-encoded; "" means an error is expected
	}{
		{"order kept", `{"b":1,"a":{"d":[],"c":null}}`, `{"b": 1, "a": {"d": [], "c": null}}`},
		{"duplicate keeps first position, last value", `{"a":1,"b":2,"a":3}`, `{"a": 3, "b": 2}`},
		{"numbers", `[0,-0,1.0,1e16,12345678901234567890123]`, `[0, 0, 1.0, 1e+16, 12345678901234567890123]`},
		{"escapes", `"\u00e9\n\ud83d\ude00"`, `"é\n😀"`},
		{"whitespace", " \t\n[ 1 , 2 ]\r\n", `[1, 2]`},
		{"extra data", `{} {}`, ""},
		{"truncated", `{"a":`, ""},
		{"not JSON", `{a:1}`, ""},
		{"empty", ``, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			v, err := pyjson.DecodeOrdered([]byte(tc.in))
			if tc.want == "" {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			got, err := pyjson.MarshalString(v)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}
