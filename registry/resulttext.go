package registry

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// resultText makes a tool's return value the text the caller reads, as
// Python's dispatcher does with str(result) for a string and json.dumps
// for everything else (excelmanus's dispatcher):
//   - a Go string is the text itself (invalid UTF-8 becomes U+FFFD, as
//     everywhere in errorsjson);
//   - a json.RawMessage is its bytes unchanged; only when the profile asks
//     for it (excelmanus: its model reads json.dumps spacing) and the bytes
//     are compact JSON (no whitespace outside strings) is it re-spaced to
//     ", " and ": ", nothing else touched;
//   - any other value is encoded with errorsjson (Python's json.dumps).
func resultText(v any, texts catalogue) (string, error) {
	switch x := v.(type) {
	case string:
		if utf8.ValidString(x) {
			return x, nil
		}
		return validUTF8(x)
	case json.RawMessage:
		if !json.Valid(x) {
			return "", errorsjson.Exception("ValueError", "the tool returned a json.RawMessage that is not valid JSON")
		}
		if texts.respaceRaw {
			if spaced, ok := respace(x); ok {
				return spaced, nil
			}
		}
		return string(x), nil
	}
	return pyjson.MarshalString(v)
}

// validUTF8 replaces invalid UTF-8 in s exactly as errorsjson encodes it.
func validUTF8(s string) (string, error) {
	quoted := pyjson.AppendString(nil, s)
	v, err := pyjson.DecodeOrdered(quoted)
	if err != nil {
		return "", err
	}
	return v.(string), nil
}

// respace writes compact JSON with json.dumps's separators; ok is false
// when data has whitespace outside strings (it is not compact: left as is).
func respace(data []byte) (string, bool) {
	out := make([]byte, 0, len(data)+len(data)/4)
	inString, escaped := false, false
	for _, c := range data {
		if inString {
			out = append(out, c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		switch c {
		case ' ', '\t', '\n', '\r':
			return "", false
		case '"':
			inString = true
			out = append(out, c)
		case ',', ':':
			out = append(out, c, ' ')
		default:
			out = append(out, c)
		}
	}
	return string(out), true
}
