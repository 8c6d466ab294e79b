package testtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"time"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Limits of the test tools' arguments.
const (
	// MaxSleepMS is the longest sleep the sleep tool accepts (10 minutes,
	// the registry's default maximum deadline).
	MaxSleepMS = 600000
	// MaxNoteLength is the add tool's maxLength for note.
	MaxNoteLength = 64
	// progressSteps is how many progress reports sleep sends (every 10%).
	progressSteps = 10
)

// Tools returns the test tools in registration order.
func Tools() []registry.Tool {
	return []registry.Tool{
		{
			Name:        "echo",
			Description: "Return the given value unchanged.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"value": {"description": "Any JSON value."}}, "required": ["value"]}`),
			Func:        echo,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "add",
			Description: "Add two integers.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "note": {"type": "string", "maxLength": ` + strconv.Itoa(MaxNoteLength) + `}}, "required": ["a", "b"], "additionalProperties": false}`),
			Func:        add,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "sleep",
			Description: "Wait ms milliseconds, honouring cancellation and reporting progress every 10%.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": ` + strconv.Itoa(MaxSleepMS) + `}}, "required": ["ms"]}`),
			Func:        sleep,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "slow",
			Description: "Report progress 0 (\"started\") at once, then wait ms milliseconds (default: the maximum) or until cancelled; for cancellation tests.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"ms": {"type": "integer", "minimum": 0, "maximum": ` + strconv.Itoa(MaxSleepMS) + `}}}`),
			Func:        slow,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "fail",
			Description: "Return an error named like a Python exception, optionally with a cause and marked fatal.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"exception": {"type": "string"}, "message": {"type": "string"}, "cause": {"type": "string"}, "fatal": {"type": "boolean"}}, "required": ["exception", "message"]}`),
			Func:        fail,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "panic",
			Description: "Panic with a string, an error, or a nil-pointer dereference.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"kind": {"type": "string", "enum": ["string", "error", "nil"]}}, "required": ["kind"]}`),
			Func:        panicTool,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "fallback",
			Description: "Ask the agent for fallback routing.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"to": {"type": "string"}, "reason": {"type": "string"}}, "required": ["to"]}`),
			Func:        fallback,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "big",
			Description: "Return a list of items copies of text (for truncation and frame-size tests).",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"items": {"type": "integer", "minimum": 0}, "text": {"type": "string"}}, "required": ["items"]}`),
			Func:        big,
			Annotations: registry.ReadOnly(),
		},
		{
			Name:        "env_error",
			Description: "Return a Go error of the given family to exercise the exception-name mapping.",
			InputSchema: json.RawMessage(`{"type": "object", "properties": {"kind": {"type": "string", "enum": ["not_found", "permission", "exists", "timeout", "value"]}}, "required": ["kind"]}`),
			Func:        envError,
			Annotations: registry.ReadOnly(),
		},
	}
}

// Register adds every test tool to reg.
func Register(reg *registry.Registry) error {
	for _, t := range Tools() {
		if err := reg.Register(t); err != nil {
			return fmt.Errorf("testtools: %w", err)
		}
	}
	return nil
}

func echo(_ context.Context, args json.RawMessage) (any, error) {
	v, err := pyjson.DecodeOrdered([]byte(gjson.GetBytes(args, "value").Raw))
	if err != nil {
		return nil, fmt.Errorf("echo: %w: %w", errorsjson.ErrInvalidArgument, err)
	}
	return pyjson.Object{{Key: "status", Value: "success"}, {Key: "value", Value: v}}, nil
}

func add(_ context.Context, args json.RawMessage) (any, error) {
	a, b := gjson.GetBytes(args, "a"), gjson.GetBytes(args, "b")
	x, err := strconv.ParseInt(a.Raw, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("a: %w", err)
	}
	y, err := strconv.ParseInt(b.Raw, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("b: %w", err)
	}
	return pyjson.Object{{Key: "status", Value: "success"}, {Key: "sum", Value: x + y}}, nil
}

func sleep(ctx context.Context, args json.RawMessage) (any, error) {
	ms := gjson.GetBytes(args, "ms").Int()
	total := time.Duration(ms) * time.Millisecond
	step := total / progressSteps
	t := time.NewTimer(step)
	defer t.Stop()
	for i := 1; i <= progressSteps; i++ {
		select {
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-t.C:
		}
		registry.ReportProgress(ctx, float64(ms)*float64(i)/progressSteps, float64(ms), fmt.Sprintf("slept %d%%", i*100/progressSteps))
		t.Reset(step)
	}
	return pyjson.Object{{Key: "status", Value: "success"}, {Key: "slept_ms", Value: ms}}, nil
}

func slow(ctx context.Context, args json.RawMessage) (any, error) {
	ms := int64(MaxSleepMS)
	if v := gjson.GetBytes(args, "ms"); v.Exists() {
		ms = v.Int()
	}
	registry.ReportProgress(ctx, 0, float64(ms), "started")
	t := time.NewTimer(time.Duration(ms) * time.Millisecond)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case <-t.C:
	}
	return pyjson.Object{{Key: "status", Value: "success"}, {Key: "slept_ms", Value: ms}}, nil
}

func fail(_ context.Context, args json.RawMessage) (any, error) {
	var cause error
	if c := gjson.GetBytes(args, "cause"); c.Exists() {
		cause = errors.New(c.String())
	}
	err := errorsjson.ExceptionFrom(gjson.GetBytes(args, "exception").String(), gjson.GetBytes(args, "message").String(), cause)
	if gjson.GetBytes(args, "fatal").Bool() {
		err = errorsjson.Fatal(err)
	}
	return nil, err
}

// errPanicked is the error panicTool panics with for kind "error".
var errPanicked = errors.New("test tool panicked with an error")

func panicTool(_ context.Context, args json.RawMessage) (any, error) {
	switch gjson.GetBytes(args, "kind").String() {
	case "string":
		panic("test tool panicked with a string")
	case "error":
		panic(errPanicked)
	default:
		var p *struct{ n int }
		return p.n, nil // nil-pointer dereference
	}
}

func fallback(_ context.Context, args json.RawMessage) (any, error) {
	return nil, &errorsjson.FallbackRequest{To: gjson.GetBytes(args, "to").String(), Reason: gjson.GetBytes(args, "reason").String()}
}

func big(_ context.Context, args json.RawMessage) (any, error) {
	n := int(gjson.GetBytes(args, "items").Int())
	text := gjson.GetBytes(args, "text").String()
	items := make([]string, n)
	for i := range items {
		items[i] = text
	}
	return pyjson.Object{{Key: "status", Value: "success"}, {Key: "items", Value: items}}, nil
}

func envError(_ context.Context, args json.RawMessage) (any, error) {
	switch kind := gjson.GetBytes(args, "kind").String(); kind {
	case "not_found":
		return nil, &fs.PathError{Op: "open", Path: "missing.xlsx", Err: fs.ErrNotExist}
	case "permission":
		return nil, &fs.PathError{Op: "open", Path: "locked.xlsx", Err: fs.ErrPermission}
	case "exists":
		return nil, &fs.PathError{Op: "mkdir", Path: "book.xlsx", Err: fs.ErrExist}
	case "timeout":
		return nil, fmt.Errorf("waiting for the workbook lock: %w", context.DeadlineExceeded)
	default:
		_, err := strconv.Atoi("not-a-number")
		return nil, fmt.Errorf("parse %s: %w", strings.TrimSpace(kind), err)
	}
}
