package registry

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// The tag vocabulary of a typed tool's input struct, on top of
// jsonschema-go's `json` (name, omitempty = optional) and `jsonschema`
// (description): each tag below sets the keyword of the same name, parsed as
// the field's kind. On a slice field, enum applies to the items and
// minItems/maxItems to the slice; itemDescription describes a slice's
// items (say, the object each item is). ${name} in any of these tags (and in a
// description) is replaced by the text WithTextVars gives for name.
var keywordTags = []string{"enum", "default", "minimum", "maximum", "minLength", "maxLength", "minItems", "maxItems", "itemDescription"}

// canonicalKeys is the order keywords are written in; other keywords
// follow, sorted. Properties keep the struct's field order.
var canonicalKeys = []string{"type", "anyOf", "oneOf", "allOf", "enum", "default", "minimum", "maximum",
	"minLength", "maxLength", "items", "minItems", "maxItems", "description", "properties", "required", "additionalProperties"}

// expand replaces ${name} in s by vars[name]; an unknown name is an error.
func expand(s string, vars map[string]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String(), nil
		}
		j := strings.IndexByte(s[i:], '}')
		if j < 0 {
			return "", fmt.Errorf("unclosed ${ in %q", s)
		}
		name := s[i+2 : i+j]
		v, ok := vars[name]
		if !ok {
			return "", fmt.Errorf("unknown text variable %q", name)
		}
		b.WriteString(s[:i])
		b.WriteString(v)
		s = s[i+j+1:]
	}
}

// applyTags sets the keywords of keywordTags from the tags of struct type
// rt's fields, expands descriptions, and recurses into nested structs.
func applyTags(rt reflect.Type, s *jsonschema.Schema, cfg *typedConfig, seen map[reflect.Type]bool) error {
	if s == nil || seen[rt] {
		return nil
	}
	seen[rt] = true
	defer delete(seen, rt)
	for _, f := range reflect.VisibleFields(rt) {
		name := jsonName(f)
		prop := s.Properties[name]
		if name == "" || prop == nil || f.Anonymous && f.Tag.Get("json") == "" {
			continue
		}
		if prop.Description != "" {
			d, err := expand(prop.Description, cfg.vars)
			if err != nil {
				return fmt.Errorf("field %s.%s: %w", rt, f.Name, err)
			}
			prop.Description = d
		}
		ft := derefType(f.Type)
		elem, items := ft, prop
		if ft.Kind() == reflect.Slice || ft.Kind() == reflect.Array {
			elem, items = derefType(ft.Elem()), prop.Items
		}
		for _, key := range keywordTags {
			tag, ok := f.Tag.Lookup(key)
			if !ok {
				continue
			}
			tag, err := expand(tag, cfg.vars)
			if err == nil {
				err = setKeyword(prop, items, elem, key, tag)
			}
			if err != nil {
				return fmt.Errorf("field %s.%s: %w", rt, f.Name, err)
			}
		}
		if elem.Kind() == reflect.Struct && cfg.types[elem] == nil {
			if err := applyTags(elem, items, cfg, seen); err != nil {
				return err
			}
		}
	}
	return nil
}

