package registry_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/sirupsen/logrus"
	logtest "github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// update rewrites testdata/call_*.golden: go test ./registry -run Golden -update.
// tests/vectors/generate.py --check proves each is Python's json.dumps.
var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// shortTimeout is the per-call deadline of the timeout cases: long enough
// for a trivial tool on a loaded machine, short enough to keep tests fast.
const shortTimeout = 50 * time.Millisecond

// strictSchema exercises every validation keyword the registry supports.
const strictSchema = `{
  "type": "object",
  "properties": {
    "file_path": {"type": "string", "minLength": 1, "maxLength": 8},
    "count": {"type": "integer", "minimum": 1, "maximum": 10},
    "mode": {"type": "string", "enum": ["read", "write"]},
    "code": {"type": "string", "pattern": "^[A-Z]{2}[0-9]+$"},
    "a": {"type": "object", "properties": {"b": {"type": "array", "items": {"type": "integer"}}}}
  },
  "required": ["file_path", "count"],
  "additionalProperties": false
}`

// styledSchema has a nested object that refuses unknown keys, the shape a
// model guesses wrong in format_cells.
const styledSchema = `{
  "type": "object",
  "properties": {
    "cell_range": {"type": "string"},
    "format": {"type": "object", "properties": {"bold": {"type": "boolean"}, "fill": {"type": "string"}, "number_format": {"type": "string"}}, "additionalProperties": false}
  },
  "required": ["cell_range"],
  "additionalProperties": false
}`

// testRegistry builds the tools of the CallTool table. release unblocks the
// tool that ignores its context once the test is over.
func testRegistry(t *testing.T) *registry.Registry {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	reg := registry.New()
	ok := func(context.Context, json.RawMessage) (any, error) {
		return pyjson.Object{{Key: "status", Value: "success"}, {Key: "结果", Value: "完成 😀"}}, nil
	}
	tools := []registry.Tool{
		{Name: "strict", Description: "validates", InputSchema: json.RawMessage(strictSchema), Func: ok},
		{Name: "open_object", Func: func(_ context.Context, args json.RawMessage) (any, error) {
			return json.RawMessage(args), nil
		}},
		{Name: "fails", Func: func(context.Context, json.RawMessage) (any, error) {
			return nil, fmt.Errorf("open 销售.xlsx: %w", fs.ErrNotExist)
		}},
		{Name: "fatal", Func: func(context.Context, json.RawMessage) (any, error) {
			return nil, errorsjson.Fatal(errorsjson.Exception("RuntimeError", "workbook is corrupt"))
		}},
		{Name: "panic_string", Func: func(context.Context, json.RawMessage) (any, error) { panic("boom") }},
		{Name: "panic_error", Func: func(context.Context, json.RawMessage) (any, error) {
			panic(fmt.Errorf("wrapped: %w", fs.ErrClosed))
		}},
		{Name: "panic_nil_deref", Func: func(context.Context, json.RawMessage) (any, error) {
			var m *struct{ n int }
			return m.n, nil
		}},
		{Name: "ignores_ctx", Func: func(context.Context, json.RawMessage) (any, error) {
			<-release
			return "late", nil
		}},
		{Name: "returns_ctx_err", Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			<-ctx.Done()
			return nil, ctx.Err()
		}},
		{Name: "fallback", Func: func(context.Context, json.RawMessage) (any, error) {
			return nil, &errorsjson.FallbackRequest{To: errorsjson.FallbackChatService, Reason: "PREVIEW_MODE"}
		}},
		{Name: "own_timeout", Func: func(context.Context, json.RawMessage) (any, error) {
			return nil, fmt.Errorf("waiting for lock: %w", context.DeadlineExceeded)
		}},
		{Name: "unencodable", Func: func(context.Context, json.RawMessage) (any, error) { return make(chan int), nil }},
		{Name: "styled", InputSchema: json.RawMessage(styledSchema), Func: ok},
		{Name: "text", Func: func(context.Context, json.RawMessage) (any, error) {
			return "已写入 3 个单元格\n\"A1\": 'x'", nil
		}},
		{Name: "raw_padded", Func: func(context.Context, json.RawMessage) (any, error) {
			return json.RawMessage(`{"a": 1,  "b":[1,2]}`), nil
		}},
		{Name: "raw_invalid", Func: func(context.Context, json.RawMessage) (any, error) {
			return json.RawMessage(`{"a": `), nil
		}},
		{Name: "goexit", Func: func(context.Context, json.RawMessage) (any, error) {
			runtime.Goexit()
			return "unreachable", nil
		}},
	}
	for _, tool := range tools {
		require.NoError(t, reg.Register(tool))
	}
	return reg
}

