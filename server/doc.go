// Package server is the WebSocket front door of registry-sidecar: JSON-RPC
// 2.0 with MCP method names (revision 2025-11-25) over gorilla/websocket, in
// front of a *registry.Registry.
//
// Methods: initialize, notifications/initialized, ping, tools/list,
// tools/call (extension keys _meta.toolScope, _meta.timeoutMs and
// _meta.nullAsOmitted),
// notifications/cancelled and, for requests carrying _meta.progressToken,
// outgoing notifications/progress. The text content of a tools/call result
// is exactly registry.Result.Text and isError is Result.IsError.
//
// Every connection has one reader and one writer goroutine, a bounded
// outbound queue, a read limit, a write deadline and ping/pong keepalive.
// Calls on one connection run concurrently up to Config.MaxConcurrentCalls;
// up to as many more wait for a slot; beyond that the reader stops reading
// (back-pressure). A client that does not drain its queue within
// Config.WriteTimeout is dropped with close code 1008. Oversized frames are
// closed with 1009, binary frames with 1003, shutdown with 1001.
//
// Every request, on every path, first passes the RequestPolicy (DNS
// rebinding and cross-site requests): without a token only loopback Host
// headers and loopback or absent Origins are served; others get 403.
//
// See docs/PROTOCOL.md for the wire format with one example per method.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package server
