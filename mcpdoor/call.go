package mcpdoor

import (
	"context"
	"math"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/callmeta"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Method names the middleware looks at.
const (
	methodToolsCall = "tools/call"
	methodToolsList = "tools/list"
)

// codeShuttingDown answers a tools/call that arrived after Shutdown began,
// as the WebSocket door does.
const codeShuttingDown = -32000

// errShuttingDown is the JSON-RPC error of a call refused while draining.
var errShuttingDown = &jsonrpc.Error{Code: codeShuttingDown, Message: "server is shutting down"}

// middleware gives the registry the calls the SDK would refuse itself: a
// tools/call of a name the SDK does not list is answered with the
// registry's own payload (TOOL_NOT_FOUND, or TOOL_NOT_ALLOWED when out of
// scope), as on the WebSocket door. tools/list honours _meta.toolScope.
func (d *Door) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		switch method {
		case methodToolsCall:
			if r, ok := req.(*mcp.CallToolRequest); ok && r.Params != nil {
				if _, known := d.reg.Tool(r.Params.Name); !known {
					return d.callTool(ctx, r)
				}
			}
		case methodToolsList:
			res, err := next(ctx, method, req)
			if err != nil {
				return res, err
			}
			return d.scopeList(req, res)
		}
		return next(ctx, method, req)
	}
}

// scopeList keeps only the tools of _meta.toolScope, when given.
func (d *Door) scopeList(req mcp.Request, res mcp.Result) (mcp.Result, error) {
	list, ok := res.(*mcp.ListToolsResult)
	if !ok {
		return res, nil
	}
	scope, has, err := callmeta.ScopeFromMap(req.GetParams().GetMeta())
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	if !has {
		return res, nil
	}
	allowed := make(map[string]bool, len(scope))
	for _, n := range scope {
		allowed[n] = true
	}
	out := *list
	out.Tools = []*mcp.Tool{}
	for _, t := range list.Tools {
		if allowed[t.Name] {
			out.Tools = append(out.Tools, t)
		}
	}
	return &out, nil
}

// callTool runs one tools/call through the registry.
func (d *Door) callTool(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	p := req.Params
	ext, err := callmeta.FromMap(p.Meta)
	if err != nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
	}
	opts := ext.Options(nil)
	var progress progressFunc
	if tok := p.GetProgressToken(); tok != nil && req.Session != nil {
		progress = func(ctx context.Context, progress, total float64, message string) {
			_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
				ProgressToken: tok, Progress: progress, Total: total, Message: message,
			})
		}
	}
	res, err := d.runCall(ctx, doorOf(req), p.Name, p.Arguments, opts, progress)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: res.Text}}, IsError: res.IsError}, nil
}

// progressFunc sends one progress notification of a call.
type progressFunc func(ctx context.Context, progress, total float64, message string)

// runCall runs one call through the registry, as every path of every door
// does: refused while draining (errShuttingDown), bounded by the call
// slots, cancelled when the grace expires, logged. progress, when not nil,
// receives the tool's progress until the call answers. The error is
// errShuttingDown, or the context's when the call was cancelled before a
// slot freed (the tool never ran).
func (d *Door) runCall(ctx context.Context, door, name string, args []byte, opts []registry.CallOption, progress progressFunc) (registry.Result, error) {
	d.mu.Lock()
	if d.draining {
		d.mu.Unlock()
		return registry.Result{}, errShuttingDown
	}
	d.calls.Add(1)
	d.mu.Unlock()
	defer d.calls.Done()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stopLink := context.AfterFunc(d.stopCtx, cancel)
	defer stopLink()
	select {
	case d.slots <- struct{}{}:
		defer func() { <-d.slots }()
	case <-ctx.Done():
		// Cancelled (or the grace expired) before a slot freed: the tool
		// never ran; the client no longer waits for an answer.
		return registry.Result{}, ctx.Err()
	}

	var answered atomic.Bool
	if progress != nil {
		opts = append(opts, registry.WithProgress(func(p, total float64, message string) {
			if answered.Load() || !finite(p) || !finite(total) {
				return // JSON has no NaN; nothing after the answer
			}
			progress(ctx, p, total, message)
		}))
	}
	res := d.reg.CallTool(ctx, name, args, opts...)
	answered.Store(true)
	if infoEnabled(d.log) {
		d.log.WithFields(logrus.Fields{
			"door": door, "tool": name, "error_code": string(res.Code), "is_error": res.IsError,
			"fallback": res.Fallback, "cancelled": ctx.Err() != nil, "duration_ms": res.Elapsed.Milliseconds(),
		}).Info("call")
	}
	return res, nil
}

// doorOf names the door a request came through.
func doorOf(req *mcp.CallToolRequest) string {
	if req.Extra != nil && req.Extra.Header != nil {
		return DoorHTTP
	}
	return DoorStdio
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// infoEnabled reports whether log writes Info lines now, so that a call
// builds its line only when it is written (a FieldLogger other than a
// logrus Logger or Entry is assumed to write them).
func infoEnabled(log logrus.FieldLogger) bool {
	switch l := log.(type) {
	case *logrus.Logger:
		return l.IsLevelEnabled(logrus.InfoLevel)
	case *logrus.Entry:
		return l.Logger.IsLevelEnabled(logrus.InfoLevel)
	}
	return true
}
