package mcpdoor

import (
	"context"
	"net/http"

	"github.com/tidwall/gjson"
)

// protocolStateless is the first protocol revision served without
// sessions (SEP-2575); the SDK serves it only on a stateless handler.
const protocolStateless = "2026-07-28"

// headerProtocolVersion carries a request's protocol revision.
const headerProtocolVersion = "Mcp-Protocol-Version"

// ServeHTTP serves the streamable HTTP door. Serve it only through
// server.Server (Config.MCP), whose RequestPolicy (Host and Origin) and
// token check guard it: the door checks neither itself. Requests at protocol 2026-07-28 or later are
// served statelessly (a plain tools/call by the fast path, fast.go; the
// rest by the SDK); older clients get sessions.
func (d *Door) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	d.open[1].Add(1)
	defer d.open[1].Add(-1)
	if r.Method == http.MethodGet {
		// A GET holds a server-to-client stream open: Shutdown ends it
		// once the calls are drained.
		ctx, cancel := context.WithCancel(r.Context())
		defer cancel()
		stop := context.AfterFunc(d.streamsCtx, cancel)
		defer stop()
		r = r.WithContext(ctx)
	}
	if v := r.Header.Get(headerProtocolVersion); v >= protocolStateless {
		d.serveStateless(w, r)
		return
	}
	d.stateful.ServeHTTP(w, r)
}

// serveStateless serves a request at protocol 2026-07-28 or later. The
// answer is one application/json body, except for batches and calls that
// carry a progressToken, whose progress notifications stream as
// server-sent events before the answer. A plain tools/call takes the fast
// path (fast.go); the SDK serves the rest.
func (d *Door) serveStateless(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.Body == nil {
		d.stateless.ServeHTTP(w, r)
		return
	}
	body, ok := readBody(r, d.cfg.MaxRequestBytes)
	switch {
	case !ok:
		d.stateless.ServeHTTP(w, r) // too long: the SDK answers 413
	case d.serveFast(w, r, body):
	case streams(body):
		d.stateless.ServeHTTP(w, r)
	default:
		d.statelessJSON.ServeHTTP(w, r)
	}
}

// streams reports whether the answer to body must be a stream of events:
// a batch, or a request asking for progress.
func streams(body []byte) bool {
	msg := gjson.ParseBytes(body)
	return msg.IsArray() || msg.Get(`params._meta.progressToken`).Exists()
}
