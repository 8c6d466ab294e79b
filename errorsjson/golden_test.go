package errorsjson_test

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// update rewrites testdata/*.golden: go test ./errorsjson -run Golden -update.
// tests/vectors/generate.py --check then proves each file is what Python's
// json.dumps writes for the same value.
var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// checkGolden compares got with testdata/<name>.golden, or rewrites it.
func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run `go test ./errorsjson -run Golden -update`")
	assert.Equal(t, string(want), string(got))
}

// TestGoldenPayloads pins one golden file per payload shape: every row of
// the error-code table, the validation shape and the fallback shape.
func TestGoldenPayloads(t *testing.T) {
	missing := fmt.Errorf("open 销售.xlsx: %w", fs.ErrNotExist)
	tests := []struct {
		name    string
		payload any
	}{
		{"execution_error", errorsjson.Execution("write_cells", missing)},
		{"execution_error_no_cause", errorsjson.Execution("write_cells", errorsjson.Exception("KeyError", "'Sheet9'"))},
		{"fatal_error", errorsjson.Execution("save", errorsjson.Fatal(errorsjson.ExceptionFrom("OSError", "disk full \"/tmp\"", errors.New("ENOSPC"))))},
		{"argument_validation_error", errorsjson.Validation("write_cells",
			[]string{"$: missing property 'file_path'", "$.row: minimum: got 0, want 1", "$.cells[2]: got string, want array"},
			[]string{"file_path", "row"}, []string{"cells", "file_path", "row"}, []string{"cells", "row"})},
		{"argument_validation_error_not_object", errorsjson.Validation("t", []string{"$: arguments must be a JSON object, got array"}, nil, nil, nil)},
		{"not_found", errorsjson.NotFound("no_such_tool")},
		{"not_allowed", errorsjson.NotAllowed("delete_sheet")},
		{"timeout", errorsjson.Timeout("read_excel", fmt.Errorf("tool '%s' timed out", "read_excel"))},
		{"cancelled", errorsjson.Cancelled("read_excel")},
		{"internal_error", errorsjson.Internal("format_cells", "index out of range [3] with length 3")},
		{"unavailable", errorsjson.Unavailable("list_sheets", errors.New("sidecar exited: signal: killed"))},
		{"fallback", errorsjson.Fallback("create_excel_chart", &errorsjson.FallbackRequest{To: errorsjson.FallbackChatService, Reason: "PREVIEW_MODE"})},
		{"timeout_from_context", errorsjson.Execution("t", fmt.Errorf("waiting for lock: %w", context.DeadlineExceeded))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := pyjson.Marshal(tc.payload)
			require.NoError(t, err)
			checkGolden(t, tc.name, got)
		})
	}
}
