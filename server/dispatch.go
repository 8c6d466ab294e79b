package server

import (
	"bytes"
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/callmeta"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Method names of MCP revision 2025-11-25 the server understands.
const (
	// MethodInitialize opens a session: the server answers its version
	// and capabilities.
	MethodInitialize = "initialize"
	// MethodInitialized is the client's notification that follows
	// initialize; nothing is answered.
	MethodInitialized = "notifications/initialized"
	// MethodPing is answered with an empty result.
	MethodPing = "ping"
	// MethodToolsList lists the tools with their input schemas.
	MethodToolsList = "tools/list"
	// MethodToolsCall runs one tool.
	MethodToolsCall = "tools/call"
	// MethodCancelled is the client's notification that cancels a call in
	// flight; the call is never answered.
	MethodCancelled = "notifications/cancelled"
	// MethodProgress is the server's notification of a call's progress.
	MethodProgress = "notifications/progress"
)

// envelope is the top level of an inbound message, peeked with gjson in
// one pass.
type envelope struct {
	version, id, method, params gjson.Result
	isResponse                  bool
}

func parseEnvelope(data []byte) (envelope, bool) {
	var e envelope
	obj := gjson.ParseBytes(data)
	if !obj.IsObject() {
		return e, false
	}
	obj.ForEach(func(k, v gjson.Result) bool {
		switch k.Str {
		case "jsonrpc":
			e.version = v
		case "id":
			e.id = v
		case "method":
			e.method = v
		case "params":
			e.params = v
		case "result", "error":
			e.isResponse = true
		}
		return true
	})
	return e, true
}

// handle answers one inbound text frame. It runs on the reader goroutine
// and blocks only to wait for a call slot (back-pressure).
func (c *conn) handle(data []byte) {
	if !gjson.ValidBytes(data) {
		c.send(appendError(nil, nullID, CodeParseError, "Parse error: the frame is not valid JSON"))
		return
	}
	if !utf8.Valid(data) {
		// Text frames must be UTF-8 (RFC 6455); ids and tokens are echoed raw.
		c.send(appendError(nil, nullID, CodeParseError, "Parse error: the frame is not valid UTF-8"))
		return
	}
	trimmed := bytes.TrimLeft(data, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '[' {
		c.send(appendError(nil, nullID, CodeInvalidRequest, "Invalid Request: batches are not supported"))
		return
	}
	e, ok := parseEnvelope(data)
	if !ok {
		c.send(appendError(nil, nullID, CodeInvalidRequest, "Invalid Request: a message must be a JSON object"))
		return
	}
	id := nullID
	if e.id.Exists() {
		if e.id.Type != gjson.String && e.id.Type != gjson.Number {
			c.send(appendError(nil, nullID, CodeInvalidRequest, "Invalid Request: id must be a string or a number"))
			return
		}
		id = e.id.Raw
	}
	switch {
	case e.version.Str != "2.0" || e.version.Type != gjson.String:
		c.send(appendError(nil, id, CodeInvalidRequest, `Invalid Request: jsonrpc must be "2.0"`))
		return
	case !e.method.Exists() && e.isResponse:
		return // an answer to a request we never send: ignore
	case e.method.Type != gjson.String:
		c.send(appendError(nil, id, CodeInvalidRequest, "Invalid Request: method must be a string"))
		return
	case e.params.Exists() && !e.params.IsObject():
		if e.id.Exists() {
			c.send(appendError(nil, id, CodeInvalidParams, "Invalid params: params must be an object"))
		}
		return
	}
	if !e.id.Exists() {
		c.handleNotification(e.method.Str, e.params)
		return
	}
	// An id may not be reused while its call is in flight, whatever the new
	// request's method (tools/call checks again once admitted).
	if e.method.Str != MethodToolsCall && c.isInFlight(id) {
		c.send(appendError(nil, id, CodeInvalidRequest, msgDuplicateID))
		return
	}
	switch e.method.Str {
	case MethodInitialize:
		c.initialize(id, e.params)
	case MethodPing:
		c.send(appendResult(nil, id, []byte("{}")))
	case MethodToolsList:
		result, err := c.s.toolsListResult(e.params)
		if err != nil {
			c.send(appendError(nil, id, CodeInvalidParams, err.Error()))
			return
		}
		c.send(appendResult(nil, id, result))
	case MethodToolsCall:
		c.startCall(id, e.params)
	default:
		c.send(appendError(nil, id, CodeMethodNotFound, "Method not found: "+e.method.Str))
	}
}

// isInFlight reports whether a call with this raw JSON id is in flight.
func (c *conn) isInFlight(id string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.inflight[id]
	return ok
}

// handleNotification handles a message without id; it is never answered.
func (c *conn) handleNotification(method string, params gjson.Result) {
	switch method {
	case MethodCancelled:
		id := params.Get("requestId")
		if id.Type != gjson.String && id.Type != gjson.Number {
			return
		}
		c.mu.Lock()
		cl := c.inflight[id.Raw]
		c.mu.Unlock()
		if cl != nil {
			cl.cancelled.Store(true)
			cl.cancel()
		}
	default:
		// notifications/initialized and unknown notifications need nothing.
	}
}

// initializeResult is the initialize answer; extra, when not empty, is
// more members of its capabilities object.
func (s *Server) initializeResult(params gjson.Result, extra []byte) []byte {
	version := ProtocolVersion
	if v := params.Get("protocolVersion"); v.Type == gjson.String {
		for _, sv := range supportedVersions {
			if v.Str == sv {
				version = sv
			}
		}
	}
	buf := []byte(`{"protocolVersion":`)
	buf = pyjson.AppendString(buf, version)
	buf = append(buf, `,"capabilities":{"tools":{}`...)
	if len(extra) > 0 {
		buf = append(append(buf, ','), extra...)
	}
	buf = append(buf, `},"serverInfo":{"name":`...)
	buf = pyjson.AppendString(buf, s.cfg.Name)
	buf = append(buf, `,"version":`...)
	buf = pyjson.AppendString(buf, s.cfg.Version)
	return append(buf, "}}"...)
}

func (s *Server) toolsListResult(params gjson.Result) ([]byte, error) {
	scope, hasScope, err := callmeta.ScopeFromJSON(params.Get("_meta"))
	if err != nil {
		return nil, err
	}
	allowed := make(map[string]bool, len(scope))
	for _, n := range scope {
		allowed[n] = true
	}
	buf := []byte(`{"tools":[`)
	first := true
	for _, t := range s.reg.Tools() {
		if hasScope && !allowed[t.Name] {
			continue
		}
		if !first {
			buf = append(buf, ',')
		}
		first = false
		buf = append(buf, `{"name":`...)
		buf = pyjson.AppendString(buf, t.Name)
		buf = append(buf, `,"description":`...)
		buf = pyjson.AppendString(buf, t.Description)
		buf = append(buf, `,"inputSchema":`...)
		buf = append(buf, bytes.TrimSpace(t.InputSchema)...)
		buf = appendAnnotations(buf, t.Annotations)
		buf = append(buf, '}')
	}
	return append(buf, "]}"...), nil
}

// appendAnnotations adds a tool's declaration as MCP tool annotations, as
// the MCP doors list them (registry.Annotations.MCP); nothing for a tool
// that declares nothing.
func appendAnnotations(buf []byte, a *registry.Annotations) []byte {
	h := a.MCP()
	if h == nil {
		return buf
	}
	buf = append(buf, `,"annotations":{`...)
	if h.Title != "" {
		buf = append(buf, `"title":`...)
		buf = pyjson.AppendString(buf, h.Title)
		buf = append(buf, ',')
	}
	buf = strconv.AppendBool(append(buf, `"readOnlyHint":`...), h.ReadOnlyHint)
	if h.DestructiveHint != nil {
		buf = strconv.AppendBool(append(buf, `,"destructiveHint":`...), *h.DestructiveHint)
	}
	buf = strconv.AppendBool(append(buf, `,"idempotentHint":`...), h.IdempotentHint)
	buf = strconv.AppendBool(append(buf, `,"openWorldHint":`...), h.OpenWorldHint)
	return append(buf, '}')
}