func TestCallToolGolden(t *testing.T) {
	reg := testRegistry(t)
	valid := `{"file_path": "a.xlsx", "count": 3}`
	tests := []struct {
		name    string
		tool    string
		args    string
		opts    []registry.CallOption
		cancel  bool // cancel the caller's context while the tool runs
		code    errorsjson.Code
		isError bool
	}{
		{name: "success", tool: "strict", args: valid},
		{name: "success_multibyte_within_code_points", tool: "strict", args: `{"file_path": "销售.xlsx", "count": 1}`},
		{name: "success_multibyte_8_code_points", tool: "strict", args: `{"file_path": "销售数据表格😀é", "count": 1}`},
		{name: "unknown_tool", tool: "nope", args: valid, code: errorsjson.CodeNotFound, isError: true},
		{name: "scope_refused", tool: "strict", args: valid, opts: []registry.CallOption{registry.WithScope([]string{"fails"})}, code: errorsjson.CodeNotAllowed, isError: true},
		{name: "scope_checked_before_lookup", tool: "nope", args: valid, opts: []registry.CallOption{registry.WithScope([]string{"strict"})}, code: errorsjson.CodeNotAllowed, isError: true},
		{name: "empty_scope_allows_nothing", tool: "strict", args: valid, opts: []registry.CallOption{registry.WithScope([]string{})}, code: errorsjson.CodeNotAllowed, isError: true},
		{name: "scope_allows", tool: "strict", args: valid, opts: []registry.CallOption{registry.WithScope([]string{"strict"})}},
		{name: "malformed_json", tool: "strict", args: `{"file_path": `, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "not_object_array", tool: "strict", args: `[1, 2]`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "not_object_string", tool: "open_object", args: `"x"`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "not_object_null", tool: "open_object", args: `null`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "empty_args_are_empty_object", tool: "open_object", args: ``},
		{name: "missing_required", tool: "strict", args: `{}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "wrong_type", tool: "strict", args: `{"file_path": 5, "count": "3"}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "enum", tool: "strict", args: `{"file_path": "a", "count": 1, "mode": "delete"}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "minimum", tool: "strict", args: `{"file_path": "a", "count": 0}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "maximum", tool: "strict", args: `{"file_path": "a", "count": 11}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "min_length", tool: "strict", args: `{"file_path": "", "count": 1}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "max_length_code_points", tool: "strict", args: `{"file_path": "销售数据表格😀éX", "count": 1}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "pattern", tool: "strict", args: `{"file_path": "a", "count": 1, "code": "ab12"}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "additional_properties", tool: "strict", args: `{"file_path": "a", "count": 1, "sheet": "S1", "extra": 1}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "nested_path", tool: "strict", args: `{"file_path": "a", "count": 1, "a": {"b": [1, 2, "three"]}}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "many_violations", tool: "strict", args: `{"file_path": "", "count": 0, "mode": 1, "code": "x", "a": {"b": ["1", "2", "3"]}, "z": 1}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "tool_error", tool: "fails", args: `{}`, code: errorsjson.CodeExecution, isError: true},
		{name: "tool_error_fatal", tool: "fatal", args: `{}`, code: errorsjson.CodeFatal, isError: true},
		{name: "panic_string", tool: "panic_string", args: `{}`, code: errorsjson.CodeInternal, isError: true},
		{name: "panic_error", tool: "panic_error", args: `{}`, code: errorsjson.CodeInternal, isError: true},
		{name: "panic_nil_deref", tool: "panic_nil_deref", args: `{}`, code: errorsjson.CodeInternal, isError: true},
		// Without the Goexit guard this would wait out the 60 s default
		// deadline and answer TOOL_TIMEOUT.
		{name: "tool_goexit", tool: "goexit", args: `{}`, code: errorsjson.CodeInternal, isError: true},
		{name: "deadline_tool_ignores_ctx", tool: "ignores_ctx", args: `{}`, opts: []registry.CallOption{registry.WithTimeout(shortTimeout)}, code: errorsjson.CodeTimeout, isError: true},
		{name: "deadline_tool_returns_ctx_err", tool: "returns_ctx_err", args: `{}`, opts: []registry.CallOption{registry.WithTimeout(shortTimeout)}, code: errorsjson.CodeTimeout, isError: true},
		{name: "caller_deadline", tool: "ignores_ctx", args: `{}`, code: errorsjson.CodeTimeout, isError: true},
		{name: "cancelled_by_caller", tool: "ignores_ctx", args: `{}`, cancel: true, code: errorsjson.CodeCancelled, isError: true},
		{name: "cancelled_tool_returns_ctx_err", tool: "returns_ctx_err", args: `{}`, cancel: true, code: errorsjson.CodeCancelled, isError: true},
		{name: "tool_own_timeout_is_execution_error", tool: "own_timeout", args: `{}`, code: errorsjson.CodeExecution, isError: true},
		{name: "fallback_request", tool: "fallback", args: `{}`},
		{name: "result_not_encodable", tool: "unencodable", args: `{}`, code: errorsjson.CodeExecution, isError: true},
		{name: "raw_result_reencoded", tool: "open_object", args: `{"z":1,"a":[1.0,"表"],"n":null}`},
		{name: "raw_result_not_compact_unchanged", tool: "raw_padded", args: `{}`},
		{name: "raw_result_invalid", tool: "raw_invalid", args: `{}`, code: errorsjson.CodeExecution, isError: true},
		{name: "string_result_is_the_text", tool: "text", args: `{}`},
		{name: "nested_unknown_keys", tool: "styled", args: `{"cell_range": "A1", "format": {"font": {"bold": true}, "bold": "yes", "color": "red"}}`, code: errorsjson.CodeArgumentValidation, isError: true},
		{name: "root_unknown_keys_only", tool: "styled", args: `{"cell_range": "A1", "fmt": {}}`, code: errorsjson.CodeArgumentValidation, isError: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			if tc.name == "caller_deadline" {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, shortTimeout)
				defer cancel()
			}
			if tc.cancel {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(shortTimeout, cancel)
				defer cancel()
			}
			res := reg.CallTool(ctx, tc.tool, []byte(tc.args), tc.opts...)
			assert.Equal(t, tc.isError, res.IsError)
			assert.Equal(t, tc.code, res.Code)
			assert.Equal(t, tc.tool == "fallback", res.Fallback)
			assert.Positive(t, res.Elapsed)
			checkGolden(t, "call_"+tc.name, res.Text)
			if !englishGolden[tc.name] {
				return
			}
			en := reg.CallTool(ctx, tc.tool, []byte(tc.args), append(tc.opts, registry.WithCallProfile(registry.ProfileEnglish))...)
			assert.Equal(t, tc.code, en.Code)
			checkGolden(t, "call_en_"+tc.name, en.Text)
		})
	}
}

// englishGolden names the cases whose texts the profile words: each also
// has a call_en_* golden of the en profile.
var englishGolden = map[string]bool{
	"unknown_tool": true, "scope_refused": true, "malformed_json": true, "not_object_array": true,
	"missing_required": true, "wrong_type": true, "enum": true, "pattern": true, "additional_properties": true,
	"nested_path": true, "many_violations": true, "nested_unknown_keys": true, "root_unknown_keys_only": true,
	"raw_result_reencoded": true, "raw_result_invalid": true, "raw_result_not_compact_unchanged": true, "string_result_is_the_text": true,
}

// TestCallToolCancelledBeforeStart: a caller that already gave up gets
// the cancelled payload.
func TestCallToolCancelledBeforeStart(t *testing.T) {
	reg := testRegistry(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res := reg.CallTool(ctx, "returns_ctx_err", []byte(`{}`))
	assert.Equal(t, errorsjson.CodeCancelled, res.Code)
}

func TestCallToolTimeoutSources(t *testing.T) {
	seen := make(chan time.Duration, 1)
	deadlineOf := func(ctx context.Context, _ json.RawMessage) (any, error) {
		d, ok := ctx.Deadline()
		if !ok {
			return nil, errors.New("no deadline")
		}
		seen <- time.Until(d)
		return "ok", nil
	}
	tests := []struct {
		name    string
		regOpts []registry.Option
		tool    time.Duration
		call    []registry.CallOption
		atMost  time.Duration
		atLeast time.Duration
	}{
		{"registry default", []registry.Option{registry.WithDefaultTimeout(time.Hour), registry.WithMaxTimeout(2 * time.Hour)}, 0, nil, time.Hour, 59 * time.Minute},
		{"tool default", nil, 3 * time.Second, nil, 3 * time.Second, 2 * time.Second},
		{"caller override", nil, 3 * time.Second, []registry.CallOption{registry.WithTimeout(time.Minute)}, time.Minute, 59 * time.Second},
		{"server maximum caps the caller", []registry.Option{registry.WithMaxTimeout(5 * time.Second)}, 0, []registry.CallOption{registry.WithTimeout(time.Hour)}, 5 * time.Second, 4 * time.Second},
		{"operator call timeout replaces a longer tool default", []registry.Option{registry.WithCallTimeout(2 * time.Second)}, 5 * time.Minute, nil, 2 * time.Second, time.Second},
		{"operator call timeout replaces a shorter tool default", []registry.Option{registry.WithCallTimeout(time.Hour), registry.WithMaxTimeout(2 * time.Hour)}, time.Second, nil, time.Hour, 59 * time.Minute},
		{"caller overrides the operator call timeout", []registry.Option{registry.WithCallTimeout(2 * time.Second)}, 5 * time.Minute, []registry.CallOption{registry.WithTimeout(time.Minute)}, time.Minute, 59 * time.Second},
		{"server maximum caps the operator call timeout", []registry.Option{registry.WithCallTimeout(time.Hour), registry.WithMaxTimeout(5 * time.Second)}, 0, nil, 5 * time.Second, 4 * time.Second},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registry.New(tc.regOpts...)
			require.NoError(t, reg.Register(registry.Tool{Name: "d", Func: deadlineOf, Timeout: tc.tool}))
			res := reg.CallTool(context.Background(), "d", nil, tc.call...)
			require.False(t, res.IsError, res.Text)
			got := <-seen
			assert.LessOrEqual(t, got, tc.atMost)
			assert.GreaterOrEqual(t, got, tc.atLeast)
		})
	}
}

func TestCallToolResultLimit(t *testing.T) {
	limitOf := func(ctx context.Context, _ json.RawMessage) (any, error) {
		n, ok := registry.ResultLimit(ctx)
		return fmt.Sprintf("%d %v", n, ok), nil
	}
	tests := []struct {
		name    string
		regOpts []registry.Option
		tool    int
		want    string
	}{
		{"registry default", nil, 0, "3000 true"},
		{"registry option", []registry.Option{registry.WithMaxResultChars(500)}, 0, "500 true"},
		{"tool's own cap", []registry.Option{registry.WithMaxResultChars(500)}, 80, "80 true"},
		{"no cap", []registry.Option{registry.WithMaxResultChars(-1)}, 0, "0 false"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := registry.New(tc.regOpts...)
			require.NoError(t, reg.Register(registry.Tool{Name: "l", Func: limitOf, MaxResultChars: tc.tool}))
			res := reg.CallTool(context.Background(), "l", nil)
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, tc.want, strings.Trim(res.Text, `"`))
		})
	}
	_, ok := registry.ResultLimit(context.Background())
	assert.False(t, ok, "a context CallTool did not make has no cap")
}

