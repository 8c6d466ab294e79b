package mcpdoor

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/internal/defaults"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Names of the doors, as logs and metrics label them.
const (
	// DoorStdio is MCP over the process's stdin and stdout.
	DoorStdio = "stdio"
	// DoorHTTP is MCP streamable HTTP.
	DoorHTTP = "http"
)

// Defaults of Config fields left zero.
const (
	// DefaultSessionTimeout closes an HTTP session (protocol 2025-11-25
	// and older) that sent no request for this long.
	DefaultSessionTimeout = 30 * time.Minute
	// DefaultMaxRequestBytes caps one HTTP request body, like the
	// WebSocket door's read limit.
	DefaultMaxRequestBytes = 16 << 20
	// DefaultMaxLineBytes caps one stdio message.
	DefaultMaxLineBytes = 16 << 20
	// DefaultGrace is how long, once a stdio client closes its input, the
	// calls it sent may take to answer.
	DefaultGrace = 10 * time.Second
	// DefaultMaxConcurrentCalls bounds the tools running at once through
	// one Door (all its sessions and requests); more calls wait for a slot.
	DefaultMaxConcurrentCalls = 256
	// DefaultName is the serverInfo name the door reports.
	DefaultName = "registry-sidecar"
	// DefaultVersion is the serverInfo version the door reports.
	DefaultVersion = "dev"
)

// ErrGraceExpired is returned by Shutdown when calls in flight had to be
// cancelled because ctx ended first.
var ErrGraceExpired = errors.New("mcpdoor: grace period expired with calls in flight")

// Config configures a Door. Zero fields take the defaults above.
type Config struct {
	// Name and Version are reported as serverInfo.
	Name, Version string
	// SessionTimeout closes idle HTTP sessions of older clients.
	SessionTimeout time.Duration
	// MaxRequestBytes caps one HTTP request body (413 beyond).
	MaxRequestBytes int64
	// MaxLineBytes caps one stdio message; a longer line is answered as
	// an invalid request and skipped.
	MaxLineBytes int
	// Grace bounds how long, once a stdio client closes its input, the
	// calls it already sent may take to finish and answer; calls still
	// running then are cancelled.
	Grace time.Duration
	// MaxConcurrentCalls bounds the tools running at once; a call waits
	// for a slot (or for its cancellation).
	MaxConcurrentCalls int
	// Log receives one line per call and per stdio session.
	Log logrus.FieldLogger
}

// withDefaults fills every unset field of c with its default.
func (c Config) withDefaults() Config {
	defaults.Text(&c.Name, DefaultName)
	defaults.Text(&c.Version, DefaultVersion)
	defaults.Positive(&c.SessionTimeout, DefaultSessionTimeout)
	defaults.Positive(&c.MaxRequestBytes, DefaultMaxRequestBytes)
	defaults.Positive(&c.MaxLineBytes, DefaultMaxLineBytes)
	defaults.Positive(&c.Grace, DefaultGrace)
	defaults.Positive(&c.MaxConcurrentCalls, DefaultMaxConcurrentCalls)
	defaults.Logger(&c.Log)
	return c
}

// Door serves one registry over MCP stdio and streamable HTTP. Create it
// with New; it is the http.Handler of the HTTP door and serves stdio with
// ServeStdio. Safe for concurrent use.
type Door struct {
	reg           *registry.Registry
	cfg           Config
	log           logrus.FieldLogger
	srv           *mcp.Server
	stateless     *mcp.StreamableHTTPHandler // SSE answers: calls asking for progress, batches
	statelessJSON *mcp.StreamableHTTPHandler // application/json answers
	stateful      *mcp.StreamableHTTPHandler
	// fast answers stateless tools/call requests it can vouch for
	// without the SDK's per-request session (fast.go).
	fast *fastPath

	// slots holds one token per call running (MaxConcurrentCalls).
	slots chan struct{}

	// mu guards draining against calls starting (calls.Add).
	mu       sync.Mutex
	draining bool
	calls    sync.WaitGroup
	// stop cancels every call in flight (grace expired).
	stopCtx context.Context
	stop    context.CancelFunc
	// streamsCtx ends the HTTP GET streams (server-to-client SSE of older
	// clients) once the calls are drained.
	streamsCtx   context.Context
	closeStreams context.CancelFunc
	// stdio are the stdio sessions open, with what each still owes its
	// client; Shutdown closes them once they owe nothing.
	stdio map[*mcp.ServerSession]*answers

	open [2]atomic.Int64 // open connections: [0] stdio sessions, [1] HTTP requests
}

