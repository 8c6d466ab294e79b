package mcpdoor

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// The fast path answers the commonest request of the HTTP door, a
// stateless (2026-07-28) tools/call, without the SDK's per-request session:
// the SDK builds a ServerSession, a JSON-RPC connection and its goroutines
// for every stateless POST and decodes the body about ten times, each
// decode allocating a 32 KiB buffer (github.com/segmentio/encoding), so
// that one trivial call costs it ~240 KB and ~170 allocations (v1.8.0,
// the newest served). The fast path
// takes only requests it can vouch for in full: every header and body
// field is one it knows, with a value whose meaning it knows; anything
// else (batches, notifications, progress tokens, other _meta keys, tools
// binding arguments to headers, draining) goes to the SDK untouched. What
// it answers is, byte for byte, what the SDK answers with JSONResponse for
// the same request: TestFastPathMatchesSDK and FuzzFastPath hold it to
// that.

// Keys of the _meta of a 2026-07-28 request (SEP-2575).
const (
	metaProtocolVersion    = "io.modelcontextprotocol/protocolVersion"
	metaClientInfo         = "io.modelcontextprotocol/clientInfo"
	metaClientCapabilities = "io.modelcontextprotocol/clientCapabilities"
)

// Request headers of streamable HTTP the fast path reads.
const (
	headerMethod    = "Mcp-Method"
	headerName      = "Mcp-Name"
	headerSessionID = "Mcp-Session-Id"
)

// fastPath holds what the fast path answers with, encoded once.
type fastPath struct {
	// resultHead is a result up to its text:
	// {"_meta":{"io.modelcontextprotocol/serverInfo":{...}},"content":[{"type":"text","text":
	resultHead []byte
	// listed maps the tools the SDK lists to whether their schema binds
	// arguments to headers (x-mcp-header): the SDK checks those headers,
	// so calls of such tools take the SDK path. A call of a name not
	// listed is answered by the middleware, before the SDK marks results
	// complete: its result has no resultType.
	listed map[string]bool
}

func newFastPath(impl *mcp.Implementation) *fastPath {
	meta, err := json.Marshal(mcp.Meta{mcp.MetaKeyServerInfo: impl})
	if err != nil {
		panic(err) // two strings: cannot fail
	}
	f := &fastPath{listed: map[string]bool{}}
	f.resultHead = append(append([]byte(`{"_meta":`), meta...), `,"content":[{"type":"text","text":`...)
	return f
}

// list records t as listed by the SDK.
func (f *fastPath) list(t registry.Tool) {
	f.listed[t.Name] = bytes.Contains(t.InputSchema, []byte("x-mcp-header"))
}

// fastCall is a tools/call the fast path serves.
type fastCall struct {
	id   []byte // raw JSON: a canonical integer or a string without escapes
	name string
	args []byte
	opts []registry.CallOption
}

// presizeBytes is the longest body readBody reads into a buffer sized
// from Content-Length.
const presizeBytes = 64 << 10

// readBody reads r's body, up to maxBody bytes, and puts it back for
// whoever serves r next. ok is false when the body is longer (or failed):
// the SDK then answers it (413).
func readBody(r *http.Request, maxBody int64) (body []byte, ok bool) {
	var n int
	var err error
	if r.ContentLength >= 0 && r.ContentLength <= min(maxBody, presizeBytes) {
		// The usual case: a short body of known length. (A long one is
		// read as it comes, so that a length claimed but not sent holds
		// no memory.)
		body = make([]byte, r.ContentLength)
		n, err = io.ReadFull(r.Body, body)
		body = body[:n]
	} else {
		body, err = io.ReadAll(io.LimitReader(r.Body, maxBody+1))
		n = len(body)
	}
	rest := r.Body
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), rest}
	return body, err == nil && int64(n) <= maxBody
}

// serveFast answers r, whose body is body, when the fast path can vouch
// for it, and reports whether it did.
func (d *Door) serveFast(w http.ResponseWriter, r *http.Request, body []byte) bool {
	if !fastHeaders(r) || d.Draining() {
		return false
	}
	c, ok := parseFastCall(body)
	if !ok || r.Header.Get(headerName) != c.name {
		return false
	}
	headerBound, listed := d.fast.listed[c.name]
	if _, known := d.reg.Tool(c.name); headerBound || (known && !listed) {
		// A tool the SDK does not list yet the registry knows (left out,
		// or registered after New): the SDK's answer is its own.
		return false
	}
	res, err := d.runCall(r.Context(), DoorHTTP, c.name, c.args, c.opts, nil)
	var out []byte
	if err != nil {
		// Draining began, or the client went away before a slot freed:
		// answer as the SDK does for a handler's error.
		if out = errorAnswer(c.id, err); out == nil {
			return true
		}
	} else {
		out = d.fast.answer(c.id, res, listed)
	}
	h := w.Header()
	h.Set("Cache-Control", "no-cache, no-transform")
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out)
	return true
}

// answer encodes the JSON-RPC response carrying res, marked complete when
// the tool is listed.
func (f *fastPath) answer(id []byte, res registry.Result, listed bool) []byte {
	text, err := json.Marshal(res.Text)
	if err != nil {
		panic(err) // a string always encodes
	}
	out := make([]byte, 0, len(`{"jsonrpc":"2.0","id":,"result":}]"isError":true,"resultType":"complete"}}`)+len(id)+len(f.resultHead)+len(text))
	out = append(out, `{"jsonrpc":"2.0","id":`...)
	out = append(out, id...)
	out = append(out, `,"result":`...)
	out = append(out, f.resultHead...)
	out = append(out, text...)
	out = append(out, `}]`...)
	if res.IsError {
		out = append(out, `,"isError":true`...)
	}
	if listed {
		out = append(out, `,"resultType":"complete"`...)
	}
	return append(out, `}}`...)
}

// errorAnswer encodes the JSON-RPC error answering a call runCall refused,
// or returns nil when no answer is owed (the client went away).
func errorAnswer(id []byte, err error) []byte {
	if !errors.Is(err, errShuttingDown) {
		return nil
	}
	out := append([]byte(`{"jsonrpc":"2.0","id":`), id...)
	return append(out, `,"error":{"code":-32000,"message":"server is shutting down"}}`...)
}

// fastHeaders reports whether r's method and headers are ones the fast
// path knows the SDK accepts, and the same way: a POST of JSON at protocol
// 2026-07-28 naming tools/call, accepting both JSON and SSE, without a
// session. (Host and Origin are the server's RequestPolicy's, checked
// before the door; the SDK's own Host check is off.)
func fastHeaders(r *http.Request) bool {
	h := r.Header
	if r.Method != http.MethodPost || h.Get(headerProtocolVersion) != protocolStateless ||
		h.Get(headerMethod) != methodToolsCall || h.Get(headerName) == "" || len(h.Values(headerSessionID)) != 0 {
		return false
	}
	if mt, _, err := mime.ParseMediaType(h.Get("Content-Type")); err != nil || mt != "application/json" {
		return false
	}
	return acceptsJSONAndSSE(h.Values("Accept"))
}

// acceptsJSONAndSSE reports whether the Accept values name both
// application/json and text/event-stream exactly (wildcards go to the SDK).
func acceptsJSONAndSSE(values []string) (ok bool) {
	var jsonOK, sseOK bool
	for _, v := range values {
		for tok := range strings.SplitSeq(v, ",") {
			base, _, _ := strings.Cut(tok, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json":
				jsonOK = true
			case "text/event-stream":
				sseOK = true
			}
		}
	}
	return jsonOK && sseOK
}