func TestCallToolProgress(t *testing.T) {
	reg := registry.New()
	require.NoError(t, reg.Register(registry.Tool{Name: "p", Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
		for i := range 3 {
			registry.ReportProgress(ctx, float64(i+1), 3, fmt.Sprintf("step %d", i+1))
		}
		return "done", nil
	}}))
	var got []string
	res := reg.CallTool(context.Background(), "p", nil, registry.WithProgress(func(p, total float64, msg string) {
		got = append(got, fmt.Sprintf("%g/%g %s", p, total, msg))
	}))
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []string{"1/3 step 1", "2/3 step 2", "3/3 step 3"}, got)
	// Without a receiver, reporting is a no-op.
	assert.NotPanics(t, func() { registry.ReportProgress(context.Background(), 1, 1, "x") })
}

func TestCallToolGoldenTruncated(t *testing.T) {
	reg := registry.New(registry.WithMaxResultChars(400))
	rows := make([]any, 50)
	for i := range rows {
		rows[i] = []any{i, "数据😀"}
	}
	require.NoError(t, reg.Register(registry.Tool{Name: "big", Func: func(context.Context, json.RawMessage) (any, error) {
		return pyjson.Object{{Key: "status", Value: "success"}, {Key: "rows", Value: rows}}, nil
	}}))
	require.NoError(t, reg.Register(registry.Tool{Name: "uncapped", MaxResultChars: -1, Func: func(context.Context, json.RawMessage) (any, error) {
		return rows, nil
	}}))
	res := reg.CallTool(context.Background(), "big", nil)
	assert.False(t, res.IsError)
	checkGolden(t, "call_truncated_list", res.Text)
	res = reg.CallTool(context.Background(), "big", nil, registry.WithCallProfile(registry.ProfileEnglish))
	checkGolden(t, "call_en_truncated_list", res.Text)
	res = reg.CallTool(context.Background(), "uncapped", nil)
	full, err := pyjson.MarshalString(rows)
	require.NoError(t, err)
	assert.Equal(t, full, res.Text)
}

