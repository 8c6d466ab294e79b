package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// CallTool runs the tool name with the JSON arguments args and returns its
// Result. It never panics and never returns a Go error: every failure is an
// error payload in Result.Text. The order of checks is scope, lookup,
// arguments-are-an-object, JSON Schema, then the tool under a deadline and
// recover; the encoded result is truncated to the tool's character cap.
func (r *Registry) CallTool(ctx context.Context, name string, args []byte, opts ...CallOption) (res Result) {
	start := time.Now()
	var cc callConfig
	for _, o := range opts {
		o(&cc)
	}
	defer func() {
		// Last line of defence: nothing below should panic, but if it
		// does the caller still gets a payload.
		if p := recover(); p != nil {
			r.cfg.log.WithFields(logrus.Fields{"tool": name, "panic": fmt.Sprint(p), "stack": string(debug.Stack())}).Error("registry panicked")
			res = r.errorResult(name, errorsjson.Internal(name, p))
		}
		res.Elapsed = time.Since(start)
	}()

	if cc.hasScope && !contains(cc.scope, name) {
		return r.errorResult(name, errorsjson.NotAllowed(name))
	}
	e, ok := r.lookup(name)
	if !ok {
		return r.errorResult(name, errorsjson.NotFound(name))
	}
	args = normaliseArgs(args)
	// The fast path proves most valid arguments valid on the bytes alone;
	// anything else is decoded and checked by the full validator.
	if e.fast == nil || !e.fast.valid(args) {
		instance, provided, violations := parseArguments(args)
		if violations == nil {
			violations = validate(e.schema, instance)
		}
		if violations != nil {
			return r.errorResult(name, errorsjson.Validation(name, violations, e.required, e.accepted, provided))
		}
	}

	value, err, panicked := r.run(ctx, e, args, &cc)
	switch {
	case panicked:
		return r.errorResult(name, errorsjson.Internal(name, value))
	case err != nil:
		return r.failure(ctx, name, err)
	}
	text, encErr := errorsjson.MarshalString(value)
	if encErr != nil {
		return r.errorResult(name, errorsjson.Execution(name, encErr))
	}
	return Result{Text: truncate(text, r.limit(e))}
}

// outcome is what the tool goroutine hands back.
type outcome struct {
	value    any
	err      error
	panicked bool
}

// run calls the tool under its deadline and recover. It returns as soon as
// the deadline passes or the caller cancels, even if the tool ignores ctx.
func (r *Registry) run(ctx context.Context, e *entry, args []byte, cc *callConfig) (any, error, bool) {
	ctx, cancel := context.WithTimeout(ctx, r.timeout(e, cc))
	defer cancel()
	ctx = withProgress(ctx, cc.progress)
	done := make(chan outcome, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				r.cfg.log.WithFields(logrus.Fields{"tool": e.tool.Name, "panic": fmt.Sprint(p), "stack": string(debug.Stack())}).Error("tool panicked")
				done <- outcome{value: p, panicked: true}
			}
		}()
		v, err := e.tool.Func(ctx, args)
		done <- outcome{value: v, err: err}
	}()
	select {
	case o := <-done:
		if o.err == nil && !o.panicked && ctx.Err() != nil {
			// Finished, but after the deadline or a cancel: the caller
			// has given up on it, so report why.
			return nil, ctx.Err(), false
		}
		return o.value, o.err, o.panicked
	case <-ctx.Done():
		return nil, context.Cause(ctx), false
	}
}

// failure turns a tool error into its payload.
func (r *Registry) failure(ctx context.Context, name string, err error) Result {
	var fb *errorsjson.FallbackRequest
	switch {
	case errors.As(err, &fb):
		text, _ := errorsjson.MarshalString(errorsjson.Fallback(name, fb))
		return Result{Text: text, Fallback: true}
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return r.errorResult(name, errorsjson.Cancelled(name))
	case errors.Is(err, context.DeadlineExceeded):
		return r.errorResult(name, errorsjson.Timeout(name, fmt.Errorf("tool '%s' timed out", name)))
	}
	return r.errorResult(name, errorsjson.Execution(name, err))
}

func (r *Registry) errorResult(name string, p any) Result {
	text, err := errorsjson.MarshalString(p)
	if err != nil {
		// Payload types are plain strings and slices; this cannot fail.
		text = `{"status": "error"}`
	}
	var code errorsjson.Code
	switch v := p.(type) {
	case errorsjson.ErrorPayload:
		code = v.ErrorCode
	case errorsjson.ValidationPayload:
		code = v.ErrorCode
	}
	return Result{Text: text, IsError: true, Code: code}
}

func (r *Registry) timeout(e *entry, cc *callConfig) time.Duration {
	d := e.tool.Timeout
	if d <= 0 {
		d = r.cfg.defaultTimeout
	}
	if cc.timeout > 0 {
		d = cc.timeout
	}
	if r.cfg.maxTimeout > 0 && d > r.cfg.maxTimeout {
		d = r.cfg.maxTimeout
	}
	return d
}

func (r *Registry) limit(e *entry) int {
	if e.tool.MaxResultChars != 0 {
		return e.tool.MaxResultChars
	}
	return r.cfg.maxResultChars
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// normaliseArgs turns absent arguments into the empty object.
func normaliseArgs(args []byte) []byte {
	if len(bytes.TrimSpace(args)) == 0 {
		return []byte("{}")
	}
	return args
}

// parseArguments decodes args for validation. It returns the instance, the
// sorted provided field names, and violations when args is not a JSON
// object.
func parseArguments(args []byte) (any, []string, []string) {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(args))
	if err != nil {
		return nil, nil, []string{"$: arguments are not valid JSON: " + err.Error()}
	}
	obj, ok := inst.(map[string]any)
	if !ok {
		return nil, nil, []string{fmt.Sprintf("$: arguments must be a JSON object, got %s", jsonKind(inst))}
	}
	return obj, sortedKeys(obj), nil
}
