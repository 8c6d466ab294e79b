package server_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// served is a Server owning a real listener through Serve.
type served struct {
	srv  *server.Server
	addr string
	stop context.CancelFunc
	done chan error
}

// serve runs Serve over the test tools and g's hold tool.
func serve(t *testing.T, grace time.Duration, g *gauge) *served {
	t.Helper()
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	require.NoError(t, reg.Register(g.tool()))
	srv := server.New(reg, server.Config{})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	ctx, stop := context.WithCancel(context.Background())
	s := &served{srv: srv, addr: ln.Addr().String(), stop: stop, done: make(chan error, 1)}
	go func() { s.done <- srv.Serve(ctx, ln, grace) }()
	t.Cleanup(stop)
	return s
}

func (s *served) dial(t *testing.T) *client {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial("ws://"+s.addr+server.PathWS, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	t.Cleanup(func() { _ = ws.Close() })
	return &client{t: t, ws: ws}
}

func (s *served) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-s.done:
		return err
	case <-time.After(testWait):
		t.Fatal("Serve did not return")
		return nil
	}
}

// stopped reports whether the listener is closed: Serve has begun its
// shutdown.
func (s *served) stopped() bool {
	conn, err := net.DialTimeout("tcp", s.addr, time.Second)
	if err == nil {
		_ = conn.Close()
	}
	return err != nil
}

// TestGracefulShutdown: calls in flight when shutdown starts finish and
// are answered, then every connection is closed with 1001, Serve returns
// nil and new connections are refused.
func TestGracefulShutdown(t *testing.T) {
	g := newGauge()
	s := serve(t, testWait, g)
	clients := []*client{s.dial(t), s.dial(t), s.dial(t)}
	for i, c := range clients {
		c.send(callFrame(i, "hold", `{}`, ""))
	}
	eventually(t, func() bool { return g.running.Load() == int64(len(clients)) }, "the calls did not start")
	s.stop()
	eventually(t, s.stopped, "the listener is still open")
	assert.Equal(t, int64(len(clients)), g.running.Load(), "shutdown did not wait for the calls")
	close(g.release)
	for i, c := range clients {
		got := c.next()
		assert.Equal(t, int64(i), got.Get("id").Int())
		assert.Equal(t, `{"status": "success"}`, got.Get("result.content.0.text").String())
		assert.Equal(t, websocket.CloseGoingAway, c.closeCode())
	}
	require.NoError(t, s.wait(t))
	_, err := http.Get("http://" + s.addr + server.PathHealth)
	assert.Error(t, err, "the listener is still open")
}

// TestShutdownGraceExpires: a call longer than the grace period is
// cancelled (answered TOOL_CANCELLED), the connection closed with 1001,
// and Serve reports ErrGraceExpired.
func TestShutdownGraceExpires(t *testing.T) {
	g := newGauge() // never released
	s := serve(t, 100*time.Millisecond, g)
	c := s.dial(t)
	c.send(callFrame(1, "hold", `{}`, ""))
	eventually(t, func() bool { return g.running.Load() == 1 }, "the call did not start")
	s.stop()
	got := c.next()
	assert.Contains(t, got.Get("result.content.0.text").String(), `"error_code": "TOOL_CANCELLED"`)
	assert.Equal(t, websocket.CloseGoingAway, c.closeCode())
	assert.True(t, errors.Is(s.wait(t), server.ErrGraceExpired))
}

// TestShutdownRefusesNewCalls: during the drain a new tools/call on an
// open connection is refused with -32000 and the drain still completes.
func TestShutdownRefusesNewCalls(t *testing.T) {
	g := newGauge()
	s := serve(t, testWait, g)
	c := s.dial(t)
	c.send(callFrame(1, "hold", `{}`, ""))
	eventually(t, func() bool { return g.running.Load() == 1 }, "the call did not start")
	s.stop()
	eventually(t, s.stopped, "the listener is still open")
	refused := c.roundTrip(callFrame(2, "add", `{"a":1,"b":1}`, ""))
	assert.Equal(t, "2", refused.Get("id").Raw)
	assert.Equal(t, int64(server.CodeShuttingDown), refused.Get("error.code").Int())
	close(g.release)
	assert.Equal(t, "1", c.next().Get("id").Raw)
	assert.Equal(t, websocket.CloseGoingAway, c.closeCode())
	require.NoError(t, s.wait(t))
}
