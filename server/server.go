package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Paths served by a Server.
const (
	// PathWS is the WebSocket endpoint.
	PathWS = "/ws"
	// PathHealth answers 200 while the server accepts connections, 503
	// while it shuts down.
	PathHealth = "/healthz"
	// PathReady answers 200 while the server takes new work, 503 while it
	// drains (load balancers stop routing to it).
	PathReady = "/readyz"
	// PathMCP is the MCP streamable HTTP endpoint (Config.MCP).
	PathMCP = "/mcp"
	// PathMetrics is the Prometheus endpoint (Config.Metrics).
	PathMetrics = "/metrics"
	// Subprotocol is the WebSocket subprotocol a client may ask for.
	Subprotocol = "mcp"
)

// ErrGraceExpired is returned by Shutdown when in-flight calls had to be
// cancelled because the grace period ran out.
var ErrGraceExpired = errors.New("server: grace period expired with calls in flight")

// Server serves a registry over WebSocket. Create it with New; it is an
// http.Handler (every path behind its RequestPolicy, see ServeHTTP) and can
// own a listener with Serve.
type Server struct {
	reg      *registry.Registry
	cfg      Config
	log      logrus.FieldLogger
	upgrader websocket.Upgrader
	policy   RequestPolicy
	tokenSum [sha256.Size]byte

	nextID   atomic.Uint64
	active   atomic.Int64
	draining atomic.Bool

	mu    sync.Mutex
	conns map[*conn]struct{}
	wg    sync.WaitGroup
}

// New returns a Server for reg.
func New(reg *registry.Registry, cfg Config) *Server {
	cfg = cfg.withDefaults()
	s := &Server{reg: reg, cfg: cfg, log: cfg.Log, conns: map[*conn]struct{}{}}
	s.policy = RequestPolicy{Token: cfg.Token != "", AllowedOrigins: cfg.AllowedOrigins}
	if cfg.Token != "" {
		s.tokenSum = sha256.Sum256([]byte(cfg.Token))
	}
	s.upgrader = websocket.Upgrader{
		HandshakeTimeout: DefaultHandshakeTimeout,
		ReadBufferSize:   ioBufferSize,
		WriteBufferSize:  ioBufferSize,
		Subprotocols:     []string{Subprotocol},
		// ServeHTTP has applied s.policy (Origin included) to every
		// request before routing it here.
		CheckOrigin: func(*http.Request) bool { return true },
	}
	return s
}

// ServeHTTP applies the RequestPolicy (Host and Origin) to every request,
// then routes PathWS to the WebSocket endpoint, PathHealth and PathReady to
// the probes, and PathMCP and PathMetrics to the configured handlers (404
// when not configured).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if err := s.policy.Check(r); err != nil {
		s.refusePolicy(w, r, err)
		return
	}
	switch r.URL.Path {
	case PathHealth:
		s.serveHealth(w)
	case PathReady:
		s.serveReady(w)
	case PathWS:
		s.serveWS(w, r)
	case PathMCP:
		if s.cfg.MCP == nil {
			http.NotFound(w, r)
			return
		}
		s.serveMCP(w, r)
	case PathMetrics:
		if s.cfg.Metrics == nil {
			http.NotFound(w, r)
			return
		}
		if !s.authorized(r) {
			s.refuseToken(w, r)
			return
		}
		s.cfg.Metrics.ServeHTTP(w, r)
	default:
		http.NotFound(w, r)
	}
}

// serveReady answers PathReady: 503 while draining.
func (s *Server) serveReady(w http.ResponseWriter) {
	s.writeStatus(w, "ready", "draining")
}

