package registry

import (
	"strconv"
	"unicode/utf8"
)

// valid reports whether args certainly satisfy the schema and are a JSON
// object; false means "validate the slow way", not "invalid".
func (s *fastSchema) valid(args []byte) bool {
	sc := scanner{data: args}
	sc.space()
	if sc.pos >= len(sc.data) || sc.data[sc.pos] != '{' {
		return false
	}
	if !sc.value(s, 0) {
		return false
	}
	sc.space()
	return sc.pos == len(sc.data)
}

// maxFastDepth is the nesting the fast path follows before deferring.
const maxFastDepth = 64

type scanner struct {
	data []byte
	pos  int
}

func (sc *scanner) space() {
	for sc.pos < len(sc.data) {
		switch sc.data[sc.pos] {
		case ' ', '\t', '\n', '\r':
			sc.pos++
		default:
			return
		}
	}
}

func (sc *scanner) lit(word string) bool {
	if len(sc.data)-sc.pos >= len(word) && string(sc.data[sc.pos:sc.pos+len(word)]) == word {
		sc.pos += len(word)
		return true
	}
	return false
}

// value checks one value against s (nil s accepts any well-formed value).
func (sc *scanner) value(s *fastSchema, depth int) bool {
	if depth > maxFastDepth || sc.pos >= len(sc.data) {
		return false
	}
	var kind typeSet
	ok := false
	switch c := sc.data[sc.pos]; {
	case c == '{':
		kind, ok = tObject, sc.object(s, depth)
	case c == '[':
		kind, ok = tArray, sc.array(s, depth)
	case c == '"':
		kind, ok = tString, sc.str(s)
	case c == '-' || (c >= '0' && c <= '9'):
		kind, ok = sc.number(s)
	case sc.lit("true"), sc.lit("false"):
		kind, ok = tBoolean, true
	case sc.lit("null"):
		kind, ok = tNull, true
	}
	if !ok || s == nil {
		return ok
	}
	if s.enum != nil && kind != tString {
		return false // the enum lists strings only: no other value is in it
	}
	if s.types == 0 {
		return true
	}
	if kind == tInteger {
		return s.types&(tInteger|tNumber) != 0
	}
	if kind == tNumber {
		return s.types&tNumber != 0
	}
	return s.types&kind != 0
}

func (sc *scanner) object(s *fastSchema, depth int) bool {
	sc.pos++
	var seen uint64
	sc.space()
	if sc.pos < len(sc.data) && sc.data[sc.pos] == '}' {
		sc.pos++
		return s == nil || len(s.required) == 0
	}
	for {
		sc.space()
		start := sc.pos
		if start >= len(sc.data) || sc.data[start] != '"' || !sc.str(nil) {
			return false
		}
		key := sc.data[start+1 : sc.pos-1]
		ascii := true
		for _, c := range key {
			if c == '\\' {
				return false // escaped key: let the decoder resolve it
			}
			ascii = ascii && c < utf8.RuneSelf
		}
		if !ascii && !utf8.Valid(key) {
			return false // the decoder would replace the invalid bytes
		}
		sc.space()
		if sc.pos >= len(sc.data) || sc.data[sc.pos] != ':' {
			return false
		}
		sc.pos++
		sc.space()
		var sub *fastSchema
		if s != nil {
			known := false
			sub, known = s.props[string(key)]
			if !known {
				if s.noExtra {
					return false
				}
				sub = s.extra
			}
			for i, r := range s.required {
				if r == string(key) {
					seen |= 1 << i
				}
			}
		}
		if !sc.value(sub, depth+1) {
			return false
		}
		sc.space()
		if sc.pos >= len(sc.data) {
			return false
		}
		switch sc.data[sc.pos] {
		case ',':
			sc.pos++
		case '}':
			sc.pos++
			return s == nil || seen == 1<<len(s.required)-1
		default:
			return false
		}
	}
}

func (sc *scanner) array(s *fastSchema, depth int) bool {
	sc.pos++
	var items *fastSchema
	if s != nil {
		items = s.items
	}
	n := 0
	sc.space()
	if sc.pos < len(sc.data) && sc.data[sc.pos] == ']' {
		sc.pos++
	} else {
		for {
			sc.space()
			if !sc.value(items, depth+1) {
				return false
			}
			n++
			sc.space()
			if sc.pos >= len(sc.data) {
				return false
			}
			if sc.data[sc.pos] == ']' {
				sc.pos++
				break
			}
			if sc.data[sc.pos] != ',' {
				return false
			}
			sc.pos++
		}
	}
	if s == nil {
		return true
	}
	return (s.minItems < 0 || n >= s.minItems) && (s.maxItems < 0 || n <= s.maxItems)
}