// New returns a Door onto reg, listing the tools registered so far.
func New(reg *registry.Registry, cfg Config) *Door {
	cfg = cfg.withDefaults()
	d := &Door{reg: reg, cfg: cfg, log: cfg.Log, slots: make(chan struct{}, cfg.MaxConcurrentCalls)}
	d.stopCtx, d.stop = context.WithCancel(context.Background())
	d.streamsCtx, d.closeStreams = context.WithCancel(context.Background())
	d.stdio = map[*mcp.ServerSession]*answers{}
	impl := &mcp.Implementation{Name: cfg.Name, Version: cfg.Version}
	d.srv = mcp.NewServer(impl, &mcp.ServerOptions{
		// Only tools: no logging capability (stdout is protocol only and
		// logs go to stderr), no list-changed (the tool set is fixed).
		Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}},
	})
	d.fast = newFastPath(impl)
	for _, t := range reg.Tools() {
		if d.addTool(t) {
			d.fast.list(t)
		}
	}
	d.srv.AddReceivingMiddleware(d.middleware)
	// The SDK's own DNS-rebinding check (a loopback listener refuses other
	// Host headers) is off: the server's RequestPolicy, applied to every
	// path before this door, is the one rule for Host and Origin.
	d.stateless = mcp.NewStreamableHTTPHandler(d.server, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		MaxRequestBodyBytes:          cfg.MaxRequestBytes,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   true,
	})
	d.statelessJSON = mcp.NewStreamableHTTPHandler(d.server, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		JSONResponse:                 true,
		MaxRequestBodyBytes:          cfg.MaxRequestBytes,
		PropagateRequestCancellation: true,
		DisableLocalhostProtection:   true,
	})
	d.stateful = mcp.NewStreamableHTTPHandler(d.server, &mcp.StreamableHTTPOptions{
		SessionTimeout:             cfg.SessionTimeout,
		MaxRequestBodyBytes:        cfg.MaxRequestBytes,
		DisableLocalhostProtection: true,
	})
	return d
}

func (d *Door) server(*http.Request) *mcp.Server { return d.srv }

// addTool lists t with its schema and annotations and routes its calls to
// the registry. A schema whose type is not "object" cannot be served by
// MCP (the SDK refuses it): the tool is left out, the reason logged, and
// listed is false.
func (d *Door) addTool(t registry.Tool) (listed bool) {
	defer func() {
		if p := recover(); p != nil {
			d.log.WithFields(logrus.Fields{"tool": t.Name, "reason": p}).Error("tool left out of the MCP doors")
		}
	}()
	d.srv.AddTool(&mcp.Tool{
		Name:        t.Name,
		Description: t.Description,
		InputSchema: json.RawMessage(t.InputSchema),
		Annotations: ToolAnnotations(t.Annotations),
	}, d.callTool)
	return true
}

// ToolAnnotations is the MCP form of a tool's declaration
// (registry.Annotations.MCP): nil for none.
func ToolAnnotations(a *registry.Annotations) *mcp.ToolAnnotations {
	h := a.MCP()
	if h == nil {
		return nil
	}
	openWorld := h.OpenWorldHint
	return &mcp.ToolAnnotations{
		Title:           h.Title,
		ReadOnlyHint:    h.ReadOnlyHint,
		DestructiveHint: h.DestructiveHint,
		IdempotentHint:  h.IdempotentHint,
		OpenWorldHint:   &openWorld,
	}
}

// Connections returns the open connections of door (DoorStdio: stdio
// sessions; DoorHTTP: HTTP requests being served, a held-open SSE stream
// included).
func (d *Door) Connections(door string) int64 {
	switch door {
	case DoorStdio:
		return d.open[0].Load()
	case DoorHTTP:
		return d.open[1].Load()
	}
	return 0
}

// Shutdown stops the door: new calls are refused, calls in flight may
// finish until ctx is done (then they are cancelled and answer
// TOOL_CANCELLED). Then the stdio sessions are closed (their answers
// written first) and the HTTP GET streams ended; HTTP requests that carry
// answers end on their own, so the HTTP server's Shutdown can wait for
// them. It returns ErrGraceExpired when calls had to be cancelled.
func (d *Door) Shutdown(ctx context.Context) error {
	d.mu.Lock()
	d.draining = true
	d.mu.Unlock()
	done := make(chan struct{})
	go func() { d.calls.Wait(); close(done) }()
	var err error
	select {
	case <-done:
	case <-ctx.Done():
		d.stop()
		<-done
		err = ErrGraceExpired
	}
	d.closeStreams()
	d.mu.Lock()
	sessions := make(map[*mcp.ServerSession]*answers, len(d.stdio))
	for ss, owed := range d.stdio {
		sessions[ss] = owed
	}
	d.mu.Unlock()
	// The SDK writes nothing once a session is closing: let the answers of
	// the calls that just ended reach the client first.
	flush, cancel := context.WithTimeout(context.Background(), answerFlushTimeout)
	defer cancel()
	for ss, owed := range sessions {
		owed.wait(flush)
		_ = ss.Close()
	}
	return err
}

// Draining reports whether Shutdown has begun.
func (d *Door) Draining() bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.draining
}
