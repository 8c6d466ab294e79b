// Package errorsjson holds the uniform tool payloads of registry-sidecar and
// an encoder that writes them byte-for-byte as CPython 3.11's
// json.dumps(obj, ensure_ascii=False) would.
//
// Python agents compare tool results as strings, so the registry never uses
// encoding/json for a payload: separators are ", " and ": ", keys keep their
// insertion (or struct field) order, non-ASCII text stays raw, and floats use
// Python's repr. A typical call:
//
//	p := errorsjson.Execution("write_cells", err)
//	text, _ := errorsjson.Marshal(p)
//
// Go strings that are not valid UTF-8 cannot exist in Python; the encoder
// replaces each invalid byte with U+FFFD, as Python's
// bytes.decode("utf-8", "replace") does.
package errorsjson
