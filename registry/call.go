package registry

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
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
	finished := r.observe(name)
	defer func() {
		// Last line of defence: nothing below should panic, but if it
		// does the caller still gets a payload.
		if p := recover(); p != nil {
			r.cfg.log.WithFields(logrus.Fields{"tool": name, "panic": fmt.Sprint(p), "stack": string(debug.Stack())}).Error("registry panicked")
			res = r.errorResult(errorsjson.Internal(name, p))
		}
		res.Elapsed = time.Since(start)
		if finished != nil {
			finished(res)
		}
	}()

	prof := r.profile(&cc)
	texts := prof.texts()
	if cc.hasScope && !contains(cc.scope, name) {
		p := errorsjson.NotAllowed(name)
		p.Message = texts.notAllowed(name)
		return r.errorResult(p)
	}
	e, ok := r.lookup(name)
	if !ok {
		p := errorsjson.NotFound(name)
		p.Message = texts.notFound(name)
		return r.errorResult(p)
	}
	args = normaliseArgs(args)
	if e.tool.Legacy != nil {
		args = e.tool.Legacy(args)
	}
	if cc.nullAsOmitted {
		args = omitNulls(args, e.doc)
	}
	// The fast path proves most valid arguments valid on the bytes alone;
	// anything else is decoded and checked by the full validator.
	if e.fast == nil || !e.fast.valid(args) {
		if p := r.checkArguments(e, args, prof); p != nil {
			return r.errorResult(*p)
		}
	}

	o := r.run(ctx, e, args, &cc)
	switch {
	case o.panicked:
		return r.errorResult(errorsjson.Internal(name, o.value))
	case o.expired != nil:
		return r.expired(ctx, name, o.expired)
	case o.err != nil:
		return r.failure(name, o.err)
	}
	text, encErr := resultText(o.value, texts)
	if encErr != nil {
		return r.errorResult(errorsjson.Execution(name, encErr))
	}
	return Result{Text: truncate(text, r.limit(e), texts)}
}

// outcome is what running a tool gave.
type outcome struct {
	value    any
	err      error
	panicked bool
	// expired is the call context's error when the call's deadline
	// passed or the caller cancelled before the tool returned (panics
	// are reported as panics regardless).
	expired error
}

// run calls the tool under its deadline and recover. It returns as soon as
// the deadline passes or the caller cancels, even if the tool ignores ctx
// (the tool's goroutine is then left to finish on its own).
func (r *Registry) run(ctx context.Context, e *entry, args []byte, cc *callConfig) outcome {
	ctx, cancel := context.WithTimeout(ctx, r.timeout(e, cc))
	defer cancel()
	ctx = withProgress(ctx, cc.progress)
	ctx = WithResultLimit(ctx, r.limit(e))
	done := make(chan outcome, 1)
	go r.invoke(ctx, e, args, done)
	select {
	case o := <-done:
		if !o.panicked {
			// A result or error that arrives after the deadline or a
			// cancel is superseded: the caller has given up on it.
			o.expired = ctx.Err()
		}
		return o
	case <-ctx.Done():
		return outcome{expired: ctx.Err()}
	}
}

// errGoexit is the panic value reported for a tool that ended its
// goroutine with runtime.Goexit (say, t.FailNow in a shared helper) instead of
// returning: the caller gets TOOL_INTERNAL_ERROR at once, not a timeout.
var errGoexit = errors.New("tool exited without returning (runtime.Goexit)")

// invoke runs the tool function and recovers its panic.
func (r *Registry) invoke(ctx context.Context, e *entry, args []byte, done chan<- outcome) {
	returned := false
	defer func() {
		p := recover()
		if p == nil && !returned {
			p = errGoexit // recover is nil during Goexit
		}
		if p != nil {
			r.cfg.log.WithFields(logrus.Fields{"tool": e.tool.Name, "panic": fmt.Sprint(p), "stack": string(debug.Stack())}).Error("tool panicked")
			done <- outcome{value: p, panicked: true}
		}
	}()
	v, err := e.tool.Func(ctx, args)
	returned = true
	done <- outcome{value: v, err: err}
}

// expired is the payload of a call whose context ended first: cancelled
// when the caller cancelled, otherwise a timeout (the per-call deadline or
// the caller's own deadline).
func (r *Registry) expired(caller context.Context, name string, err error) Result {
	if errors.Is(err, context.Canceled) && errors.Is(caller.Err(), context.Canceled) {
		return r.errorResult(errorsjson.Cancelled(name))
	}
	return r.errorResult(errorsjson.Timeout(name, fmt.Errorf("tool '%s' timed out", name)))
}

// failure turns an error the tool returned in time into its payload. A
// tool's own timeout (say, a lock wait) is an execution error whose
// exception is TimeoutError, not TOOL_TIMEOUT: that code means the call's
// deadline.
func (r *Registry) failure(name string, err error) Result {
	var fb *errorsjson.FallbackRequest
	if errors.As(err, &fb) {
		text, _ := pyjson.MarshalString(errorsjson.Fallback(name, fb))
		return Result{Text: text, Fallback: true}
	}
	return r.errorResult(errorsjson.Execution(name, err))
}

func (r *Registry) errorResult(p any) Result {
	text, err := pyjson.MarshalString(p)
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
	if r.cfg.callTimeout > 0 {
		d = r.cfg.callTimeout
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
