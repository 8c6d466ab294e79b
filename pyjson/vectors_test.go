package pyjson_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// vectorsFile is the corpus tests/vectors/generate.py writes from CPython's
// json.dumps(value, ensure_ascii=False).
var vectorsFile = filepath.Join("..", "tests", "vectors", "encode.json")

// minVectors is the least number of golden vectors the corpus must hold.
const minVectors = 200

type vectorCase struct {
	Name     string          `json:"name"`
	Value    json.RawMessage `json:"value"`
	Expected string          `json:"expected"`
}

// vecInner and vecTagged are the Go structs the corpus names: field order,
// json tags, "-", omitempty, an untagged and an unexported field.
type vecInner struct {
	X float64  `json:"x"`
	Y []string `json:"y"`
}

type vecTagged struct {
	Name     string    `json:"name"`
	Count    int       `json:"count"`
	Ratio    float64   `json:"ratio"`
	Tags     []string  `json:"tags"`
	Skip     string    `json:"-"`
	Note     string    `json:"note,omitempty"`
	Untagged bool      // encodes under its Go name, as encoding/json does
	Nested   *vecInner `json:"nested"`
	hidden   int
}

func loadVectors(t testing.TB) []vectorCase {
	t.Helper()
	data, err := os.ReadFile(vectorsFile)
	require.NoError(t, err, "run `make golden` to create the corpus")
	var doc struct {
		Cases []vectorCase `json:"cases"`
	}
	require.NoError(t, json.Unmarshal(data, &doc))
	return doc.Cases
}

// TestVectors rebuilds every corpus value with Go types and requires the
// encoder to write exactly the bytes CPython wrote.
func TestVectors(t *testing.T) {
	cases := loadVectors(t)
	require.GreaterOrEqual(t, len(cases), minVectors)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			v, err := rebuild(tc.Value)
			require.NoError(t, err)
			got, err := pyjson.Marshal(v)
			require.NoError(t, err)
			assert.Equal(t, tc.Expected, string(got))
		})
	}
}

// rebuild turns the typed form of generate.py into a Go value.
func rebuild(raw json.RawMessage) (any, error) {
	var node [2]json.RawMessage
	if err := json.Unmarshal(raw, &node); err != nil {
		return nil, err
	}
	var kind string
	if err := json.Unmarshal(node[0], &kind); err != nil {
		return nil, err
	}
	switch kind {
	case "null":
		return nil, nil
	case "bool":
		var b bool
		err := json.Unmarshal(node[1], &b)
		return b, err
	case "str":
		var s string
		err := json.Unmarshal(node[1], &s)
		return s, err
	case "bytes":
		var h string
		if err := json.Unmarshal(node[1], &h); err != nil {
			return nil, err
		}
		b, err := hex.DecodeString(h)
		return string(b), err
	case "int":
		var s string
		if err := json.Unmarshal(node[1], &s); err != nil {
			return nil, err
		}
		return rebuildInt(s)
	case "float":
		var s string
		if err := json.Unmarshal(node[1], &s); err != nil {
			return nil, err
		}
		return strconv.ParseFloat(s, 64)
	case "list":
		var items []json.RawMessage
		if err := json.Unmarshal(node[1], &items); err != nil {
			return nil, err
		}
		out := make([]any, 0, len(items))
		for _, it := range items {
			v, err := rebuild(it)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case "obj":
		return rebuildObject(node[1])
	case "struct":
		var named [2]json.RawMessage
		if err := json.Unmarshal(node[1], &named); err != nil {
			return nil, err
		}
		var name string
		if err := json.Unmarshal(named[0], &name); err != nil {
			return nil, err
		}
		fields, err := rebuildObject(named[1])
		if err != nil {
			return nil, err
		}
		return rebuildStruct(name, fields)
	}
	return nil, fmt.Errorf("unknown kind %q", kind)
}

// rebuildInt picks the narrowest Go type: int64, then uint64, then *big.Int.
func rebuildInt(s string) (any, error) {
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i, nil
	}
	if u, err := strconv.ParseUint(s, 10, 64); err == nil {
		return u, nil
	}
	b, ok := new(big.Int).SetString(s, 10)
	if !ok {
		return nil, fmt.Errorf("bad int %q", s)
	}
	return b, nil
}

func rebuildObject(raw json.RawMessage) (pyjson.Object, error) {
	var pairs [][2]json.RawMessage
	if err := json.Unmarshal(raw, &pairs); err != nil {
		return nil, err
	}
	obj := pyjson.Object{}
	for _, p := range pairs {
		var key string
		if err := json.Unmarshal(p[0], &key); err != nil {
			return nil, err
		}
		v, err := rebuild(p[1])
		if err != nil {
			return nil, err
		}
		obj = append(obj, pyjson.Field{Key: key, Value: v})
	}
	return obj, nil
}

func rebuildStruct(name string, f pyjson.Object) (any, error) {
	str := func(k string) string { v, _ := f.Get(k); s, _ := v.(string); return s }
	switch name {
	case "ErrorPayload":
		return errorsjson.ErrorPayload{
			Status: str("status"), ErrorCode: errorsjson.Code(str("error_code")), Tool: str("tool"),
			Exception: str("exception"), Message: str("message"), Cause: optStr(f, "cause"),
		}, nil
	case "Inner":
		return rebuildInner(f), nil
	case "Tagged":
		count, _ := f.Get("count")
		ratio, _ := f.Get("ratio")
		untagged, _ := f.Get("Untagged")
		nested, _ := f.Get("nested")
		inner, ok := nested.(vecInner)
		if !ok {
			return nil, fmt.Errorf("Tagged.nested is %T", nested)
		}
		tags, _ := f.Get("tags")
		return vecTagged{
			Name: str("name"), Count: int(count.(int64)), Ratio: ratio.(float64),
			Tags: strings(tags), Skip: "never encoded", Note: str("note"),
			Untagged: untagged.(bool), Nested: &inner, hidden: 7,
		}, nil
	}
	return nil, fmt.Errorf("unknown struct %q", name)
}

func rebuildInner(f pyjson.Object) vecInner {
	x, _ := f.Get("x")
	y, _ := f.Get("y")
	return vecInner{X: x.(float64), Y: strings(y)}
}

// strings converts a rebuilt list to []string; an empty list stays a nil
// slice, which the encoder must write as [] (Python has no None list).
func strings(v any) []string {
	items, _ := v.([]any)
	var out []string
	for _, it := range items {
		out = append(out, it.(string))
	}
	return out
}

// optStr returns a pointer to f[k] when present, nil otherwise.
func optStr(f pyjson.Object, k string) *string {
	v, ok := f.Get(k)
	if !ok {
		return nil
	}
	s, _ := v.(string)
	return &s
}
