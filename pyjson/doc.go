// Package pyjson encodes Go values byte-for-byte as CPython 3.11's
// json.dumps(obj, ensure_ascii=False) would, and decodes JSON keeping key
// order, so that a Python agent comparing tool results as strings sees
// what Python itself would have written.
//
// The registry never uses encoding/json for a result: separators are ", "
// and ": ", keys keep their insertion (Object) or struct field order, Go
// maps are written with sorted keys, non-ASCII text (U+2028/U+2029
// included) stays raw, only '"', '\\' and U+0000-U+001F are escaped,
// floats use Python's repr (NaN and Infinity as json.dumps spells them)
// and integers, *big.Int included, are exact. Structs follow
// encoding/json's field rules (json tags, "-", omitempty, omitzero,
// promoted embedded fields); json.Marshaler and encoding.TextMarshaler
// values are honoured; []byte, channels and funcs are refused with an
// UnsupportedValueError (Python's TypeError), as json.dumps refuses bytes.
// A typical success result:
//
//	text, _ := pyjson.MarshalString(pyjson.Object{
//		{Key: "status", Value: "success"},
//		{Key: "rows", Value: 12},
//	})
//
// The corpus under tests/vectors, written by Python itself, pins the
// encoding. DecodeOrdered is the inverse: json.loads' grammar (NaN and
// Infinity included) into Object, so re-encoding keeps key order.
//
// Go strings that are not valid UTF-8 cannot exist in Python; the encoder
// replaces each maximal ill-formed subpart with one U+FFFD, exactly as
// Python's bytes.decode("utf-8", "replace") does (the corpus pins this
// with byte strings decoded by Python itself).
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package pyjson
