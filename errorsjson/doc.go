// Package errorsjson holds the uniform tool payloads of registry-sidecar and
// an encoder that writes them byte-for-byte as CPython 3.11's
// json.dumps(obj, ensure_ascii=False) would.
//
// Python agents compare tool results as strings, so the registry never uses
// encoding/json for a payload: separators are ", " and ": ", keys keep their
// insertion (Object) or struct field order, Go maps are written with sorted
// keys, non-ASCII text (U+2028/U+2029 included) stays raw, only '"', '\\'
// and U+0000-U+001F are escaped, floats use Python's repr (NaN and
// Infinity as json.dumps spells them) and integers, *big.Int included, are
// exact. Structs follow encoding/json's field rules (json tags, "-",
// omitempty, omitzero, promoted embedded fields); json.Marshaler and
// encoding.TextMarshaler values are honoured; []byte, channels and funcs
// are refused with a TypeError-class error, as json.dumps refuses bytes. A
// typical call:
//
//	p := errorsjson.Execution("write_cells", err)
//	text, _ := errorsjson.MarshalString(p)
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
// Payload constructors cover every row of the error-code table (Execution,
// NotFound, NotAllowed, Timeout, Cancelled, Internal, Unavailable), the
// argument-validation shape (Validation) and the fallback shape (Fallback).
// The Python exception name comes from the error itself (Exception,
// ExceptionFrom, PythonExceptioner) or from errors.Is/As on well-known Go
// errors; "cause" is errors.Unwrap's text, only when present and different.
package errorsjson
