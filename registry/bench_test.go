package registry_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// benchSchema is the 3-field schema of issue 2's CallTool benchmark.
const benchSchema = `{"type": "object", "properties": {"file_path": {"type": "string", "minLength": 1}, "row": {"type": "integer", "minimum": 1}, "dry_run": {"type": "boolean"}}, "required": ["file_path", "row"], "additionalProperties": false}`

// BenchmarkCallTool measures the registry overhead of one call: scope,
// lookup, argument decoding, schema validation, deadline, recover, encoding.
func BenchmarkCallTool(b *testing.B) {
	reg := registry.New()
	ok := errorsjson.Object{{Key: "status", Value: "success"}}
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
