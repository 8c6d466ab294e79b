package testtools_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

func newRegistry(t *testing.T, opts ...registry.Option) *registry.Registry {
	t.Helper()
	reg := registry.New(opts...)
	require.NoError(t, testtools.Register(reg))
	return reg
}

// TestTools pins every test tool's payload through the registry.
func TestTools(t *testing.T) {
	reg := newRegistry(t)
	for _, tc := range []struct {
		name, tool, args string
		code             errorsjson.Code
		want             string
	}{
		{"echo object", "echo", `{"value":{"b":1,"a":[true,null,1.5]}}`, "", `{"status": "success", "value": {"b": 1, "a": [true, null, 1.5]}}`},
		{"add", "add", `{"a":9007199254740993,"b":-3,"note":"n"}`, "", `{"status": "success", "sum": 9007199254740990}`},
		{"add extra field", "add", `{"a":1,"b":2,"c":3}`, errorsjson.CodeArgumentValidation, ""},
		{"add long note", "add", `{"a":1,"b":2,"note":"` + strings.Repeat("n", testtools.MaxNoteLength+1) + `"}`, errorsjson.CodeArgumentValidation, ""},
		{"sleep 0", "sleep", `{"ms":0}`, "", `{"status": "success", "slept_ms": 0}`},
		{"sleep too long", "sleep", `{"ms":600001}`, errorsjson.CodeArgumentValidation, ""},
		{"fail with cause", "fail", `{"exception":"KeyError","message":"m","cause":"c"}`, errorsjson.CodeExecution, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "fail", "exception": "KeyError", "message": "m", "cause": "c"}`},
		{"fail without cause", "fail", `{"exception":"ValueError","message":"m"}`, errorsjson.CodeExecution, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "fail", "exception": "ValueError", "message": "m"}`},
		{"fail fatal", "fail", `{"exception":"OSError","message":"m","fatal":true}`, errorsjson.CodeFatal, `{"status": "error", "error_code": "TOOL_FATAL_ERROR", "tool": "fail", "exception": "OSError", "message": "m"}`},
		{"panic string", "panic", `{"kind":"string"}`, errorsjson.CodeInternal, `{"status": "error", "error_code": "TOOL_INTERNAL_ERROR", "tool": "panic", "exception": "RuntimeError", "message": "tool panicked: test tool panicked with a string"}`},
		{"panic error", "panic", `{"kind":"error"}`, errorsjson.CodeInternal, `{"status": "error", "error_code": "TOOL_INTERNAL_ERROR", "tool": "panic", "exception": "RuntimeError", "message": "tool panicked: test tool panicked with an error"}`},
		{"panic nil", "panic", `{"kind":"nil"}`, errorsjson.CodeInternal, ""},
		{"fallback", "fallback", `{"to":"CHAT_SERVICE","reason":"R"}`, "", `{"status": "fallback", "error": "FALLBACK_REQUIRED", "tool": "fallback", "use_fallback": true, "fallback_to": "CHAT_SERVICE", "reason": "R"}`},
		{"big", "big", `{"items":3,"text":"é"}`, "", `{"status": "success", "items": ["é", "é", "é"]}`},
		{"env not_found", "env_error", `{"kind":"not_found"}`, errorsjson.CodeExecution, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "env_error", "exception": "FileNotFoundError", "message": "open missing.xlsx: file does not exist", "cause": "file does not exist"}`},
		{"env permission", "env_error", `{"kind":"permission"}`, errorsjson.CodeExecution, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "env_error", "exception": "PermissionError", "message": "open locked.xlsx: permission denied", "cause": "permission denied"}`},
		{"env exists", "env_error", `{"kind":"exists"}`, errorsjson.CodeExecution, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "env_error", "exception": "FileExistsError", "message": "mkdir book.xlsx: file already exists", "cause": "file already exists"}`},
		{"env value", "env_error", `{"kind":"value"}`, errorsjson.CodeExecution, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := reg.CallTool(context.Background(), tc.tool, []byte(tc.args))
			assert.Equal(t, tc.code, res.Code, res.Text)
			assert.Equal(t, tc.code != "", res.IsError)
			if tc.want != "" {
				assert.Equal(t, tc.want, res.Text)
			}
		})
	}
}

// TestEnvTimeout: the timeout family is named TimeoutError (the registry
// decides whether a tool's own deadline error is TOOL_TIMEOUT or an
// execution error).
func TestEnvTimeout(t *testing.T) {
	reg := newRegistry(t)
	res := reg.CallTool(context.Background(), "env_error", []byte(`{"kind":"timeout"}`))
	require.True(t, res.IsError)
	assert.Contains(t, []errorsjson.Code{errorsjson.CodeTimeout, errorsjson.CodeExecution}, res.Code)
	assert.Contains(t, res.Text, `"exception": "TimeoutError"`)
}

// TestBigRespectsMaxResultChars: the registry cap applies to big.
func TestBigRespectsMaxResultChars(t *testing.T) {
	reg := newRegistry(t, registry.WithMaxResultChars(200))
	res := reg.CallTool(context.Background(), "big", []byte(`{"items":100,"text":"0123456789"}`))
	require.False(t, res.IsError, res.Text)
	assert.LessOrEqual(t, len([]rune(res.Text)), 200)
}

// TestSleepProgressAndCancel: sleep reports progress every 10% and stops
// on cancellation.
func TestSleepProgressAndCancel(t *testing.T) {
	reg := newRegistry(t)
	var mu sync.Mutex
	var seen []float64
	res := reg.CallTool(context.Background(), "sleep", []byte(`{"ms":50}`), registry.WithProgress(func(p, total float64, _ string) {
		mu.Lock()
		defer mu.Unlock()
		seen = append(seen, p)
		assert.Equal(t, 50.0, total)
	}))
	require.False(t, res.IsError, res.Text)
	mu.Lock()
	assert.Equal(t, []float64{5, 10, 15, 20, 25, 30, 35, 40, 45, 50}, seen)
	mu.Unlock()

	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	res = reg.CallTool(ctx, "sleep", []byte(`{"ms":60000}`))
	assert.Equal(t, errorsjson.CodeCancelled, res.Code)
	assert.Less(t, time.Since(start), 10*time.Second)
}

// ExampleRegister registers the test tools and calls add.
func ExampleRegister() {
	reg := registry.New()
	if err := testtools.Register(reg); err != nil {
		panic(err)
	}
	res := reg.CallTool(context.Background(), "add", []byte(`{"a": 2, "b": 3}`))
	fmt.Println(res.Text)
	// Output: {"status": "success", "sum": 5}
}
