package server

import (
	"context"
	"net/http"
	"time"

	"github.com/sirupsen/logrus"

	"github.com/registry-sidecar/registry-sidecar/internal/defaults"
)

// Defaults of Config fields left zero.
const (
	// DefaultReadLimit caps one inbound frame (a JSON-RPC message) at 16 MiB.
	DefaultReadLimit = 16 << 20
	// DefaultMaxConcurrentCalls is how many tools/call run at once on one
	// connection.
	DefaultMaxConcurrentCalls = 64
	// DefaultOutboundQueue is how many messages may wait for the writer of
	// one connection.
	DefaultOutboundQueue = 256
	// DefaultWriteTimeout is how long one frame write, or a wait for room in
	// the outbound queue, may take before the client is dropped as too slow.
	DefaultWriteTimeout = 10 * time.Second
	// DefaultPingInterval is how often the server pings an idle client.
	DefaultPingInterval = 30 * time.Second
	// DefaultPongWait is how long the server waits for any frame (a pong
	// included) before it drops the client.
	DefaultPongWait = 75 * time.Second
	// DefaultMaxConnections caps simultaneous WebSocket connections.
	DefaultMaxConnections = 4096
	// DefaultHandshakeTimeout bounds the HTTP upgrade.
	DefaultHandshakeTimeout = 10 * time.Second
	// DefaultName is the serverInfo name initialize reports.
	DefaultName = "registry-sidecar"
	// DefaultVersion is the serverInfo version initialize reports.
	DefaultVersion = "dev"
	// closeWriteTimeout bounds writing a close frame.
	closeWriteTimeout = time.Second
	// ioBufferSize is the read and write buffer size of a connection.
	ioBufferSize = 16 << 10
)

// Config configures a Server. Zero fields take the defaults above.
type Config struct {
	// Token, when set, is required as "Authorization: Bearer <token>" on
	// PathWS, PathMCP and PathMetrics. Without it only loopback Host and
	// Origin headers are served, on every path (RequestPolicy).
	Token string
	// AllowedOrigins are Origin values accepted besides same-host and
	// loopback origins (e.g. "https://app.example.com"); only with a Token.
	AllowedOrigins []string
	// ReadLimit caps one inbound frame in bytes; bigger frames are closed
	// with 1009.
	ReadLimit int64
	// MaxConcurrentCalls bounds concurrently running calls per connection.
	MaxConcurrentCalls int
	// OutboundQueue bounds the messages waiting for the writer.
	OutboundQueue int
	// WriteTimeout bounds one frame write and a wait for queue room.
	WriteTimeout time.Duration
	// PingInterval is the keepalive ping period.
	PingInterval time.Duration
	// PongWait is the read deadline renewed by every frame and pong.
	PongWait time.Duration
	// MaxConnections caps simultaneous connections (503 beyond).
	MaxConnections int
	// Name and Version are reported as serverInfo by initialize.
	Name, Version string
	// Log receives one line per connection and per call.
	Log logrus.FieldLogger
	// MCP, when set, is served at PathMCP behind the same policy and token
	// check as PathWS, and shut down with the server (the MCP streamable
	// HTTP door, mcpdoor.Door).
	MCP Door
	// Metrics, when set, is served at PathMetrics behind the policy and
	// the token check (Prometheus text format).
	Metrics http.Handler
}

// Door is another front door served beside PathWS: an HTTP endpoint that
// Serve shuts down with the server. Shutdown refuses new calls, lets calls
// in flight finish until ctx is done, then cancels them.
type Door interface {
	http.Handler
	Shutdown(ctx context.Context) error
}

// withDefaults fills every unset field of c with its default.
func (c Config) withDefaults() Config {
	defaults.Positive(&c.ReadLimit, DefaultReadLimit)
	defaults.Positive(&c.MaxConcurrentCalls, DefaultMaxConcurrentCalls)
	defaults.Positive(&c.OutboundQueue, DefaultOutboundQueue)
	defaults.Positive(&c.WriteTimeout, DefaultWriteTimeout)
	defaults.Positive(&c.PingInterval, DefaultPingInterval)
	defaults.Positive(&c.PongWait, DefaultPongWait)
	if c.PongWait <= c.PingInterval {
		c.PongWait = c.PingInterval * 5 / 2
	}
	defaults.Positive(&c.MaxConnections, DefaultMaxConnections)
	defaults.Text(&c.Name, DefaultName)
	defaults.Text(&c.Version, DefaultVersion)
	defaults.Logger(&c.Log)
	return c
}
