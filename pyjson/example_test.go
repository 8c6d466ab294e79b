package pyjson_test

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// Marshal writes what Python's json.dumps(value, ensure_ascii=False) writes:
// ", " and ": " separators, key order kept, non-ASCII raw, floats as repr.
func ExampleMarshal() {
	v := pyjson.Object{
		{Key: "status", Value: "success"},
		{Key: "sheet", Value: "销售"},
		{Key: "values", Value: []any{1, 1.0, 1e16, 0.0001, 1e-05, nil, true}},
	}
	text, err := pyjson.Marshal(v)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))
	// Output: {"status": "success", "sheet": "销售", "values": [1, 1.0, 1e+16, 0.0001, 1e-05, null, true]}
}
