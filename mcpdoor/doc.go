// Package mcpdoor serves a *registry.Registry to MCP clients over stdio and
// streamable HTTP, on the official Go SDK (github.com/modelcontextprotocol/go-sdk).
//
// A Door is a thin adapter: it lists the registry's tools with their
// schemas and annotations, forwards tools/call to Registry.CallTool with the
// request's context (so notifications/cancelled, or a closed HTTP request
// under protocol 2026-07-28, cancels the tool) and a progress reporter (when
// the request carries _meta.progressToken), and answers the payload text
// byte for byte with isError set for error payloads. Validation, timeouts,
// truncation and error payloads are the registry's; MCP framing, sessions
// and SSE are the SDK's. The extension keys of the WebSocket door work here
// too: _meta.toolScope (tools/list and tools/call), _meta.timeoutMs and
// _meta.nullAsOmitted.
// At most Config.MaxConcurrentCalls tools run at once through a Door; more
// calls wait for a slot (a call cancelled while waiting never runs).
//
// Over stdio, a guard in front of the SDK (stdioguard.go) answers the lines
// it could not decode (-32700, -32600) so one bad line never ends the
// session, and at the end of stdin lets the calls already received finish
// and answer (within Config.Grace) before the SDK sees the end.
//
// Over HTTP, requests at protocol 2026-07-28 or later (the
// Mcp-Protocol-Version header) are served statelessly, answered as
// application/json (server-sent events for batches and calls asking for
// progress). A plain tools/call among them takes a fast path (fast.go)
// that answers, byte for byte, what the SDK would, without the SDK's
// per-request session; anything it does not fully know goes to the SDK.
// Older clients get a session (Mcp-Session-Id) created by their initialize
// request, as those protocol versions require, so that their
// notifications/cancelled reaches the call it names. The HTTP door checks
// neither Host, Origin nor token: serve it through server.Server
// (Config.MCP), whose RequestPolicy and token check guard every path.
//
// ARCHITECTURE.md at the repository root draws the package map and the path
// of one call through it.
package mcpdoor
