package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// teeWriter copies what the server writes to stdout into a record.
type teeWriter struct {
	w      io.Writer
	record *lockedBuffer
}

func (t teeWriter) Write(p []byte) (int, error) {
	_, _ = t.record.Write(p)
	return t.w.Write(p)
}

// TestMCPStdio: `registry-sidecar mcp` serves MCP on stdin/stdout with only
// protocol messages on stdout, logs on stderr (naming the workspace and the
// door), and on SIGTERM lets the call in flight finish and answer.
func TestMCPStdio(t *testing.T) {
	cr, sw := io.Pipe() // server stdout to client
	sr, cw := io.Pipe() // client to server stdin
	var stdout, stderr lockedBuffer
	ctx, sigterm := context.WithCancel(context.Background())
	defer sigterm()
	workspace := t.TempDir()
	done := make(chan error, 1)
	go func() {
		done <- runMCP(ctx, []string{"--workspace", workspace, "--test-tools"}, sr, teeWriter{sw, &stdout}, &stderr)
		_ = sw.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	require.NoError(t, err)
	defer cs.Close()

	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "write_cells", Arguments: json.RawMessage(`{"file_path":"s.xlsx","cell":"A1","value":1,"create":true}`)})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content[0].(*mcp.TextContent).Text)

	// SIGTERM while a call runs: it finishes and is answered.
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sleep", Arguments: json.RawMessage(`{"ms": 300}`), Meta: mcp.Meta{"progressToken": "p"}})
		assert.NoError(t, err)
		answered <- res
	}()
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), `"progress"`) }, testWait, 5*time.Millisecond, "the sleep call did not start")
	sigterm()
	select {
	case res := <-answered:
		require.NotNil(t, res)
		assert.Equal(t, `{"status": "success", "slept_ms": 300}`, res.Content[0].(*mcp.TextContent).Text)
	case <-time.After(testWait):
		t.Fatal("the call in flight at SIGTERM was not answered")
	}
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(testWait):
		t.Fatal("mcp did not return after SIGTERM")
	}

	sc := bufio.NewScanner(strings.NewReader(stdout.String()))
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		assert.Equal(t, "2.0", gjson.Get(sc.Text(), "jsonrpc").Str, "stdout carries only JSON-RPC messages: %q", sc.Text())
	}
	assert.Greater(t, n, 3)
	var listening gjson.Result
	for _, line := range strings.Split(stderr.String(), "\n") {
		if l := gjson.Parse(line); l.Get("msg").Str == "listening" {
			listening = l
		}
	}
	require.True(t, listening.Exists(), "stderr: %s", stderr.String())
	assert.Equal(t, workspace, listening.Get("workspace").Str)
	assert.Equal(t, `["stdio"]`, listening.Get("doors").Raw)
}

// TestServeMCPDrains: with --mcp-listen, SIGTERM lets an MCP HTTP call in
// flight finish and answer, then run returns nil.
func TestServeMCPDrains(t *testing.T) {
	s := startLogged(t, "--test-tools", "--mcp-listen", "127.0.0.1:0")
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.listening.Get("mcp_url").Str}, nil)
	require.NoError(t, err)
	defer cs.Close()
	answered := make(chan *mcp.CallToolResult, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "sleep", Arguments: json.RawMessage(`{"ms": 300}`)})
		assert.NoError(t, err)
		answered <- res
	}()
	require.Eventually(t, func() bool {
		fams := scrape(t, s.base)
		return sample(fams, "registry_sidecar_calls_in_flight", nil) == 1
	}, testWait, 5*time.Millisecond, "the call did not start")
	stopErr := make(chan error, 1)
	go func() { stopErr <- s.stop() }()
	select {
	case res := <-answered:
		require.NotNil(t, res)
		assert.Equal(t, `{"status": "success", "slept_ms": 300}`, res.Content[0].(*mcp.TextContent).Text)
	case <-time.After(testWait):
		t.Fatal("the MCP call in flight at SIGTERM was not answered")
	}
	require.NoError(t, <-stopErr)
}
