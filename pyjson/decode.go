package pyjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrSyntax is wrapped by every DecodeOrdered error about malformed input.
var ErrSyntax = errors.New("invalid JSON")

// SyntaxError reports malformed JSON text and where it is. It wraps
// ErrSyntax and maps to Python's json.JSONDecodeError (a ValueError).
type SyntaxError struct {
	Msg    string
	Offset int // byte offset of the problem
}

// Error implements error.
func (e *SyntaxError) Error() string {
	return fmt.Sprintf("%s at offset %d", e.Msg, e.Offset)
}

// Unwrap makes errors.Is(err, ErrSyntax) hold.
func (e *SyntaxError) Unwrap() error { return ErrSyntax }

// PythonException names the exception json.loads raises.
func (e *SyntaxError) PythonException() string { return "JSONDecodeError" }

// DecodeOrdered parses JSON text the way Python's json.loads does and
// returns Object (keys in document order; a repeated key keeps its first
// position and its last value), []any, string, json.Number, bool, nil and,
// for the literals NaN, Infinity and -Infinity that json.loads accepts,
// float64. Re-encoding the result with Marshal gives Python's json.dumps of
// json.loads(data). Lone UTF-16 surrogates, which Go strings cannot hold,
// become U+FFFD. Nesting deeper than 1000 levels is refused.
func DecodeOrdered(data []byte) (any, error) {
	d := decoder{data: data}
	d.skipSpace()
	v, err := d.value(0)
	if err != nil {
		return nil, err
	}
	d.skipSpace()
	if d.pos != len(d.data) {
		return nil, d.fail("extra data")
	}
	return v, nil
}

// raw re-encodes JSON text with Python's separators, keeping key order.
func (e *encoder) raw(data json.RawMessage, depth int) error {
	v, err := DecodeOrdered(data)
	if err != nil {
		return err
	}
	return e.value(v, depth)
}

type decoder struct {
	data []byte
	pos  int
}

func (d *decoder) fail(msg string) error {
	return &SyntaxError{Msg: msg, Offset: d.pos}
}

func (d *decoder) skipSpace() {
	for d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ' ', '\t', '\n', '\r':
			d.pos++
		default:
			return
		}
	}
}

func (d *decoder) literal(word string) bool {
	if len(d.data)-d.pos >= len(word) && string(d.data[d.pos:d.pos+len(word)]) == word {
		d.pos += len(word)
		return true
	}
	return false
}

func (d *decoder) value(depth int) (any, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("maximum nesting depth exceeded: %w", ErrRecursion)
	}
	if d.pos >= len(d.data) {
		return nil, d.fail("expecting value")
	}
	switch c := d.data[d.pos]; {
	case c == '{':
		return d.object(depth)
	case c == '[':
		return d.array(depth)
	case c == '"':
		return d.str()
	case c == '-' || (c >= '0' && c <= '9'):
		if d.literal("-Infinity") {
			return math.Inf(-1), nil
		}
		return d.number()
	case d.literal("null"):
		return nil, nil
	case d.literal("true"):
		return true, nil
	case d.literal("false"):
		return false, nil
	case d.literal("NaN"):
		return math.NaN(), nil
	case d.literal("Infinity"):
		return math.Inf(1), nil
	}
	return nil, d.fail("expecting value")
}

// indexThreshold is the object size from which duplicate keys are found
// through a map instead of a scan, keeping large objects linear.
const indexThreshold = 16

func (d *decoder) object(depth int) (any, error) {
	d.pos++ // '{'
	obj := Object{}
	var index map[string]int
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == '}' {
		d.pos++
		return obj, nil
	}
	for {
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != '"' {
			return nil, d.fail("expecting property name enclosed in double quotes")
		}
		key, err := d.str()
		if err != nil {
			return nil, err
		}
		d.skipSpace()
		if d.pos >= len(d.data) || d.data[d.pos] != ':' {
			return nil, d.fail("expecting ':' delimiter")
		}
		d.pos++
		d.skipSpace()
		val, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		obj, index = setKey(obj, index, key, val)
		if done, err := d.next('}'); done || err != nil {
			return obj, err
		}
	}
}

// next consumes the ',' between members or the closing delimiter end and
// reports whether the container ended.
func (d *decoder) next(end byte) (bool, error) {
	d.skipSpace()
	if d.pos < len(d.data) {
		switch d.data[d.pos] {
		case ',':
			d.pos++
			return false, nil
		case end:
			d.pos++
			return true, nil
		}
	}
	return false, d.fail("expecting ',' delimiter")
}

