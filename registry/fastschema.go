package registry

import "regexp"

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
// which this registry does not do). "$schema" is not one: an older draft
// changes what the subset means (drafts before 2019-09 assert format), so
// only the 2020-12 meta-schema keeps the fast path (see draft2020).
var annotations = map[string]bool{
	"description": true, "title": true, "default": true, "examples": true,
	"$comment": true, "format": true, "deprecated": true,
	"readOnly": true, "writeOnly": true,
}

// draft2020 are the "$schema" values under which the fast subset means
// what the registry's default draft (2020-12) says.
var draft2020 = map[string]bool{
	"https://json-schema.org/draft/2020-12/schema":  true,
	"https://json-schema.org/draft/2020-12/schema#": true,
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
	case "$schema":
		uri, _ := v.(string)
		return draft2020[uri]
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
