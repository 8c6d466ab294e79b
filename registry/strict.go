package registry

import (
	"bytes"
	"slices"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// OpenAI strict mode (function calling with "strict": true) accepts a
// subset of JSON Schema in which every property is required and every
// object refuses unknown keys. A model in strict mode therefore sends every
// argument, null for the optional ones it means to leave out. StrictSchema
// derives that form from a tool's schema; WithNullAsOmitted maps the nulls
// back before the call is checked against the tool's own schema, so the
// registry's validation and payloads stay those of the original schema.

// StrictKeywords returns the schema keywords OpenAI strict mode accepts,
// the ones StrictSchema keeps; every other keyword is dropped (the registry
// still enforces it when the call comes back).
func StrictKeywords() []string { return slices.Clone(strictKeywords) }

// strictKeywords is the table StrictKeywords returns (never changed).
var strictKeywords = []string{
	"type", "description", "enum", "const", "properties", "required", "additionalProperties",
	"items", "anyOf", "pattern", "format", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "multipleOf", "minItems", "maxItems", "$defs", "$ref",
}

// SchemaOption changes the schemas OpenAISchemas returns.
type SchemaOption func(*schemaConfig)

type schemaConfig struct{ strict bool }

// Strict asks OpenAISchemas for OpenAI strict-mode schemas: each function
// carries "strict": true and its parameters are StrictSchema's. Call the
// tools with WithNullAsOmitted.
func Strict() SchemaOption { return func(c *schemaConfig) { c.strict = true } }

// StrictSchema returns the OpenAI strict-mode form of schema, a JSON
// Schema as pyjson.DecodeOrdered gives it (schema is not changed):
// every object lists all its properties in required and refuses unknown
// keys, a property that was optional also accepts null (its type gains
// "null", its enum null, its anyOf a {"type": "null"} branch), and keywords
// outside StrictKeywords are dropped.
func StrictSchema(schema any) any { return strictNode(schema) }

func strictNode(v any) any {
	switch n := v.(type) {
	case pyjson.Object:
		return strictObject(n)
	case []any:
		out := make([]any, len(n))
		for i, e := range n {
			out[i] = strictNode(e)
		}
		return out
	}
	return v
}

// strictObject is strictNode of one schema object.
func strictObject(s pyjson.Object) pyjson.Object {
	var required []any
	if r, ok := s.Get("required"); ok {
		required, _ = r.([]any)
	}
	props, hasProps := s.Get("properties")
	t, _ := s.Get("type")
	isObject := hasProps || t == "object"
	out := pyjson.Object{}
	for _, f := range s {
		if !slices.Contains(strictKeywords, f.Key) {
			continue
		}
		switch f.Key {
		case "required":
			continue // rewritten below
		case "additionalProperties":
			if isObject {
				continue // rewritten below
			}
		case "properties":
			p, _ := f.Value.(pyjson.Object)
			np := make(pyjson.Object, 0, len(p))
			for _, pf := range p {
				sub := strictNode(pf.Value)
				if !slices.Contains(required, any(pf.Key)) {
					sub = nullable(sub)
				}
				np = append(np, pyjson.Field{Key: pf.Key, Value: sub})
			}
			out = append(out, pyjson.Field{Key: f.Key, Value: np})
			continue
		case "enum", "const", "$ref":
			out = append(out, f)
			continue
		case "$defs":
			defs, _ := f.Value.(pyjson.Object)
			nd := make(pyjson.Object, 0, len(defs))
			for _, d := range defs {
				nd = append(nd, pyjson.Field{Key: d.Key, Value: strictNode(d.Value)})
			}
			out = append(out, pyjson.Field{Key: f.Key, Value: nd})
			continue
		}
		out = append(out, pyjson.Field{Key: f.Key, Value: strictNode(f.Value)})
	}
	if isObject {
		p, _ := props.(pyjson.Object)
		all := make([]any, 0, len(p))
		for _, pf := range p {
			all = append(all, pf.Key)
		}
		out = append(out, pyjson.Field{Key: "required", Value: all}, pyjson.Field{Key: "additionalProperties", Value: false})
	}
	return out
}

// nullable makes a strict schema accept null too.
func nullable(v any) any {
	s, ok := v.(pyjson.Object)
	if !ok || acceptsNull(s) {
		return v
	}
	if _, isRef := s.Get("$ref"); isRef {
		return pyjson.Object{{Key: "anyOf", Value: []any{s, pyjson.Object{{Key: "type", Value: "null"}}}}}
	}
	out := slices.Clone(s)
	index := func(key string) int {
		return slices.IndexFunc(out, func(f pyjson.Field) bool { return f.Key == key })
	}
	if i := index("anyOf"); i >= 0 {
		branches, _ := out[i].Value.([]any)
		out[i].Value = append(slices.Clone(branches), pyjson.Object{{Key: "type", Value: "null"}})
		return out
	}
	if i := index("type"); i >= 0 {
		switch t := out[i].Value.(type) {
		case string:
			out[i].Value = []any{t, "null"}
		case []any:
			out[i].Value = append(slices.Clone(t), "null")
		}
	}
	if i := index("enum"); i >= 0 {
		values, _ := out[i].Value.([]any)
		out[i].Value = append(slices.Clone(values), nil)
	}
	return out
}

// acceptsNull reports whether schema s (an pyjson.Object or a
// map[string]any, as the two decoders give it) lets null through: untyped,
// a type (or an anyOf branch) of null, or null among its enum values. A
// $ref is not followed and counts as refusing null.
func acceptsNull(s any) bool {
	get := func(key string) (any, bool) {
		switch n := s.(type) {
		case pyjson.Object:
			return n.Get(key)
		case map[string]any:
			v, ok := n[key]
			return v, ok
		}
		return nil, false
	}
	if _, ok := get("$ref"); ok {
		return false // not followed: StrictSchema makes it nullable with anyOf
	}
	if branches, ok := get("anyOf"); ok {
		list, _ := branches.([]any)
		return slices.ContainsFunc(list, acceptsNull)
	}
	switch t, _ := get("type"); t := t.(type) {
	case string:
		if t != "null" {
			return false
		}
	case []any:
		if !slices.Contains(t, any("null")) {
			return false
		}
	}
	if values, ok := get("enum"); ok {
		list, _ := values.([]any)
		return slices.Contains(list, nil)
	}
	return true
}

// omitNulls removes from the arguments object args every key whose value
// is null where schema (the tool's, as the validator decoded it) does not
// require the key and does not accept null, in nested objects and arrays
// of objects too: what an OpenAI strict-mode model sends for an argument it
// leaves out. Other bytes are kept as they are; args is returned unchanged
// when it holds no such null.
func omitNulls(args []byte, schema any) []byte {
	if !bytes.Contains(args, []byte("null")) {
		return args
	}
	s, ok := schema.(map[string]any)
	if !ok {
		return args
	}
	out, changed := omitIn(gjson.ParseBytes(args), s)
	if !changed {
		return args
	}
	return out
}

// omitIn rewrites v (an object or array) against schema s; changed is
// false when nothing was removed (out is then nil).
func omitIn(v gjson.Result, s map[string]any) (out []byte, changed bool) {
	switch {
	case v.IsObject():
		props, _ := s["properties"].(map[string]any)
		required, _ := s["required"].([]any)
		buf := []byte{'{'}
		v.ForEach(func(k, val gjson.Result) bool {
			sub, _ := props[k.Str].(map[string]any)
			if val.Type == gjson.Null && sub != nil && !slices.Contains(required, any(k.Str)) && !acceptsNull(sub) {
				changed = true
				return true
			}
			raw := []byte(val.Raw)
			if sub != nil {
				if inner, ch := omitIn(val, sub); ch {
					raw, changed = inner, true
				}
			}
			if len(buf) > 1 {
				buf = append(buf, ',')
			}
			buf = append(append(append(buf, k.Raw...), ':'), raw...)
			return true
		})
		return append(buf, '}'), changed
	case v.IsArray():
		items, _ := s["items"].(map[string]any)
		if items == nil {
			return nil, false
		}
		buf := []byte{'['}
		v.ForEach(func(_, val gjson.Result) bool {
			raw := []byte(val.Raw)
			if inner, ch := omitIn(val, items); ch {
				raw, changed = inner, true
			}
			if len(buf) > 1 {
				buf = append(buf, ',')
			}
			buf = append(buf, raw...)
			return true
		})
		return append(buf, ']'), changed
	}
	return nil, false
}
