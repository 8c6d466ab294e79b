package registry

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// This file sees decoded JSON values the way Python's json.loads does
// (pyjson.DecodeOrdered: Object, []any, string, json.Number, bool, nil,
// float64 for NaN/Infinity; schema documents decoded by the validator use
// map[string]any) and answers the questions excelmanus's validation asks:
// type(v).__name__, repr(v), ==, < and len().

// pyTypeName is type(v).__name__ of the Python value json.loads gives.
func pyTypeName(v any) string {
	switch x := v.(type) {
	case nil:
		return "NoneType"
	case bool:
		return "bool"
	case string:
		return "str"
	case []any:
		return "list"
	case pyjson.Object, map[string]any:
		return "dict"
	case json.Number:
		if isIntLiteral(x) {
			return "int"
		}
		return "float"
	case float64:
		return "float"
	}
	return fmt.Sprintf("%T", v)
}

// isIntLiteral reports whether json.loads makes an int of n (no fraction,
// no exponent).
func isIntLiteral(n json.Number) bool {
	return !strings.ContainsAny(string(n), ".eE")
}

// pyNumber is a JSON number as a Python int (exact) or float, as an exact
// rational for comparisons; ok is false for non-numbers, bools included.
// NaN and infinities are reported by nan/inf.
type pyNumber struct {
	rat *big.Rat
	nan bool
	inf int // +1, -1 or 0
}

func toPyNumber(v any) (pyNumber, bool) {
	var f float64
	switch x := v.(type) {
	case json.Number:
		if isIntLiteral(x) {
			r, ok := new(big.Rat).SetString(string(x))
			return pyNumber{rat: r}, ok
		}
		var err error
		f, err = strconv.ParseFloat(string(x), 64)
		if err != nil && !isRange(err) {
			return pyNumber{}, false
		}
	case float64:
		f = x
	case int:
		return pyNumber{rat: new(big.Rat).SetInt64(int64(x))}, true
	default:
		return pyNumber{}, false
	}
	switch {
	case math.IsNaN(f):
		return pyNumber{nan: true}, true
	case math.IsInf(f, 1):
		return pyNumber{inf: 1}, true
	case math.IsInf(f, -1):
		return pyNumber{inf: -1}, true
	}
	return pyNumber{rat: new(big.Rat).SetFloat64(f)}, true
}

func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

// cmp compares a and b as Python does (exactly, int against float); ok is
// false when NaN is involved (every comparison is then False).
func (a pyNumber) cmp(b pyNumber) (int, bool) {
	if a.nan || b.nan {
		return 0, false
	}
	if a.inf != 0 || b.inf != 0 {
		switch {
		case a.inf == b.inf:
			return 0, true
		case a.inf > b.inf:
			return 1, true
		default:
			return -1, true
		}
	}
	return a.rat.Cmp(b.rat), true
}

// pyLess is Python's a < b on two numbers.
func pyLess(a, b pyNumber) bool {
	c, ok := a.cmp(b)
	return ok && c < 0
}

// asBoolNumber is a bool as the Python int it equals (True == 1).
func asBoolNumber(b bool) pyNumber {
	if b {
		return pyNumber{rat: big.NewRat(1, 1)}
	}
	return pyNumber{rat: new(big.Rat)}
}

// pyEqual is Python's a == b on decoded JSON values: 1 == 1.0 == True,
// dicts equal regardless of key order, lists element by element.
func pyEqual(a, b any) bool {
	na, aNum := numeric(a)
	nb, bNum := numeric(b)
	if aNum || bNum {
		if !aNum || !bNum {
			return false
		}
		c, ok := na.cmp(nb)
		return ok && c == 0
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case string:
		y, ok := b.(string)
		return ok && x == y
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !pyEqual(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	ka, aDict := dictItems(a)
	kb, bDict := dictItems(b)
	if !aDict || !bDict || len(ka) != len(kb) {
		return false
	}
	for k, v := range ka {
		w, ok := kb[k]
		if !ok || !pyEqual(v, w) {
			return false
		}
	}
	return true
}

// numeric is v as a number when Python would compare it as one (bools
// included).
func numeric(v any) (pyNumber, bool) {
	if b, ok := v.(bool); ok {
		return asBoolNumber(b), true
	}
	return toPyNumber(v)
}

func dictItems(v any) (map[string]any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return x, true
	case pyjson.Object:
		m := make(map[string]any, len(x))
		for _, f := range x {
			m[f.Key] = f.Value
		}
		return m, true
	}
	return nil, false
}

// pyRepr is Python's repr() of a decoded JSON value (for a number also
// its str()).
func pyRepr(v any) string {
	var b strings.Builder
	writeRepr(&b, v)
	return b.String()
}

func writeRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(reprString(x))
	case json.Number:
		if isIntLiteral(x) {
			if i, ok := new(big.Int).SetString(string(x), 10); ok {
				b.WriteString(i.String())
				return
			}
		}
		f, _ := strconv.ParseFloat(string(x), 64)
		b.WriteString(reprFloat(f))
	case float64:
		b.WriteString(reprFloat(x))
	case int:
		b.WriteString(strconv.Itoa(x))
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeRepr(b, item)
		}
		b.WriteByte(']')
	case pyjson.Object:
		b.WriteByte('{')
		for i, f := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(reprString(f.Key))
			b.WriteString(": ")
			writeRepr(b, f.Value)
		}
		b.WriteByte('}')
	case map[string]any:
		// A schema document has lost its key order; sorted is stable.
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		obj := make(pyjson.Object, 0, len(x))
		for _, k := range keys {
			obj = append(obj, pyjson.Field{Key: k, Value: x[k]})
		}
		writeRepr(b, obj)
	default:
		fmt.Fprint(b, v)
	}
}

// reprFloat is float.__repr__: json's spelling except nan and inf.
func reprFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	return string(pyjson.AppendFloat(nil, f))
}

// reprString is str.__repr__: single quotes unless the text holds a single
// quote and no double quote; backslash, the quote, \t \n \r escaped;
// other non-printable characters as \xNN, \uNNNN or \UNNNNNNNN; printable
// non-ASCII kept as is.
func reprString(s string) string {
	quote := byte('\'')
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for _, r := range s {
		switch {
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == ' ' || (r < utf8.RuneSelf && r > ' ' && r < 0x7f):
			b.WriteRune(r)
		case r >= utf8.RuneSelf && unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
	}
	b.WriteByte(quote)
	return b.String()
}

// pyLen is len() of a str (code points).
func pyLen(s string) int { return utf8.RuneCountInString(s) }