// derefType follows pointers.
func derefType(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// dropNulls turns every ["null", T] jsonschema-go writes for a pointer or
// a slice into T, all through s: an optional argument is left out, not
// null (a null a value may take is a {"type": "null"} branch of anyOf).
func dropNulls(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	for _, sub := range s.Properties {
		dropNulls(sub)
	}
	for _, list := range [][]*jsonschema.Schema{s.AnyOf, s.OneOf, s.AllOf, {s.Items, s.AdditionalProperties}} {
		for _, sub := range list {
			dropNulls(sub)
		}
	}
	if len(s.Types) == 0 {
		return
	}
	types := slices.DeleteFunc(slices.Clone(s.Types), func(t string) bool { return t == "null" })
	if len(types) == 1 {
		s.Type, s.Types = types[0], nil
	} else {
		s.Types = types
	}
}

// setKeyword sets keyword key from its tag text: enum on the items of a
// slice (elem is their type), the others on the field's schema prop.
func setKeyword(prop, items *jsonschema.Schema, elem reflect.Type, key, tag string) error {
	switch key {
	case "itemDescription":
		if items == prop || items == nil {
			return fmt.Errorf("itemDescription tag on a field that is not a slice")
		}
		items.Description = tag
	case "enum":
		if items == nil {
			return fmt.Errorf("enum tag on a field without items")
		}
		values, err := enumValues(tag, elem)
		if err != nil {
			return err
		}
		items.Enum = values
	case "default":
		values, err := enumValues(tag, elem)
		if err != nil {
			return err
		}
		raw, err := json.Marshal(values[0])
		if err != nil {
			return err
		}
		prop.Default = raw
	case "minimum", "maximum":
		n, err := strconv.ParseFloat(tag, 64)
		if err != nil {
			return fmt.Errorf("%s %q is not a number", key, tag)
		}
		if key == "minimum" {
			prop.Minimum = &n
		} else {
			prop.Maximum = &n
		}
	default:
		n, err := strconv.Atoi(tag)
		if err != nil || n < 0 {
			return fmt.Errorf("%s %q is not a count", key, tag)
		}
		*map[string]**int{"minLength": &prop.MinLength, "maxLength": &prop.MaxLength,
			"minItems": &prop.MinItems, "maxItems": &prop.MaxItems}[key] = &n
	}
	return nil
}

// canonicalJSON writes s with its keywords in canonicalKeys order and its
// properties in field order, so a schema reads (and diffs) the same way
// every time.
func canonicalJSON(s *jsonschema.Schema) ([]byte, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, err
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return raw, nil //nolint:nilerr // true and false schemas are not objects: written as they are
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		ia, ib := keyRank(a), keyRank(b)
		if ia != ib {
			return ia - ib
		}
		return strings.Compare(a, b)
	})
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		v, err := canonicalValue(s, k, m[k])
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// keyRank is k's place in canonicalKeys, after them when it is not there.
func keyRank(k string) int {
	if i := slices.Index(canonicalKeys, k); i >= 0 {
		return i
	}
	return len(canonicalKeys)
}

// canonicalValue is keyword k of s, subschemas written canonically.
func canonicalValue(s *jsonschema.Schema, k string, raw json.RawMessage) ([]byte, error) {
	switch k {
	case "items":
		return canonicalJSON(s.Items)
	case "additionalProperties":
		return canonicalJSON(s.AdditionalProperties)
	case "anyOf", "oneOf", "allOf":
		list := map[string][]*jsonschema.Schema{"anyOf": s.AnyOf, "oneOf": s.OneOf, "allOf": s.AllOf}[k]
		var b bytes.Buffer
		b.WriteByte('[')
		for i, sub := range list {
			if i > 0 {
				b.WriteByte(',')
			}
			v, err := canonicalJSON(sub)
			if err != nil {
				return nil, err
			}
			b.Write(v)
		}
		b.WriteByte(']')
		return b.Bytes(), nil
	case "properties":
		names := slices.Clone(s.PropertyOrder)
		var rest []string
		for name := range s.Properties {
			if !slices.Contains(names, name) {
				rest = append(rest, name)
			}
		}
		slices.Sort(rest)
		var b bytes.Buffer
		b.WriteByte('{')
		for i, name := range append(names, rest...) {
			if i > 0 {
				b.WriteByte(',')
			}
			kb, _ := json.Marshal(name)
			b.Write(kb)
			b.WriteByte(':')
			v, err := canonicalJSON(s.Properties[name])
			if err != nil {
				return nil, err
			}
			b.Write(v)
		}
		b.WriteByte('}')
		return b.Bytes(), nil
	}
	return raw, nil
}
