package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// testWait bounds every wait of a test for a frame or a state change.
const testWait = 10 * time.Second

// fixture is a Server behind a real loopback listener.
type fixture struct {
	srv  *server.Server
	http *httptest.Server
	url  string
	logs *test.Hook
}

// startServer serves the test tools with cfg on a real listener.
func startServer(t testing.TB, cfg server.Config, regOpts ...registry.Option) *fixture {
	t.Helper()
	log, hook := test.NewNullLogger()
	log.Level = logrus.DebugLevel
	if cfg.Log == nil {
		cfg.Log = log
	}
	reg := registry.New(append([]registry.Option{registry.WithLogger(log)}, regOpts...)...)
	require.NoError(t, testtools.Register(reg))
	srv := server.New(reg, cfg)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		_ = srv.Shutdown(ctx)
		hs.Close()
	})
	return &fixture{srv: srv, http: hs, url: "ws" + strings.TrimPrefix(hs.URL, "http") + server.PathWS, logs: hook}
}

// client is a test WebSocket client reading frames in order.
type client struct {
	t  testing.TB
	ws *websocket.Conn
}

func (f *fixture) dial(t testing.TB) *client {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(f.url, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	t.Cleanup(func() { _ = ws.Close() })
	return &client{t: t, ws: ws}
}

// dialStatus dials with header and returns the HTTP status of a refused
// upgrade (or 101).
func (f *fixture) dialStatus(t testing.TB, header http.Header) int {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(f.url, header)
	if err == nil {
		_ = ws.Close()
	}
	require.NotNil(t, resp, "no HTTP response: %v", err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

func (c *client) send(frame string) {
	c.t.Helper()
	require.NoError(c.t, c.ws.WriteMessage(websocket.TextMessage, []byte(frame)))
}

// next reads the next frame.
func (c *client) next() gjson.Result {
	c.t.Helper()
	require.NoError(c.t, c.ws.SetReadDeadline(time.Now().Add(testWait)))
	mt, data, err := c.ws.ReadMessage()
	require.NoError(c.t, err)
	require.Equal(c.t, websocket.TextMessage, mt)
	require.True(c.t, gjson.ValidBytes(data), "invalid JSON frame %q", data)
	return gjson.ParseBytes(data)
}

// roundTrip sends frame and returns the next frame.
func (c *client) roundTrip(frame string) gjson.Result {
	c.t.Helper()
	c.send(frame)
	return c.next()
}

// callFrame is a tools/call request.
func callFrame(id int, name, args string, meta string) string {
	f := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args
	if meta != "" {
		f += `,"_meta":` + meta
	}
	return f + `}}`
}

// closeCode reads until the connection ends and returns the close code
// (or -1 when it ended without a close frame).
func (c *client) closeCode() int {
	c.t.Helper()
	require.NoError(c.t, c.ws.SetReadDeadline(time.Now().Add(testWait)))
	for {
		_, _, err := c.ws.ReadMessage()
		if err == nil {
			continue
		}
		if ce, ok := err.(*websocket.CloseError); ok {
			return ce.Code
		}
		return -1
	}
}

// eventually polls cond until it holds or testWait passes.
func eventually(t testing.TB, cond func() bool, msg string) {
	t.Helper()
	require.Eventually(t, cond, testWait, 5*time.Millisecond, msg)
}

// serveRegistry serves an already built Server on a real listener.
func serveRegistry(t testing.TB, srv *server.Server) *fixture {
	t.Helper()
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		_ = srv.Shutdown(ctx)
		hs.Close()
	})
	return &fixture{srv: srv, http: hs, url: "ws" + strings.TrimPrefix(hs.URL, "http") + server.PathWS}
}

// gauge is a tool that counts how many of its calls run at once. Each call
// holds until release is closed (or its context ends), so a test can see
// concurrency directly instead of inferring it from timings.
type gauge struct {
	running, peak atomic.Int64
	release       chan struct{}
}

func newGauge() *gauge { return &gauge{release: make(chan struct{})} }

// tool is the "hold" tool backed by g.
func (g *gauge) tool() registry.Tool {
	return registry.Tool{
		Name:        "hold",
		Description: "Hold until the test releases every call.",
		Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			n := g.running.Add(1)
			defer g.running.Add(-1)
			for p := g.peak.Load(); n > p && !g.peak.CompareAndSwap(p, n); p = g.peak.Load() {
			}
			select {
			case <-g.release:
				return pyjson.Object{{Key: "status", Value: "success"}}, nil
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		},
	}
}

// startGauge serves the test tools plus g's hold tool with cfg.
func startGauge(t testing.TB, cfg server.Config, g *gauge) *fixture {
	t.Helper()
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	require.NoError(t, reg.Register(g.tool()))
	return serveRegistry(t, server.New(reg, cfg))
}
