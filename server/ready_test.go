package server_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// status is the HTTP status of GET url.
func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// TestReadyWhileDraining: /readyz and /healthz answer 200 while serving and
// 503 while the server drains its calls; unconfigured /mcp and /metrics
// are 404.
func TestReadyWhileDraining(t *testing.T) {
	g := newGauge()
	reg := registry.New()
	require.NoError(t, reg.Register(g.tool()))
	srv := server.New(reg, server.Config{})
	hs := httptest.NewServer(srv)
	defer hs.Close()
	assert.Equal(t, http.StatusOK, status(t, hs.URL+server.PathReady))
	assert.Equal(t, http.StatusOK, status(t, hs.URL+server.PathHealth))
	assert.Equal(t, http.StatusNotFound, status(t, hs.URL+server.PathMCP))
	assert.Equal(t, http.StatusNotFound, status(t, hs.URL+server.PathMetrics))

	ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(hs.URL, "http")+server.PathWS, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	defer ws.Close()
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(callFrame(1, "hold", `{}`, ""))))
	eventually(t, func() bool { return g.running.Load() == 1 }, "the call did not start")

	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(context.Background()) }()
	eventually(t, func() bool { return status(t, hs.URL+server.PathReady) == http.StatusServiceUnavailable }, "/readyz still ready while draining")
	assert.Equal(t, http.StatusServiceUnavailable, status(t, hs.URL+server.PathHealth))
	close(g.release)
	require.NoError(t, <-done)
	assert.Equal(t, http.StatusServiceUnavailable, status(t, hs.URL+server.PathReady))
}
