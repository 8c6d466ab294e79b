package registry_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// benchSchema is the 3-field schema of the CallTool benchmark.
const benchSchema = `{"type": "object", "properties": {"file_path": {"type": "string", "minLength": 1}, "row": {"type": "integer", "minimum": 1}, "dry_run": {"type": "boolean"}}, "required": ["file_path", "row"], "additionalProperties": false}`

// BenchmarkCallTool measures the registry overhead of one call: scope,
// lookup, argument decoding, schema validation, deadline, recover, encoding.
func BenchmarkCallTool(b *testing.B) {
	reg := registry.New()
	ok := pyjson.Object{{Key: "status", Value: "success"}}
	require.NoError(b, reg.Register(registry.Tool{
		Name:        "trivial",
		InputSchema: json.RawMessage(benchSchema),
		Func:        func(context.Context, json.RawMessage) (any, error) { return ok, nil },
	}))
	args := []byte(`{"file_path": "data/销售.xlsx", "row": 12, "dry_run": false}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res := reg.CallTool(ctx, "trivial", args)
		if res.IsError {
			b.Fatal(res.Text)
		}
	}
}

// BenchmarkValidationFailure measures a refused call in each profile (the
// excelmanus walk plus the validator against the validator alone), side by
// side in one run: go test ./registry -run '^$' -bench ValidationFailure.
func BenchmarkValidationFailure(b *testing.B) {
	args := []byte(`{"row": 0, "dry_run": "no", "extra": 1}`)
	for _, p := range registry.Profiles() {
		b.Run(string(p), func(b *testing.B) {
			reg := registry.New(registry.WithProfile(p))
			require.NoError(b, reg.Register(registry.Tool{
				Name:        "trivial",
				InputSchema: json.RawMessage(benchSchema),
				Func:        func(context.Context, json.RawMessage) (any, error) { return "ok", nil },
			}))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				if res := reg.CallTool(ctx, "trivial", args); !res.IsError {
					b.Fatal(res.Text)
				}
			}
		})
	}
}

// BenchmarkResultText compares a Go string result (the text itself) with
// the same text returned as an object field (encoded): the str() path
// costs no encoding.
func BenchmarkResultText(b *testing.B) {
	text := "已写入 A1:B2，共 4 个单元格。"
	for name, fn := range map[string]registry.Func{
		"string": func(context.Context, json.RawMessage) (any, error) { return text, nil },
		"object": func(context.Context, json.RawMessage) (any, error) {
			return pyjson.Object{{Key: "status", Value: "success"}, {Key: "message", Value: text}}, nil
		},
	} {
		b.Run(name, func(b *testing.B) {
			reg := registry.New()
			require.NoError(b, reg.Register(registry.Tool{Name: "t", Func: fn}))
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				reg.CallTool(ctx, "t", nil)
			}
		})
	}
}
