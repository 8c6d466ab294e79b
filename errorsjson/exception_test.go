package errorsjson_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// named implements PythonExceptioner directly.
type named struct{}

func (named) Error() string           { return "bad key" }
func (named) PythonException() string { return "LookupError" }

func TestExceptionName(t *testing.T) {
	_, statErr := os.Stat("/definitely/not/here")
	_, numErr := strconv.Atoi("x1")
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"explicit Exception", errorsjson.Exception("KeyError", "'a'"), "KeyError"},
		{"explicit wrapped", fmt.Errorf("ctx: %w", errorsjson.Exception("IndexError", "i")), "IndexError"},
		{"interface", named{}, "LookupError"},
		{"name beats mapping", errorsjson.ExceptionFrom("OSError", "x", fs.ErrNotExist), "OSError"},
		{"os.Stat not exist", statErr, "FileNotFoundError"},
		{"fs.ErrNotExist wrapped", fmt.Errorf("open: %w", fs.ErrNotExist), "FileNotFoundError"},
		{"fs.ErrPermission", fmt.Errorf("write: %w", fs.ErrPermission), "PermissionError"},
		{"fs.ErrExist", fs.ErrExist, "FileExistsError"},
		{"deadline", fmt.Errorf("lock: %w", context.DeadlineExceeded), "TimeoutError"},
		{"canceled", context.Canceled, "CancelledError"},
		{"strconv", numErr, "ValueError"},
		{"invalid argument", fmt.Errorf("row 0: %w", errorsjson.ErrInvalidArgument), "ValueError"},
		{"fatal keeps name", errorsjson.Fatal(fs.ErrPermission), "PermissionError"},
		{"unsupported value", &pyjson.UnsupportedValueError{Type: "chan int"}, "TypeError"},
		{"plain", errors.New("boom"), "Exception"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, errorsjson.ExceptionName(tc.err))
		})
	}
}

// TestExecutionCause checks Python's __cause__ rule: the wrapped error's
// text, only when there is one and it differs from the message.
func TestExecutionCause(t *testing.T) {
	inner := errors.New("no such file")
	tests := []struct {
		name      string
		err       error
		code      errorsjson.Code
		message   string
		cause     *string
		exception string
	}{
		{"no wrap", errors.New("boom"), errorsjson.CodeExecution, "boom", nil, "Exception"},
		{"wrap adds text", fmt.Errorf("open a.xlsx: %w", inner), errorsjson.CodeExecution, "open a.xlsx: no such file", ptr("no such file"), "Exception"},
		{"wrap same text", fmt.Errorf("%w", inner), errorsjson.CodeExecution, "no such file", nil, "Exception"},
		{"ExceptionFrom", errorsjson.ExceptionFrom("ValueError", "bad row", inner), errorsjson.CodeExecution, "bad row", ptr("no such file"), "ValueError"},
		{"Fatal looked through", errorsjson.Fatal(fmt.Errorf("save: %w", inner)), errorsjson.CodeFatal, "save: no such file", ptr("no such file"), "Exception"},
		{"Fatal plain", errorsjson.Fatal(errors.New("corrupt")), errorsjson.CodeFatal, "corrupt", nil, "Exception"},
		{"Fatal wrapped deeper", fmt.Errorf("step 2: %w", errorsjson.Fatal(inner)), errorsjson.CodeFatal, "step 2: no such file", ptr("no such file"), "Exception"},
		{"empty cause text is kept", errorsjson.ExceptionFrom("ValueError", "m", errors.New("")), errorsjson.CodeExecution, "m", ptr(""), "ValueError"},
		{"multi wrap has no single cause", fmt.Errorf("%w and %w", inner, fs.ErrExist), errorsjson.CodeExecution, "no such file and file already exists", nil, "FileExistsError"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := errorsjson.Execution("tool", tc.err)
			assert.Equal(t, errorsjson.StatusError, p.Status)
			assert.Equal(t, tc.code, p.ErrorCode)
			assert.Equal(t, tc.message, p.Message)
			assert.Equal(t, tc.cause, p.Cause)
			assert.Equal(t, tc.exception, p.Exception)
			text, err := pyjson.MarshalString(p)
			require.NoError(t, err)
			assert.Equal(t, tc.cause != nil, containsKey(text, "cause"), text)
		})
	}
}

func containsKey(text, key string) bool {
	v, err := pyjson.DecodeOrdered([]byte(text))
	if err != nil {
		return false
	}
	obj, _ := v.(pyjson.Object)
	_, ok := obj.Get(key)
	return ok
}

func TestFatal(t *testing.T) {
	assert.NoError(t, errorsjson.Fatal(nil))
	base := errors.New("x")
	f := errorsjson.Fatal(base)
	assert.True(t, errorsjson.IsFatal(f))
	assert.True(t, errorsjson.IsFatal(fmt.Errorf("wrap: %w", f)))
	assert.False(t, errorsjson.IsFatal(base))
	assert.ErrorIs(t, f, base)
}

func TestValidationLimits(t *testing.T) {
	var violations []string
	for i := range 30 {
		violations = append(violations, fmt.Sprintf("$.f%d: bad", i))
	}
	p := errorsjson.Validation("t", violations, nil, []string{"a"}, nil)
	assert.Len(t, p.Violations, 20)
	assert.Equal(t, "$.f0: bad; $.f1: bad; $.f2: bad; $.f3: bad; $.f4: bad", p.Detail)
	assert.Equal(t, []string{}, p.RequiredFields)
	assert.Equal(t, []string{}, p.ProvidedFields)
	assert.Equal(t, errorsjson.ValidationMessage, p.Message)
}

func ptr(s string) *string { return &s }