// str scans a string; with constraints it requires an escape-free, valid
// UTF-8 body so the bytes are the decoded value.
func (sc *scanner) str(s *fastSchema) bool {
	sc.pos++
	start := sc.pos
	escaped := false
	for sc.pos < len(sc.data) {
		c := sc.data[sc.pos]
		switch {
		case c == '"':
			body := sc.data[start:sc.pos]
			sc.pos++
			if s == nil || !s.hasString {
				return true
			}
			if escaped || !utf8.Valid(body) {
				return false
			}
			return s.checkString(body)
		case c < 0x20:
			return false
		case c == '\\':
			escaped = true
			if !sc.escape() {
				return false
			}
			continue
		}
		sc.pos++
	}
	return false
}

func (sc *scanner) escape() bool {
	sc.pos++ // backslash
	if sc.pos >= len(sc.data) {
		return false
	}
	switch sc.data[sc.pos] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		sc.pos++
		return true
	case 'u':
		if len(sc.data)-sc.pos < 5 {
			return false
		}
		for _, h := range sc.data[sc.pos+1 : sc.pos+5] {
			if !(h >= '0' && h <= '9' || h >= 'a' && h <= 'f' || h >= 'A' && h <= 'F') {
				return false
			}
		}
		sc.pos += 5
		return true
	}
	return false
}

func (s *fastSchema) checkString(body []byte) bool {
	if s.minLen >= 0 || s.maxLen >= 0 {
		n := utf8.RuneCount(body)
		if (s.minLen >= 0 && n < s.minLen) || (s.maxLen >= 0 && n > s.maxLen) {
			return false
		}
	}
	if s.pattern != nil && !s.pattern.Match(body) {
		return false
	}
	if s.enum != nil {
		for _, e := range s.enum {
			if e == string(body) {
				return true
			}
		}
		return false
	}
	return true
}

// number scans an RFC 8259 number; it reports tInteger for a literal
// without fraction or exponent (a float literal like 1.0 may also be an
// integer to the validator, so it is left to the slow path there).
func (sc *scanner) number(s *fastSchema) (typeSet, bool) {
	start := sc.pos
	if sc.data[sc.pos] == '-' {
		sc.pos++
	}
	digits := func() int {
		n := 0
		for sc.pos < len(sc.data) && sc.data[sc.pos] >= '0' && sc.data[sc.pos] <= '9' {
			sc.pos++
			n++
		}
		return n
	}
	kind := tInteger
	if sc.pos < len(sc.data) && sc.data[sc.pos] == '0' {
		sc.pos++
	} else if digits() == 0 {
		return 0, false
	}
	if sc.pos < len(sc.data) && sc.data[sc.pos] == '.' {
		sc.pos++
		kind = tNumber
		if digits() == 0 {
			return 0, false
		}
	}
	if sc.pos < len(sc.data) && (sc.data[sc.pos] == 'e' || sc.data[sc.pos] == 'E') {
		sc.pos++
		kind = tNumber
		if sc.pos < len(sc.data) && (sc.data[sc.pos] == '+' || sc.data[sc.pos] == '-') {
			sc.pos++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	if s == nil {
		return kind, true
	}
	if kind == tNumber && s.types&tNumber == 0 {
		return kind, false // maybe an integral float: slow path decides
	}
	if s.min == nil && s.max == nil && s.exMin == nil && s.exMax == nil {
		return kind, true
	}
	f, err := strconv.ParseFloat(string(sc.data[start:sc.pos]), 64)
	if err != nil && f == 0 {
		return kind, false
	}
	// Rounding to float64 is monotonic, so a strict float inequality is
	// a strict exact one; equal floats are ambiguous and go the slow way.
	ok := (s.min == nil || f > *s.min) && (s.max == nil || f < *s.max) &&
		(s.exMin == nil || f > *s.exMin) && (s.exMax == nil || f < *s.exMax)
	return kind, ok
}
