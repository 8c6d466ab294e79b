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

func serve(t *testing.T, grace time.Duration) *served {
	t.Helper()
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
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

// TestGracefulShutdown: calls in flight when shutdown starts finish and
// are answered, then every connection is closed with 1001, Serve returns
// nil and new connections are refused.
func TestGracefulShutdown(t *testing.T) {
	s := serve(t, testWait)
	clients := []*client{s.dial(t), s.dial(t), s.dial(t)}
	for i, c := range clients {
		c.send(callFrame(i, "sleep", `{"ms":300}`, ""))
	}
	// Let the calls start before shutting down.
	time.Sleep(50 * time.Millisecond)
	s.stop()
	for i, c := range clients {
		got := c.next()
		assert.Equal(t, int64(i), got.Get("id").Int())
		assert.Equal(t, `{"status": "success", "slept_ms": 300}`, got.Get("result.content.0.text").String())
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
	s := serve(t, 100*time.Millisecond)
	c := s.dial(t)
	c.send(callFrame(1, "sleep", `{"ms":60000}`, ""))
	time.Sleep(50 * time.Millisecond)
	s.stop()
	got := c.next()
	assert.Contains(t, got.Get("result.content.0.text").String(), `"error_code": "TOOL_CANCELLED"`)
	assert.Equal(t, websocket.CloseGoingAway, c.closeCode())
	assert.True(t, errors.Is(s.wait(t), server.ErrGraceExpired))
}

// TestShutdownRefusesNewCalls: during the drain a new tools/call on an
// open connection is refused with -32000 and the drain still completes.
func TestShutdownRefusesNewCalls(t *testing.T) {
	s := serve(t, testWait)
	c := s.dial(t)
	c.send(callFrame(1, "sleep", `{"ms":300}`, ""))
	time.Sleep(50 * time.Millisecond)
	s.stop()
	time.Sleep(50 * time.Millisecond)
	c.send(callFrame(2, "add", `{"a":1,"b":1}`, ""))
	refused := c.next()
	assert.Equal(t, "2", refused.Get("id").Raw)
	assert.Equal(t, int64(server.CodeShuttingDown), refused.Get("error.code").Int())
	assert.Equal(t, "1", c.next().Get("id").Raw)
	assert.Equal(t, websocket.CloseGoingAway, c.closeCode())
	require.NoError(t, s.wait(t))
}
