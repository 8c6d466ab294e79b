package registry

import (
	"regexp"
	"strconv"
	"unicode/utf8"
)

// fastSchema is a tool's JSON Schema compiled for the common subset of
// keywords that tool schemas use, checked straight on the argument bytes
// without decoding them. It only ever answers "certainly valid": any doubt
// (a violation, an escape sequence in a constrained string, a number too
// close to a bound, an unsupported keyword) sends the call down the full
// validator, which stays the single authority on violations and messages.
type fastSchema struct {
	types     typeSet
	props     map[string]*fastSchema
	required  []string
	noExtra   bool        // additionalProperties: false
	extra     *fastSchema // additionalProperties: {schema}
	items     *fastSchema
	minLen    int // -1 when absent
	maxLen    int
	pattern   *regexp.Regexp
	enum      []string
	min, max  *float64
	exMin     *float64
	exMax     *float64
	minItems  int
	maxItems  int
	hasString bool // any string constraint: escapes force the slow path
}

type typeSet uint8

const (
	tObject typeSet = 1 << iota
	tArray
	tString
	tInteger
	tNumber
	tBoolean
	tNull
)

var typeNames = map[string]typeSet{
	"object": tObject, "array": tArray, "string": tString, "integer": tInteger,
	"number": tNumber, "boolean": tBoolean, "null": tNull,
}

// annotations are keywords that never affect validity (format is an
// annotation in draft 2020-12 unless format assertion is switched on,
// which this registry does not do).
var annotations = map[string]bool{
	"description": true, "title": true, "default": true, "examples": true,
	"$schema": true, "$comment": true, "format": true, "deprecated": true,
	"readOnly": true, "writeOnly": true,
}

// maxFastRequired bounds the required list the fast path tracks in a bitmask.
const maxFastRequired = 64

// compileFast compiles doc (decoded by jsonschema.UnmarshalJSON) or returns
// nil when the schema uses anything outside the subset.
func compileFast(doc any) *fastSchema {
	m, ok := doc.(map[string]any)
	if !ok {
		if b, isBool := doc.(bool); isBool && b {
			return &fastSchema{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
		}
		return nil
	}
	s := &fastSchema{minLen: -1, maxLen: -1, minItems: -1, maxItems: -1}
	for k, v := range m {
		if annotations[k] {
			continue
		}
		if !s.keyword(k, v) {
			return nil
		}
	}
	return s
}

func (s *fastSchema) keyword(k string, v any) bool {
	switch k {
	case "type":
		return s.setTypes(v)
	case "properties":
		props, ok := v.(map[string]any)
		if !ok {
			return false
		}
		s.props = make(map[string]*fastSchema, len(props))
		for name, sub := range props {
			if s.props[name] = compileFast(sub); s.props[name] == nil {
				return false
			}
		}
	case "required":
		list, ok := v.([]any)
		if !ok || len(list) > maxFastRequired {
			return false
		}
		for _, r := range list {
			name, ok := r.(string)
			if !ok {
				return false
			}
			s.required = append(s.required, name)
		}
	case "additionalProperties":
		if b, ok := v.(bool); ok {
			s.noExtra = !b
			return true
		}
		s.extra = compileFast(v)
		return s.extra != nil
	case "items":
		s.items = compileFast(v)
		return s.items != nil
	case "minLength", "maxLength", "minItems", "maxItems":
		n, ok := nonNegInt(v)
		if !ok {
			return false
		}
		*map[string]*int{"minLength": &s.minLen, "maxLength": &s.maxLen, "minItems": &s.minItems, "maxItems": &s.maxItems}[k] = n
		s.hasString = s.hasString || k == "minLength" || k == "maxLength"
	case "pattern":
		p, ok := v.(string)
		if !ok {
			return false
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return false
		}
		s.pattern, s.hasString = re, true
	case "enum":
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, it := range list {
			str, ok := it.(string)
			if !ok {
				return false
			}
			s.enum = append(s.enum, str)
		}
		s.hasString = true
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		f, ok := number(v)
		if !ok {
			return false
		}
		*map[string]**float64{"minimum": &s.min, "maximum": &s.max, "exclusiveMinimum": &s.exMin, "exclusiveMaximum": &s.exMax}[k] = &f
	default:
		return false
	}
	return true
}

func (s *fastSchema) setTypes(v any) bool {
	switch t := v.(type) {
	case string:
		s.types = typeNames[t]
		return s.types != 0
	case []any:
		for _, it := range t {
			name, _ := it.(string)
			bit := typeNames[name]
			if bit == 0 {
				return false
			}
			s.types |= bit
		}
		return len(t) > 0
	}
	return false
}

func nonNegInt(v any) (int, bool) {
	f, ok := number(v)
	if !ok || f < 0 || f != float64(int(f)) {
		return 0, false
	}
	return int(f), true
}

func number(v any) (float64, bool) {
	n, ok := v.(interface{ Float64() (float64, error) })
	if !ok {
		return 0, false
	}
	f, err := n.Float64()
	return f, err == nil
}

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
	if !ok || s == nil || s.types == 0 {
		return ok
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
