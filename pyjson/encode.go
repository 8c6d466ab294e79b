package pyjson

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"reflect"
	"sort"
	"strconv"
	"sync"
	"unicode/utf8"
)

// maxDepth bounds nesting so a cyclic or hostile value cannot overflow the
// stack; CPython's own limit (sys.getrecursionlimit) is 1000.
const maxDepth = 1000

// UnsupportedValueError reports a value json.dumps would refuse too, such as
// a channel or a function.
type UnsupportedValueError struct {
	Type string
}

// Error implements error.
func (e *UnsupportedValueError) Error() string {
	return "Object of type " + e.Type + " is not JSON serializable"
}

// PythonException names the Python exception json.dumps raises here.
func (e *UnsupportedValueError) PythonException() string { return "TypeError" }

// Marshal encodes v as json.dumps(v, ensure_ascii=False) would.
func Marshal(v any) ([]byte, error) {
	e := getEncoder()
	defer putEncoder(e)
	if err := e.value(v, 0); err != nil {
		return nil, err
	}
	return append([]byte(nil), e.buf...), nil
}

// MarshalString is Marshal returning a string, the form tool results travel in.
func MarshalString(v any) (string, error) {
	e := getEncoder()
	defer putEncoder(e)
	if err := e.value(v, 0); err != nil {
		return "", err
	}
	return string(e.buf), nil
}

// Scratch buffers: Marshal encodes into a pooled buffer and copies the
// result out once, so a payload costs one allocation for its bytes.
const (
	// initialBufSize fits a typical error payload without growing.
	initialBufSize = 512
	// maxPooledBufSize keeps a one-off huge result from pinning memory.
	maxPooledBufSize = 64 << 10
)

var encoders = sync.Pool{New: func() any { return &encoder{buf: make([]byte, 0, initialBufSize)} }}

func getEncoder() *encoder { return encoders.Get().(*encoder) }

func putEncoder(e *encoder) {
	if cap(e.buf) > maxPooledBufSize {
		return
	}
	e.buf = e.buf[:0]
	encoders.Put(e)
}

// Append appends the encoding of v to dst and returns the extended buffer.
func Append(dst []byte, v any) ([]byte, error) {
	e := getEncoder()
	defer putEncoder(e)
	scratch := e.buf
	e.buf = dst
	err := e.value(v, 0)
	out := e.buf
	e.buf = scratch
	if err != nil {
		return dst, err
	}
	return out, nil
}

type encoder struct {
	buf   []byte
	cache typeCache
}

func (e *encoder) value(v any, depth int) error {
	if depth > maxDepth {
		return fmt.Errorf("maximum recursion depth exceeded while encoding a JSON object: %w", ErrRecursion)
	}
	switch x := v.(type) {
	case nil:
		e.buf = append(e.buf, "null"...)
	case string:
		e.buf = AppendString(e.buf, x)
	case bool:
		e.buf = strconv.AppendBool(e.buf, x)
	case int:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case int64:
		e.buf = strconv.AppendInt(e.buf, x, 10)
	case int32:
		e.buf = strconv.AppendInt(e.buf, int64(x), 10)
	case uint64:
		e.buf = strconv.AppendUint(e.buf, x, 10)
	case float64:
		e.buf = AppendFloat(e.buf, x)
	case float32:
		e.buf = AppendFloat(e.buf, float64(x))
	case json.Number:
		return e.number(x)
	case *big.Int:
		if x == nil {
			e.buf = append(e.buf, "null"...)
		} else {
			e.buf = x.Append(e.buf, 10)
		}
	case Object:
		return e.object(x, depth)
	case []any:
		e.buf = append(e.buf, '[')
		for i, item := range x {
			if i > 0 {
				e.buf = append(e.buf, ", "...)
			}
			if err := e.value(item, depth+1); err != nil {
				return err
			}
		}
		e.buf = append(e.buf, ']')
	case []string:
		e.buf = append(e.buf, '[')
		for i, item := range x {
			if i > 0 {
				e.buf = append(e.buf, ", "...)
			}
			e.buf = AppendString(e.buf, item)
		}
		e.buf = append(e.buf, ']')
	case map[string]any:
		return e.stringMap(x, depth)
	case json.RawMessage:
		return e.raw(x, depth)
	default:
		return e.reflectValue(reflect.ValueOf(v), depth)
	}
	return nil
}

