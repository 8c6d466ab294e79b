package mcpdoor_test

import (
	"context"
	"io"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// testWait bounds every wait of a test.
const testWait = 10 * time.Second

// newRegistry is a fresh registry with the test tools.
func newRegistry(t testing.TB) *registry.Registry {
	t.Helper()
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	return reg
}

// stdioSession serves door over a pair of pipes (the bytes a stdio host
// would exchange with `registry-sidecar mcp`) and connects the SDK client.
func stdioSession(t testing.TB, door *mcpdoor.Door, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	cr, sw := io.Pipe() // server to client
	sr, cw := io.Pipe() // client to server
	done := make(chan error, 1)
	go func() { done <- door.ServeStdio(context.Background(), sr, sw) }()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := client.Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	require.NoError(t, err)
	t.Cleanup(func() {
		_ = cs.Close()
		_ = cw.Close()
		select {
		case <-done:
		case <-time.After(testWait):
			t.Error("stdio door did not end after the client hung up")
		}
	})
	return cs
}

// httpFixture serves door at /mcp of a real server on a loopback listener.
func httpFixture(t testing.TB, reg *registry.Registry, door *mcpdoor.Door, cfg server.Config) *httptest.Server {
	t.Helper()
	cfg.MCP = door
	srv := server.New(reg, cfg)
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		_ = door.Shutdown(ctx)
		_ = srv.Shutdown(ctx)
		hs.Close()
	})
	return hs
}

// httpSession connects the SDK client to the HTTP door at protocol
// version ("" for the SDK's newest).
func httpSession(t testing.TB, url, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, opts)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url + server.PathMCP}, &mcp.ClientSessionOptions{ProtocolVersion: version})
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// TestAnnotationsFromDeclaration: the MCP annotations are the
// declaration's, read-only tools idempotent, every hint stated.
func TestAnnotationsFromDeclaration(t *testing.T) {
	assert.Nil(t, mcpdoor.ToolAnnotations(nil))
	no, yes := false, true
	cases := []struct {
		name string
		decl *registry.Annotations
		want mcp.ToolAnnotations
	}{
		{"read-only", registry.ReadOnly(), mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no}},
		{"destructive", registry.Destructive(), mcp.ToolAnnotations{DestructiveHint: &yes, OpenWorldHint: &no}},
		{"additive", registry.Additive(), mcp.ToolAnnotations{DestructiveHint: &no, OpenWorldHint: &no}},
		{"idempotent write, titled", &registry.Annotations{Title: "Write cells", Destructive: true, Idempotent: true},
			mcp.ToolAnnotations{Title: "Write cells", DestructiveHint: &yes, IdempotentHint: true, OpenWorldHint: &no}},
		{"open world", &registry.Annotations{ReadOnly: true, OpenWorld: true}, mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &yes}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, &c.want, mcpdoor.ToolAnnotations(c.decl))
		})
	}
}

// TestSessionsEveryVersion: the SDK client at the newest protocol
// (stateless HTTP) and at 2025-11-25 (a session) lists and calls.
func TestSessionsEveryVersion(t *testing.T) {
	reg := newRegistry(t)
	door := mcpdoor.New(reg, mcpdoor.Config{})
	hs := httpFixture(t, reg, door, server.Config{})
	sessions := map[string]*mcp.ClientSession{
		"stdio":           stdioSession(t, door, nil),
		"http newest":     httpSession(t, hs.URL, "", nil),
		"http 2025-11-25": httpSession(t, hs.URL, "2025-11-25", nil),
		"http 2025-03-26": httpSession(t, hs.URL, "2025-03-26", nil),
	}
	versions := map[string]string{"stdio": "2026-07-28", "http newest": "2026-07-28", "http 2025-11-25": "2025-11-25", "http 2025-03-26": "2025-03-26"}
	for name, cs := range sessions {
		t.Run(name, func(t *testing.T) {
			require.NotNil(t, cs.InitializeResult())
			assert.Equal(t, versions[name], cs.InitializeResult().ProtocolVersion, "negotiated protocol")
			ctx, cancel := context.WithTimeout(context.Background(), testWait)
			defer cancel()
			list, err := cs.ListTools(ctx, nil)
			require.NoError(t, err)
			assert.Len(t, list.Tools, len(reg.Tools()))
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "add", Arguments: map[string]any{"a": 1, "b": 2}})
			require.NoError(t, err)
			require.Len(t, res.Content, 1)
			assert.Equal(t, `{"status": "success", "sum": 3}`, res.Content[0].(*mcp.TextContent).Text)
			assert.False(t, res.IsError)
		})
	}
}

// newObservedRegistry is newRegistry observed by obs.
func newObservedRegistry(t testing.TB, obs registry.Observer) *registry.Registry {
	t.Helper()
	reg := registry.New(registry.WithObserver(obs))
	require.NoError(t, testtools.Register(reg))
	return reg
}