// writeStatus answers {"status": up}, or 503 with {"status": down} while
// the server drains.
func (s *Server) writeStatus(w http.ResponseWriter, up, down string) {
	w.Header().Set("Content-Type", "application/json")
	if s.draining.Load() {
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"status": "` + down + `"}`))
		return
	}
	_, _ = w.Write([]byte(`{"status": "` + up + `"}`))
}

// admit applies the rules /ws and /mcp share: nothing new while draining,
// and the bearer token. It reports false after answering a refused request.
func (s *Server) admit(w http.ResponseWriter, r *http.Request) bool {
	if s.draining.Load() {
		http.Error(w, "server is shutting down", http.StatusServiceUnavailable)
		return false
	}
	if !s.authorized(r) {
		s.refuseToken(w, r)
		return false
	}
	return true
}

// serveMCP applies the rules of PathWS (draining, token) and hands the
// request to the MCP door.
func (s *Server) serveMCP(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) {
		return
	}
	s.cfg.MCP.ServeHTTP(w, r)
}

// maxLoggedHeader is how much of a refused request's Host or Origin is
// logged: enough to recognise, bounded whatever the client sent.
const maxLoggedHeader = 200

// refusePolicy answers a request the RequestPolicy refused (403, the
// reason as the body) and logs it without any credential.
func (s *Server) refusePolicy(w http.ResponseWriter, r *http.Request, reason error) {
	s.log.WithFields(logrus.Fields{
		"remote": r.RemoteAddr,
		"path":   clip(r.URL.Path),
		"host":   clip(r.Host),
		"origin": clip(r.Header.Get("Origin")),
		"reason": reason.Error(),
	}).Warn("request refused: host or origin not allowed")
	http.Error(w, reason.Error(), http.StatusForbidden)
}

// clip cuts s to maxLoggedHeader bytes.
func clip(s string) string {
	if len(s) > maxLoggedHeader {
		return s[:maxLoggedHeader] + "..."
	}
	return s
}

// refuseToken answers a request without the right bearer token.
func (s *Server) refuseToken(w http.ResponseWriter, r *http.Request) {
	s.log.WithFields(logrus.Fields{"remote": r.RemoteAddr, "path": r.URL.Path}).Warn("request refused: missing or wrong token")
	w.Header().Set("WWW-Authenticate", `Bearer realm="registry-sidecar"`)
	http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
}

// serveHealth answers PathHealth: 503 while draining.
func (s *Server) serveHealth(w http.ResponseWriter) {
	s.writeStatus(w, "ok", "shutting_down")
}

// serveWS upgrades an admitted request to a WebSocket connection.
func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.admit(w, r) {
		return
	}
	if n := s.active.Add(1); n > int64(s.cfg.MaxConnections) {
		s.active.Add(-1)
		http.Error(w, "too many connections", http.StatusServiceUnavailable)
		return
	}
	defer s.active.Add(-1)
	bw := &batchingWriter{ResponseWriter: w}
	ws, err := s.upgrader.Upgrade(bw, r, nil)
	if err != nil {
		// Upgrade has already answered (400 for a bad handshake).
		s.log.WithFields(logrus.Fields{"remote": r.RemoteAddr, "error": err.Error()}).Warn("connection refused")
		return
	}
	c := newConn(s, ws, bw.conn, "c"+strconv.FormatUint(s.nextID.Add(1), 10), r.RemoteAddr)
	if !s.track(c) {
		c.closeNow(websocket.CloseGoingAway, "server is shutting down")
		return
	}
	defer s.untrack(c)
	c.serve()
}

func (s *Server) track(c *conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.draining.Load() {
		return false
	}
	s.conns[c] = struct{}{}
	s.wg.Add(1)
	return true
}

func (s *Server) untrack(c *conn) {
	s.mu.Lock()
	delete(s.conns, c)
	s.mu.Unlock()
	s.wg.Done()
}

// authorized reports whether r carries the configured bearer token. Both
// sides are hashed first so the comparison is constant-time in the
// token's length too.
func (s *Server) authorized(r *http.Request) bool {
	if s.cfg.Token == "" {
		return true
	}
	h := r.Header.Get("Authorization")
	const prefix = "bearer "
	if len(h) < len(prefix) || !strings.EqualFold(h[:len(prefix)], prefix) {
		return false
	}
	got := sha256.Sum256([]byte(strings.TrimSpace(h[len(prefix):])))
	return subtle.ConstantTimeCompare(got[:], s.tokenSum[:]) == 1
}

// Serve accepts connections on ln until ctx is done, then shuts down
// gracefully: it stops accepting, lets in-flight calls finish within grace,
// closes every connection with 1001 and returns. A grace period that runs
// out is reported as ErrGraceExpired.
func (s *Server) Serve(ctx context.Context, ln net.Listener, grace time.Duration) error {
	return s.ServeListeners(ctx, grace, ln)
}

// ServeListeners is Serve on several listeners at once (say, the WebSocket
// address and a separate MCP address); each serves every path. If one
// fails, the others are closed and its error returned.
func (s *Server) ServeListeners(ctx context.Context, grace time.Duration, lns ...net.Listener) error {
	hs := &http.Server{Handler: s, ReadHeaderTimeout: DefaultHandshakeTimeout}
	errc := make(chan error, len(lns))
	for _, ln := range lns {
		go func() { errc <- hs.Serve(ln) }()
	}
	select {
	case err := <-errc:
		_ = hs.Close()
		for range len(lns) - 1 {
			<-errc
		}
		return err
	case <-ctx.Done():
	}
	s.draining.Store(true)
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	// The MCP door drains its calls while the HTTP server stops accepting
	// and waits for the requests that carry them.
	mcpErr := make(chan error, 1)
	if s.cfg.MCP != nil {
		go func() { mcpErr <- s.cfg.MCP.Shutdown(sctx) }()
	} else {
		mcpErr <- nil
	}
	// Stop accepting first; hijacked WebSocket connections are ours.
	_ = hs.Shutdown(sctx)
	for range lns {
		<-errc
	}
	err := s.Shutdown(sctx)
	if e := <-mcpErr; e != nil && err == nil {
		err = ErrGraceExpired
	}
	return err
}

// Shutdown refuses new connections, waits for in-flight calls to finish
// (until ctx is done, then cancels them), closes every connection with
// 1001 and waits for them to end.
func (s *Server) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.draining.Store(true)
	conns := make([]*conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	s.log.WithField("connections", len(conns)).Info("shutting down")
	var expired atomic.Bool
	var drains sync.WaitGroup
	for _, c := range conns {
		drains.Go(func() {
			if !c.drain(ctx) {
				expired.Store(true)
			}
		})
	}
	drains.Wait()
	s.wg.Wait()
	if expired.Load() {
		return ErrGraceExpired
	}
	return nil
}

// Connections returns the number of open WebSocket connections.
func (s *Server) Connections() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.conns)
}
