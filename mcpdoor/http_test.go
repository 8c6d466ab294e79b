package mcpdoor_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// initializeBody is a 2025-11-25 initialize request.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// post sends initializeBody to url with header and returns the status.
func post(t *testing.T, url string, header map[string]string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(initializeBody))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// bearer adds a token to every request of the SDK client.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestHTTPTokenAndOrigin: /mcp follows the rules of /ws: the bearer token
// when configured, and no foreign browser Origin.
func TestHTTPTokenAndOrigin(t *testing.T) {
	reg := newRegistry(t)
	door := mcpdoor.New(reg, mcpdoor.Config{})
	hs := httpFixture(t, reg, door, server.Config{Token: "sekret", AllowedOrigins: []string{"https://app.example.com"}})
	url := hs.URL + server.PathMCP
	assert.Equal(t, http.StatusUnauthorized, post(t, url, nil), "no token")
	assert.Equal(t, http.StatusUnauthorized, post(t, url, map[string]string{"Authorization": "Bearer wrong"}), "wrong token")
	ok := map[string]string{"Authorization": "Bearer sekret"}
	assert.Equal(t, http.StatusOK, post(t, url, ok))
	assert.Equal(t, http.StatusForbidden, post(t, url, map[string]string{"Authorization": "Bearer sekret", "Origin": "https://evil.example"}), "foreign origin")
	assert.Equal(t, http.StatusOK, post(t, url, map[string]string{"Authorization": "Bearer sekret", "Origin": "https://app.example.com"}), "allowed origin")
	assert.Equal(t, http.StatusOK, post(t, url, map[string]string{"Authorization": "Bearer sekret", "Origin": "http://localhost:3000"}), "loopback origin")

	client := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"sekret"}}}, nil)
	require.NoError(t, err)
	defer cs.Close()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add", Arguments: json.RawMessage(`{"a":1,"b":1}`)})
	require.NoError(t, err)
	assert.Equal(t, `{"status": "success", "sum": 2}`, res.Content[0].(*mcp.TextContent).Text)
}

// TestShutdownDrainsCalls: Shutdown lets a call in flight finish and
// answers it, refuses calls that arrive later, and closes the sessions.
func TestShutdownDrainsCalls(t *testing.T) {
	p := &probe{started: map[string]chan struct{}{"sleep": make(chan struct{}, 1)}}
	reg := newObservedRegistry(t, p)
	door := mcpdoor.New(reg, mcpdoor.Config{})
	cs := stdioSession(t, door, nil)
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sleep", Arguments: json.RawMessage(`{"ms": 200}`)})
		assert.NoError(t, err)
		answered <- res
	}()
	<-p.started["sleep"]
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	require.NoError(t, door.Shutdown(ctx))
	select {
	case res := <-answered:
		assert.Equal(t, `{"status": "success", "slept_ms": 200}`, res.Content[0].(*mcp.TextContent).Text)
	case <-time.After(testWait):
		t.Fatal("the call in flight was not answered")
	}
	assert.True(t, door.Draining())
}

// TestShutdownGraceExpires: a call longer than the grace period is
// cancelled and answered TOOL_CANCELLED; Shutdown says so.
func TestShutdownGraceExpires(t *testing.T) {
	p := &probe{started: map[string]chan struct{}{"sleep": make(chan struct{}, 1)}}
	reg := newObservedRegistry(t, p)
	door := mcpdoor.New(reg, mcpdoor.Config{})
	hs := httpFixture(t, reg, door, server.Config{})
	cs := httpSession(t, hs.URL, "", nil)
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sleep", Arguments: json.RawMessage(`{"ms": 600000}`)})
		assert.NoError(t, err)
		answered <- res
	}()
	<-p.started["sleep"]
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	assert.True(t, errors.Is(door.Shutdown(ctx), mcpdoor.ErrGraceExpired))
	select {
	case res := <-answered:
		assert.True(t, res.IsError)
		assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, `"error_code": "TOOL_CANCELLED"`)
	case <-time.After(testWait):
		t.Fatal("the cancelled call was not answered")
	}
	_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "add", Arguments: json.RawMessage(`{"a":1,"b":1}`)})
	assert.Error(t, err, "a call after Shutdown is refused")
}

// TestConcurrencyBound: beyond MaxConcurrentCalls a call waits for a slot
// and runs once one frees.
func TestConcurrencyBound(t *testing.T) {
	p := &probe{started: map[string]chan struct{}{"slow": make(chan struct{}, 1)}}
	reg := newObservedRegistry(t, p)
	door := mcpdoor.New(reg, mcpdoor.Config{MaxConcurrentCalls: 1})
	cs := stdioSession(t, door, nil)
	slowCtx, cancelSlow := context.WithCancel(context.Background())
	slowDone := make(chan struct{})
	go func() {
		defer close(slowDone)
		_, _ = cs.CallTool(slowCtx, &mcp.CallToolParams{Name: "slow", Arguments: json.RawMessage(`{}`)})
	}()
	<-p.started["slow"]

	waitCtx, cancelWait := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancelWait()
	_, err := cs.CallTool(waitCtx, &mcp.CallToolParams{Name: "add", Arguments: json.RawMessage(`{"a":1,"b":1}`)})
	assert.ErrorIs(t, err, context.DeadlineExceeded, "the second call must wait while the only slot is taken")

	cancelSlow()
	<-slowDone
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: json.RawMessage(`{"a":1,"b":1}`)})
	require.NoError(t, err)
	assert.Equal(t, `{"status": "success", "sum": 2}`, res.Content[0].(*mcp.TextContent).Text)
}
