package server

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"

	"github.com/sirupsen/logrus"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/callmeta"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// ErrInvalidParams is the kind of every params error (JSON-RPC -32602),
// the same error on every door.
var ErrInvalidParams = callmeta.ErrInvalidParams

// call is one tools/call in flight.
type call struct {
	id        string // raw JSON id
	name      string
	args      []byte
	opts      []registry.CallOption
	ctx       context.Context
	cancel    context.CancelFunc
	cancelled atomic.Bool // by notifications/cancelled: send no answer
	answered  atomic.Bool // no progress after the answer
}

// newCall validates tools/call params into a call (not yet started).
func (c *conn) newCall(id string, params gjson.Result) (*call, error) {
	name := params.Get("name")
	if name.Type != gjson.String {
		return nil, fmt.Errorf("%w: params.name must be a string", ErrInvalidParams)
	}
	cl := &call{id: id, name: name.Str, opts: c.callProfile()}
	if args := params.Get("arguments"); args.Exists() {
		cl.args = []byte(args.Raw)
	}
	meta := params.Get("_meta")
	ext, err := callmeta.FromJSON(meta)
	if err != nil {
		return nil, err
	}
	cl.opts = ext.Options(cl.opts)
	if tok := meta.Get("progressToken"); tok.Exists() {
		if tok.Type != gjson.String && tok.Type != gjson.Number {
			return nil, fmt.Errorf("%w: _meta.progressToken must be a string or a number", ErrInvalidParams)
		}
		token := tok.Raw
		cl.opts = append(cl.opts, registry.WithProgress(func(progress, total float64, message string) {
			// JSON has no NaN or infinity: such a report is skipped, such a
			// total left out.
			if cl.answered.Load() || math.IsNaN(progress) || math.IsInf(progress, 0) {
				return
			}
			if math.IsNaN(total) || math.IsInf(total, 0) {
				total = 0
			}
			c.notify(appendProgress(nil, token, progress, total, message))
		}))
	}
	return cl, nil
}

// startCall admits a tools/call: it waits for admission (the reader stops
// reading while 2*MaxConcurrentCalls calls are admitted) and runs the call
// on its own goroutine.
func (c *conn) startCall(id string, params gjson.Result) {
	cl, err := c.newCall(id, params)
	if err != nil {
		c.send(appendError(nil, id, CodeInvalidParams, err.Error()))
		return
	}
	select {
	case c.admit <- struct{}{}:
	case <-c.closed:
		return
	}
	c.mu.Lock()
	switch _, dup := c.inflight[id]; {
	case c.draining || c.s.draining.Load():
		c.mu.Unlock()
		<-c.admit
		c.send(appendError(nil, id, CodeShuttingDown, "server is shutting down"))
		return
	case dup:
		c.mu.Unlock()
		<-c.admit
		c.send(appendError(nil, id, CodeInvalidRequest, msgDuplicateID))
		return
	}
	cl.ctx, cl.cancel = context.WithCancel(c.ctx)
	c.inflight[id] = cl
	c.active++
	c.mu.Unlock()
	c.nCalls.Add(1)
	c.calls.Add(1)
	go c.runCall(cl)
}

func (c *conn) runCall(cl *call) {
	defer c.calls.Done()
	defer func() { <-c.admit }()
	defer c.done()
	defer c.forget(cl) // for the early returns; idempotent
	select {
	case c.slots <- struct{}{}:
		defer func() { <-c.slots }()
	case <-cl.ctx.Done():
		if cl.cancelled.Load() {
			return // cancelled while waiting for a slot: no answer
		}
		// The connection is going away: CallTool answers "cancelled" at once.
	}
	res := c.s.reg.CallTool(cl.ctx, cl.name, cl.args, cl.opts...)
	cl.answered.Store(true)
	if c.infoEnabled() {
		c.log.WithFields(logrus.Fields{
			"tool":        cl.name,
			"error_code":  string(res.Code),
			"is_error":    res.IsError,
			"fallback":    res.Fallback,
			"cancelled":   cl.cancelled.Load(),
			"duration_ms": float64(res.Elapsed.Microseconds()) / 1000,
		}).Info("call")
	}
	// Forget the id before answering: a client may reuse it as soon as it
	// has the answer.
	c.forget(cl)
	if cl.cancelled.Load() {
		return
	}
	c.send(appendCallResult(make([]byte, 0, len(res.Text)+96), cl.id, res.Text, res.IsError))
}

// forget removes the call from the in-flight table (idempotent).
func (c *conn) forget(cl *call) {
	cl.cancel()
	c.mu.Lock()
	if c.inflight[cl.id] == cl {
		delete(c.inflight, cl.id)
	}
	c.mu.Unlock()
}

// done ends an admitted call after its answer was queued: a draining
// connection closes only after every answer is in the queue.
func (c *conn) done() {
	c.mu.Lock()
	c.active--
	c.markIdleLocked()
	c.mu.Unlock()
}

type levelChecker interface {
	IsLevelEnabled(logrus.Level) bool
}

// infoEnabled skips building per-call fields when info is off.
func (c *conn) infoEnabled() bool {
	switch l := c.log.(type) {
	case *logrus.Entry:
		return l.Logger.IsLevelEnabled(logrus.InfoLevel)
	case levelChecker:
		return l.IsLevelEnabled(logrus.InfoLevel)
	}
	return true
}
