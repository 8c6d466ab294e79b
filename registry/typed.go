package registry

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// TypedOption configures TypedTool and RegisterTyped.
type TypedOption func(*typedConfig)

type typedConfig struct {
	types map[reflect.Type]*jsonschema.Schema
	vars  map[string]string
	// exact decodes numbers into `any` fields as json.Number.
	exact bool
	// decodeErr turns an argument decoding error into the error returned.
	decodeErr func(error) error
}

// WithTextVars gives the values of ${name} in the input struct's tags:
// descriptions, enums and bounds that name a limit or a vocabulary kept in
// code say it once.
func WithTextVars(vars map[string]string) TypedOption {
	return func(c *typedConfig) {
		if c.vars == nil {
			c.vars = map[string]string{}
		}
		for k, v := range vars {
			c.vars[k] = v
		}
	}
}

// WithExactNumbers decodes the numbers of `any` fields as json.Number
// (encoding/json's UseNumber), keeping every digit the caller sent.
func WithExactNumbers() TypedOption {
	return func(c *typedConfig) { c.exact = true }
}

// WithDecodeError makes fn build the error returned when the (schema-
// checked) arguments do not decode into the input struct, instead of a
// ValueError exception.
func WithDecodeError(fn func(error) error) TypedOption {
	return func(c *typedConfig) { c.decodeErr = fn }
}

// WithTypeSchema uses schema for every value of Go type t in the input
// (say, a named string type with an enum), instead of the inferred one.
func WithTypeSchema(t reflect.Type, schema *jsonschema.Schema) TypedOption {
	return func(c *typedConfig) {
		if c.types == nil {
			c.types = map[reflect.Type]*jsonschema.Schema{}
		}
		c.types[t] = schema
	}
}

// TypedTool completes t (name, description, timeout, result cap, ...) with
// an InputSchema inferred from In and a Func that decodes the arguments into
// an In and calls fn. In must be a struct (or a pointer to one). The schema
// follows github.com/google/jsonschema-go's For: exported fields under
// their json names, in field order; fields without omitempty/omitzero are
// required; a `jsonschema:"..."` tag is the field's description; unknown
// fields are refused. Additions: an `enum:"a,b,c"` tag lists the values
// a field (or each item of a slice field) may take, parsed as the field's
// kind (strings, integers, floats, bools); `default`, `minimum`, `maximum`,
// `minLength`, `maxLength`, `minItems` and `maxItems` tags set those
// keywords (typed_schema.go); optional fields (pointers, slices) are left
// out rather than null; keywords are written in one canonical order.
//
// fn's result becomes text as every tool result does: a string is the text
// itself, a json.RawMessage its bytes, anything else is encoded.
func TypedTool[In, Out any](t Tool, fn func(ctx context.Context, in In) (Out, error), opts ...TypedOption) (Tool, error) {
	if fn == nil {
		return Tool{}, fmt.Errorf("typed tool %q: %w: nil function", t.Name, ErrInvalidTool)
	}
	if len(t.InputSchema) != 0 || t.Func != nil {
		return Tool{}, fmt.Errorf("typed tool %q: %w: InputSchema and Func come from the typed function", t.Name, ErrInvalidTool)
	}
	cfg := configure(opts)
	schema, err := InferSchema[In](opts...)
	if err != nil {
		return Tool{}, fmt.Errorf("typed tool %q: %w: %w", t.Name, ErrInvalidTool, err)
	}
	t.InputSchema = schema
	t.Func = func(ctx context.Context, args json.RawMessage) (any, error) {
		var in In
		if err := cfg.decode(args, &in); err != nil {
			if cfg.decodeErr != nil {
				return nil, cfg.decodeErr(err)
			}
			return nil, errorsjson.ExceptionFrom("ValueError", "arguments do not decode into "+reflect.TypeFor[In]().String()+": "+err.Error(), err)
		}
		return fn(ctx, in)
	}
	return t, nil
}

// configure applies opts.
func configure(opts []TypedOption) *typedConfig {
	cfg := &typedConfig{}
	for _, o := range opts {
		o(cfg)
	}
	return cfg
}

// decode decodes args into v, numbers as json.Number when c.exact.
func (c *typedConfig) decode(args json.RawMessage, v any) error {
	if !c.exact {
		return json.Unmarshal(args, v)
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	return dec.Decode(v)
}

// RegisterTyped builds a typed tool (TypedTool) and registers it on r.
func RegisterTyped[In, Out any](r *Registry, t Tool, fn func(ctx context.Context, in In) (Out, error), opts ...TypedOption) error {
	tool, err := TypedTool(t, fn, opts...)
	if err != nil {
		return err
	}
	return r.Register(tool)
}

// InferSchema is the input schema TypedTool derives from In (a struct or
// a pointer to one), as JSON with its keywords in canonical order.
func InferSchema[In any](opts ...TypedOption) (json.RawMessage, error) {
	cfg := configure(opts)
	rt := reflect.TypeFor[In]()
	for rt.Kind() == reflect.Pointer {
		rt = rt.Elem()
	}
	if rt.Kind() != reflect.Struct {
		return nil, fmt.Errorf("input type %s is not a struct: tool arguments are a JSON object", rt)
	}
	s, err := jsonschema.ForType(rt, &jsonschema.ForOptions{TypeSchemas: cfg.types})
	if err != nil {
		return nil, err
	}
	dropNulls(s)
	if err := applyTags(rt, s, cfg, map[reflect.Type]bool{}); err != nil {
		return nil, err
	}
	raw, err := canonicalJSON(s)
	if err != nil {
		return nil, err
	}
	// Written as json.dumps writes it, like every schema a model reads.
	return pyjson.Marshal(json.RawMessage(raw))
}

// jsonName is the property name encoding/json gives field f ("" when it
// is skipped or unexported).
func jsonName(f reflect.StructField) string {
	if !f.IsExported() {
		return ""
	}
	tag := f.Tag.Get("json")
	if tag == "-" {
		return ""
	}
	if name, _, _ := strings.Cut(tag, ","); name != "" {
		return name
	}
	return f.Name
}

// enumValues parses a comma-separated enum tag as values of kind t.
func enumValues(tag string, t reflect.Type) ([]any, error) {
	parts := strings.Split(tag, ",")
	out := make([]any, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		switch t.Kind() {
		case reflect.String:
			out = append(out, p)
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
			reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			n, err := strconv.ParseInt(p, 10, 64)
			if err != nil {
				return nil, fmt.Errorf("enum value %q is not an integer", p)
			}
			out = append(out, n)
		case reflect.Float32, reflect.Float64:
			n, err := strconv.ParseFloat(p, 64)
			if err != nil {
				return nil, fmt.Errorf("enum value %q is not a number", p)
			}
			out = append(out, n)
		case reflect.Bool:
			b, err := strconv.ParseBool(p)
			if err != nil {
				return nil, fmt.Errorf("enum value %q is not a bool", p)
			}
			out = append(out, b)
		default:
			return nil, fmt.Errorf("enum tag on a %s field", t)
		}
	}
	return out, nil
}