// setKey is Object.Set with an index once the object grows large.
func setKey(obj Object, index map[string]int, key string, val any) (Object, map[string]int) {
	if index == nil && len(obj) < indexThreshold {
		return obj.Set(key, val), nil
	}
	if index == nil {
		index = make(map[string]int, 2*len(obj))
		for i, f := range obj {
			index[f.Key] = i
		}
	}
	if i, ok := index[key]; ok {
		obj[i].Value = val
		return obj, index
	}
	index[key] = len(obj)
	return append(obj, Field{Key: key, Value: val}), index
}

func (d *decoder) array(depth int) (any, error) {
	d.pos++ // '['
	arr := []any{}
	d.skipSpace()
	if d.pos < len(d.data) && d.data[d.pos] == ']' {
		d.pos++
		return arr, nil
	}
	for {
		d.skipSpace()
		v, err := d.value(depth + 1)
		if err != nil {
			return nil, err
		}
		arr = append(arr, v)
		if done, err := d.next(']'); done || err != nil {
			return arr, err
		}
	}
}

// number scans an RFC 8259 number and returns it as json.Number.
func (d *decoder) number() (any, error) {
	start := d.pos
	if d.data[d.pos] == '-' {
		d.pos++
	}
	digits := func() int {
		n := 0
		for d.pos < len(d.data) && d.data[d.pos] >= '0' && d.data[d.pos] <= '9' {
			d.pos++
			n++
		}
		return n
	}
	switch {
	case d.pos < len(d.data) && d.data[d.pos] == '0':
		d.pos++
	case digits() == 0:
		return nil, d.fail("expecting value")
	}
	if d.pos < len(d.data) && d.data[d.pos] == '.' {
		d.pos++
		if digits() == 0 {
			return nil, d.fail("expecting digits after '.'")
		}
	}
	if d.pos < len(d.data) && (d.data[d.pos] == 'e' || d.data[d.pos] == 'E') {
		d.pos++
		if d.pos < len(d.data) && (d.data[d.pos] == '+' || d.data[d.pos] == '-') {
			d.pos++
		}
		if digits() == 0 {
			return nil, d.fail("expecting exponent digits")
		}
	}
	return json.Number(d.data[start:d.pos]), nil
}

// str scans a string literal; d.data[d.pos] is the opening quote.
func (d *decoder) str() (string, error) {
	d.pos++
	start := d.pos
	// Fast path: no escapes.
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			s := string(d.data[start:d.pos])
			d.pos++
			return s, nil
		case c == '\\':
			return d.strSlow(start)
		case c < 0x20:
			return "", d.fail("invalid control character in string")
		}
		d.pos++
	}
	return "", d.fail("unterminated string")
}

func (d *decoder) strSlow(start int) (string, error) {
	buf := append([]byte(nil), d.data[start:d.pos]...)
	for d.pos < len(d.data) {
		c := d.data[d.pos]
		switch {
		case c == '"':
			d.pos++
			return string(buf), nil
		case c < 0x20:
			return "", d.fail("invalid control character in string")
		case c != '\\':
			buf = append(buf, c)
			d.pos++
			continue
		}
		d.pos++ // backslash
		if d.pos >= len(d.data) {
			break
		}
		esc := d.data[d.pos]
		d.pos++
		switch esc {
		case '"', '\\', '/':
			buf = append(buf, esc)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return "", d.fail("invalid \\uXXXX escape")
			}
			if utf16.IsSurrogate(r) {
				r = d.lowSurrogate(r)
			}
			buf = utf8.AppendRune(buf, r)
		default:
			d.pos--
			return "", d.fail("invalid \\escape")
		}
	}
	return "", d.fail("unterminated string")
}

func (d *decoder) hex4() (rune, bool) {
	if len(d.data)-d.pos < 4 {
		return 0, false
	}
	n, err := strconv.ParseUint(string(d.data[d.pos:d.pos+4]), 16, 32)
	if err != nil {
		return 0, false
	}
	d.pos += 4
	return rune(n), true
}

// lowSurrogate completes a UTF-16 pair when one follows; a lone surrogate
// becomes U+FFFD since a Go string cannot hold it.
func (d *decoder) lowSurrogate(hi rune) rune {
	if hi < 0xDC00 && len(d.data)-d.pos >= 6 && d.data[d.pos] == '\\' && d.data[d.pos+1] == 'u' {
		save := d.pos
		d.pos += 2
		if lo, ok := d.hex4(); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return utf16.DecodeRune(hi, lo)
		}
		d.pos = save
	}
	return utf8.RuneError
}
