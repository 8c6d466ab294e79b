package main

import (
	"context"
	"encoding/json"
	"io"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/sirupsen/logrus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// hints are the annotations of one listed tool, as a client reads them
// (MCP defaults for absent hints: destructive and open-world).
type hints struct {
	Title                                        string
	ReadOnly, Destructive, Idempotent, OpenWorld bool
}

// TestAnnotationsOnEveryDoor: MCP stdio, MCP HTTP and the WebSocket door
// list every spreadsheet tool with a title, openWorldHint false, and the
// read-only, destructive and idempotent hints of its declaration.
func TestAnnotationsOnEveryDoor(t *testing.T) {
	log := logrus.New()
	log.Out = io.Discard
	o := options{workspace: t.TempDir(), maxCallTimeout: registry.DefaultMaxTimeout, maxResultChars: registry.DefaultMaxResultChars}
	reg, svc, err := o.buildRegistry(log, nil)
	require.NoError(t, err)
	defer closeService(svc, log)
	want := map[string]hints{}
	for _, tool := range reg.Tools() {
		h := tool.Annotations.MCP()
		require.NotNil(t, h, tool.Name)
		require.NotEmpty(t, h.Title, tool.Name)
		require.False(t, h.OpenWorldHint, tool.Name)
		want[tool.Name] = hints{h.Title, h.ReadOnlyHint, h.DestructiveHint != nil && *h.DestructiveHint, h.IdempotentHint, h.OpenWorldHint}
	}
	require.Len(t, want, 45, "the spreadsheet tools")

	sdkHints := func(list *mcp.ListToolsResult) map[string]hints {
		out := map[string]hints{}
		for _, tool := range list.Tools {
			a := tool.Annotations
			require.NotNil(t, a, tool.Name)
			h := hints{Title: a.Title, ReadOnly: a.ReadOnlyHint, Destructive: !a.ReadOnlyHint, Idempotent: a.IdempotentHint, OpenWorld: true}
			if a.DestructiveHint != nil {
				h.Destructive = *a.DestructiveHint
			}
			if a.OpenWorldHint != nil {
				h.OpenWorld = *a.OpenWorldHint
			}
			out[tool.Name] = h
		}
		return out
	}

	t.Run("stdio", func(t *testing.T) {
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- runMCP(context.Background(), []string{"--workspace", t.TempDir()}, sr, sw, io.Discard) }()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
			Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
		require.NoError(t, err)
		list, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		assert.Equal(t, want, sdkHints(list))
		require.NoError(t, cs.Close())
		require.NoError(t, <-done)
	})

	s := startLogged(t, "--mcp-listen", "127.0.0.1:0")
	t.Run("http", func(t *testing.T) {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.listening.Get("mcp_url").Str}, nil)
		require.NoError(t, err)
		defer cs.Close()
		list, err := cs.ListTools(context.Background(), nil)
		require.NoError(t, err)
		assert.Equal(t, want, sdkHints(list))
	})
	t.Run("websocket", func(t *testing.T) {
		ws, resp, err := websocket.DefaultDialer.Dial(s.listening.Get("url").Str, nil)
		require.NoError(t, err)
		_ = resp.Body.Close()
		defer ws.Close()
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)))
		_, msg, err := ws.ReadMessage()
		require.NoError(t, err)
		got := map[string]hints{}
		for _, tool := range gjson.GetBytes(msg, "result.tools").Array() {
			var a struct {
				Title           string `json:"title"`
				ReadOnlyHint    bool   `json:"readOnlyHint"`
				DestructiveHint *bool  `json:"destructiveHint"`
				IdempotentHint  bool   `json:"idempotentHint"`
				OpenWorldHint   *bool  `json:"openWorldHint"`
			}
			require.NoError(t, json.Unmarshal([]byte(tool.Get("annotations").Raw), &a), tool.Raw)
			h := hints{Title: a.Title, ReadOnly: a.ReadOnlyHint, Destructive: !a.ReadOnlyHint, Idempotent: a.IdempotentHint, OpenWorld: true}
			if a.DestructiveHint != nil {
				h.Destructive = *a.DestructiveHint
			}
			if a.OpenWorldHint != nil {
				h.OpenWorld = *a.OpenWorldHint
			}
			got[tool.Get("name").Str] = h
		}
		assert.Equal(t, want, got)
	})
}