func (e *encoder) object(o Object, depth int) error {
	e.buf = append(e.buf, '{')
	for i, f := range o {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		e.buf = AppendString(e.buf, f.Key)
		e.buf = append(e.buf, ": "...)
		if err := e.value(f.Value, depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

// stringMap encodes a Go map with its keys sorted: Go maps have no insertion
// order to keep, and sorted keys make the output deterministic.
func (e *encoder) stringMap(m map[string]any, depth int) error {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.buf = append(e.buf, '{')
	for i, k := range keys {
		if i > 0 {
			e.buf = append(e.buf, ", "...)
		}
		e.buf = AppendString(e.buf, k)
		e.buf = append(e.buf, ": "...)
		if err := e.value(m[k], depth+1); err != nil {
			return err
		}
	}
	e.buf = append(e.buf, '}')
	return nil
}

func (e *encoder) number(n json.Number) error {
	s := string(n)
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		e.buf = strconv.AppendInt(e.buf, i, 10)
		return nil
	}
	if b, ok := new(big.Int).SetString(s, 10); ok {
		e.buf = b.Append(e.buf, 10)
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !isRangeError(err) {
		return fmt.Errorf("invalid JSON number %q: %w", s, err)
	}
	e.buf = AppendFloat(e.buf, f)
	return nil
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// AppendFloat appends f formatted as Python's float.__repr__, which
// json.dumps uses: shortest round-trip digits, scientific notation when the
// decimal exponent is below -4 or at least 16, and NaN/Infinity spelled as
// json.dumps spells them.
func AppendFloat(dst []byte, f float64) []byte {
	switch {
	case math.IsNaN(f):
		return append(dst, "NaN"...)
	case math.IsInf(f, 1):
		return append(dst, "Infinity"...)
	case math.IsInf(f, -1):
		return append(dst, "-Infinity"...)
	}
	if f == 0 {
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		return append(dst, "0.0"...)
	}
	abs := math.Abs(f)
	if abs < 1e-4 || abs >= 1e16 {
		// strconv's 'e' form matches repr: "1e-05", "1.5e+16".
		return strconv.AppendFloat(dst, f, 'e', -1, 64)
	}
	start := len(dst)
	dst = strconv.AppendFloat(dst, f, 'f', -1, 64)
	for _, c := range dst[start:] {
		if c == '.' {
			return dst
		}
	}
	return append(dst, ".0"...)
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string literal the way json.dumps with
// ensure_ascii=False writes it: only '"', '\\' and U+0000-U+001F are
// escaped. Invalid UTF-8 becomes U+FFFD the way Python's
// bytes.decode("utf-8", "replace") does it: one U+FFFD per maximal
// subpart, so a truncated multi-byte sequence ("\xe4\xb8") is one U+FFFD
// and a byte that can start nothing ("\xff", "\xc0") is one each.
func AppendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch c {
			case '"':
				dst = append(dst, '\\', '"')
			case '\\':
				dst = append(dst, '\\', '\\')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, "\ufffd"...)
			i += invalidLen(s[i:])
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// invalidLen is the length of the maximal subpart of an ill-formed UTF-8
// sequence at the start of s (Unicode §3.9, Table 3-7): the lead byte plus
// every following byte that could still continue a well-formed sequence.
// CPython's UTF-8 decoder replaces exactly that many bytes with one U+FFFD.
// s must start with an invalid sequence.
func invalidLen(s string) int {
	lo, hi, need := byte(0x80), byte(0xBF), 0
	switch b := s[0]; {
	case b >= 0xC2 && b <= 0xDF:
		need = 1
	case b == 0xE0:
		lo, need = 0xA0, 2
	case b == 0xED:
		hi, need = 0x9F, 2
	case b >= 0xE1 && b <= 0xEF:
		need = 2
	case b == 0xF0:
		lo, need = 0x90, 3
	case b == 0xF4:
		hi, need = 0x8F, 3
	case b >= 0xF1 && b <= 0xF3:
		need = 3
	}
	n := 1
	for ; n <= need && n < len(s); n++ {
		if c := s[n]; c < lo || c > hi {
			break
		}
		lo, hi = 0x80, 0xBF // only the second byte has a narrowed range
	}
	return n
}
