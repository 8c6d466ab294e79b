package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// cellIn is a value that is a string, a number, a boolean or null.
type cellIn any

type sideIn struct {
	Style string `json:"style,omitempty" enum:"${styles}" jsonschema:"Line style"`
}

type keywordsIn struct {
	Path    string     `json:"path" minLength:"1" maxLength:"${maxPath}" jsonschema:"Path, at most ${maxPath} characters"`
	Mode    string     `json:"mode,omitempty" enum:"values,formulas" default:"values" jsonschema:"How cells come back"`
	Count   *int       `json:"count,omitempty" minimum:"1" maximum:"10000" jsonschema:"Rows, default 1"`
	Scale   *float64   `json:"scale,omitempty" minimum:"0.01" maximum:"100" jsonschema:"Factor"`
	Names   []string   `json:"names,omitempty" minItems:"1" maxItems:"255" jsonschema:"Sheet names"`
	Rows    [][]cellIn `json:"rows,omitempty" jsonschema:"Rows of values"`
	Sides   []sideIn   `json:"sides,omitempty" minItems:"1" itemDescription:"One side" jsonschema:"Sides"`
	Value   cellIn     `json:"value,omitempty" jsonschema:"A value"`
	Nothing *sideIn    `json:"nothing,omitempty" jsonschema:"An object"`
}

// keywordsOpts are the options keywordsIn needs.
func keywordsOpts() []registry.TypedOption {
	branches := []*jsonschema.Schema{{Type: "string"}, {Type: "number"}, {Type: "boolean"}, {Type: "null"}}
	return []registry.TypedOption{
		registry.WithTextVars(map[string]string{"styles": "thin,thick", "maxPath": "260"}),
		registry.WithTypeSchema(reflect.TypeFor[cellIn](), &jsonschema.Schema{AnyOf: branches}),
	}
}

// TestInferSchemaCanonical: every tag of the vocabulary lands on its
// keyword, ${name} is expanded, pointers and slices are not nullable, and
// keywords come in canonical order (compared byte for byte with
// testdata/typed_keywords.golden.json; -update rewrites it).
func TestInferSchemaCanonical(t *testing.T) {
	got, err := registry.InferSchema[keywordsIn](keywordsOpts()...)
	require.NoError(t, err)
	path := filepath.Join("testdata", "typed_keywords.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(path, append(got, '\n'), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), string(got)+"\n")
	assert.NotContains(t, string(got), `"null", `, "an optional argument is left out, never null")
}

// TestInferSchemaRefusesBadTags: a tag that cannot be the keyword's value
// is a registration error naming the field.
func TestInferSchemaRefusesBadTags(t *testing.T) {
	cases := []struct {
		name string
		fn   func() error
		want string
	}{
		{"minimum not a number", func() error {
			_, err := registry.InferSchema[struct {
				N int `json:"n" minimum:"one"`
			}]()
			return err
		}, `minimum "one" is not a number`},
		{"count not a count", func() error {
			_, err := registry.InferSchema[struct {
				S string `json:"s" maxLength:"-1"`
			}]()
			return err
		}, `maxLength "-1" is not a count`},
		{"unknown variable", func() error {
			_, err := registry.InferSchema[struct {
				S string `json:"s" jsonschema:"at most ${nope}"`
			}]()
			return err
		}, `unknown text variable "nope"`},
		{"default of the wrong kind", func() error {
			_, err := registry.InferSchema[struct {
				N int `json:"n" default:"x"`
			}]()
			return err
		}, `enum value "x" is not an integer`},
		{"itemDescription off a slice", func() error {
			_, err := registry.InferSchema[struct {
				S string `json:"s" itemDescription:"x"`
			}]()
			return err
		}, "itemDescription tag on a field that is not a slice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.fn()
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// errDecode marks the decode errors TestTypedToolDecoding's tool reports.
var errDecode = errors.New("decode")

// TestTypedToolDecoding: WithExactNumbers keeps every digit of a number in
// an `any` field, and WithDecodeError builds the error of arguments that
// pass the schema but do not decode.
func TestTypedToolDecoding(t *testing.T) {
	type in struct {
		Value any   `json:"value"`
		Small uint8 `json:"small,omitempty"`
	}
	var got any
	fn := func(_ context.Context, a in) (string, error) { got = a.Value; return "ok", nil }
	var seen error
	tool, err := registry.TypedTool(registry.Tool{Name: "t"}, fn, registry.WithExactNumbers(),
		registry.WithDecodeError(func(err error) error { seen = err; return errDecode }))
	require.NoError(t, err)
	_, err = tool.Func(context.Background(), json.RawMessage(`{"value": 12345678901234567890}`))
	require.NoError(t, err)
	assert.Equal(t, json.Number("12345678901234567890"), got)
	_, err = tool.Func(context.Background(), json.RawMessage(`{"value": 1, "small": 300}`))
	assert.ErrorIs(t, err, errDecode)
	var ute *json.UnmarshalTypeError
	assert.ErrorAs(t, seen, &ute, "the mapper sees the decoder's own error")

	plain, err := registry.TypedTool(registry.Tool{Name: "p"}, fn)
	require.NoError(t, err)
	_, err = plain.Func(context.Background(), json.RawMessage(`{"value": 1.5}`))
	require.NoError(t, err)
	assert.Equal(t, 1.5, got, "without WithExactNumbers numbers are float64")
}
