package mcpdoor

import (
	"context"
	"net/http"
)

// protocolStateless is the first protocol revision served without
// sessions (SEP-2575); the SDK serves it only on a stateless handler.
const protocolStateless = "2026-07-28"

// headerProtocolVersion carries a request's protocol revision.
const headerProtocolVersion = "Mcp-Protocol-Version"

// ServeHTTP serves the streamable HTTP door (mount it at /mcp behind the
// token and Origin checks). Requests at protocol 2026-07-28 or later are
// served statelessly; older clients get sessions.
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
		d.stateless.ServeHTTP(w, r)
		return
	}
	d.stateful.ServeHTTP(w, r)
}