// textGoldens are results that are not json.dumps text (a string result,
// raw JSON passed through): stored as .txt, which generate.py --check
// leaves alone.
var textGoldens = map[string]bool{
	"call_string_result_is_the_text": true, "call_en_string_result_is_the_text": true,
	"call_raw_result_not_compact_unchanged": true, "call_en_raw_result_not_compact_unchanged": true,
	"call_en_raw_result_reencoded": true,
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if textGoldens[name] {
		path = filepath.Join("testdata", name+".txt")
	}
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run `go test ./registry -run Golden -update`")
	assert.Equal(t, string(want), got)
}

// TestCallToolPanicStackLoggedNotSent: a panic's stack goes to the injected
// logger at error level and never into the payload the model reads.
func TestCallToolPanicStackLoggedNotSent(t *testing.T) {
	log, hook := logtest.NewNullLogger()
	reg := registry.New(registry.WithLogger(log))
	require.NoError(t, reg.Register(registry.Tool{Name: "boom", Func: func(context.Context, json.RawMessage) (any, error) {
		var m map[string]int
		//lint:ignore SA5000 the panic is the point of this tool
		m["x"] = 1 // assignment to entry in nil map
		return nil, nil
	}}))
	res := reg.CallTool(context.Background(), "boom", []byte(`{"secret": "s3cr3t"}`))
	require.Equal(t, errorsjson.CodeInternal, res.Code, res.Text)
	assert.NotContains(t, res.Text, "goroutine")
	assert.NotContains(t, res.Text, "call_test.go")
	entries := hook.AllEntries()
	require.Len(t, entries, 1)
	assert.Equal(t, logrus.ErrorLevel, entries[0].Level)
	assert.Equal(t, "boom", entries[0].Data["tool"])
	assert.Contains(t, entries[0].Data["stack"], "call_test.go", "the stack names the panicking line")
	for _, e := range entries {
		assert.NotContains(t, fmt.Sprint(e.Data), "s3cr3t", "argument values are never logged")
	}
}
