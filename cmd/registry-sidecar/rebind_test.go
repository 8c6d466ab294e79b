package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// evilHeaders is the request a page of a rebound domain sends.
var evilHeaders = http.Header{"Host": {"evil.com:18765"}, "Origin": {"http://evil.com:18765"}}

// wsStatus dials url with header and, when the upgrade succeeds, runs the
// add tool through it. It returns the HTTP status of the upgrade.
func wsStatus(t *testing.T, url string, header http.Header) int {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(url, header)
	require.NotNil(t, resp, "no HTTP answer: %v", err)
	_ = resp.Body.Close()
	if err == nil {
		defer ws.Close()
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`)))
		_, data, err := ws.ReadMessage()
		require.NoError(t, err)
		assert.Equal(t, `{"status": "success", "sum": 3}`, gjson.GetBytes(data, "result.content.0.text").String())
	}
	return resp.StatusCode
}

// httpStatus sends method url (a JSON body when not "") with header.
func httpStatus(t *testing.T, method, url, body string, header http.Header) int {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header = header.Clone()
	req.Host = header.Get("Host")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	return resp.StatusCode
}

// TestServeRefusesRebinding: started as `make run` starts it (no token),
// with the MCP door on a second listener, the sidecar refuses a rebound
// page's request (Host and Origin evil.com) on every path of both
// listeners and still serves loopback clients.
func TestServeRefusesRebinding(t *testing.T) {
	s := startLogged(t, "--test-tools", "--mcp-listen", "localhost:0")
	mcpBase := strings.TrimSuffix(s.listening.Get("mcp_url").Str, "/mcp")
	require.NotEqual(t, s.base, mcpBase)
	const initialize = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, base := range []string{s.base, mcpBase} {
		t.Run(base, func(t *testing.T) {
			ws := "ws" + strings.TrimPrefix(base, "http") + "/ws"
			assert.Equal(t, http.StatusForbidden, wsStatus(t, ws, evilHeaders), "/ws rebound")
			assert.Equal(t, http.StatusForbidden, wsStatus(t, ws, http.Header{"Origin": {"http://evil.com:18765"}}), "/ws evil origin")
			assert.Equal(t, http.StatusSwitchingProtocols, wsStatus(t, ws, nil), "/ws loopback")
			assert.Equal(t, http.StatusSwitchingProtocols, wsStatus(t, ws, http.Header{"Host": {"localhost"}, "Origin": {"http://localhost:3000"}}), "/ws localhost")
			for _, p := range []struct{ method, path, body string }{
				{http.MethodPost, "/mcp", initialize},
				{http.MethodGet, "/metrics", ""},
				{http.MethodGet, "/healthz", ""},
				{http.MethodGet, "/readyz", ""},
			} {
				assert.Equal(t, http.StatusForbidden, httpStatus(t, p.method, base+p.path, p.body, evilHeaders), "%s rebound", p.path)
				assert.Equal(t, http.StatusForbidden, httpStatus(t, p.method, base+p.path, p.body, http.Header{"Host": {"127.0.0.1.nip.io"}}), "%s nip.io", p.path)
				assert.Equal(t, http.StatusOK, httpStatus(t, p.method, base+p.path, p.body, http.Header{}), "%s loopback", p.path)
			}
		})
	}
	assert.NoError(t, s.stop())
}

// TestServeTokenKeepsOriginRules: with a token, a rebound page lacks it
// (401) and a foreign Origin is refused (403) even with it, while
// --allow-origin values and loopback clients are served.
func TestServeTokenKeepsOriginRules(t *testing.T) {
	s := startLogged(t, "--test-tools", "--token", "sekret", "--allow-origin", "https://app.example.com")
	ws := "ws" + strings.TrimPrefix(s.base, "http") + "/ws"
	bearer := func(h http.Header) http.Header {
		h = h.Clone()
		h.Set("Authorization", "Bearer sekret")
		return h
	}
	assert.Equal(t, http.StatusUnauthorized, wsStatus(t, ws, evilHeaders))
	assert.Equal(t, http.StatusForbidden, wsStatus(t, ws, bearer(http.Header{"Origin": {"http://evil.com:18765"}})))
	assert.Equal(t, http.StatusSwitchingProtocols, wsStatus(t, ws, bearer(http.Header{"Origin": {"https://app.example.com"}})))
	assert.Equal(t, http.StatusSwitchingProtocols, wsStatus(t, ws, bearer(http.Header{})))
	assert.NoError(t, s.stop())
}

// TestBlankTokenRefused: a token that is empty or only whitespace is a
// usage error (exit 2) from every source, saying so; surrounding
// whitespace is not part of a token, whatever its source.
func TestBlankTokenRefused(t *testing.T) {
	dir := t.TempDir()
	file := func(content string) string {
		f, err := os.CreateTemp(dir, "token")
		require.NoError(t, err)
		_, err = f.WriteString(content)
		require.NoError(t, err)
		require.NoError(t, f.Close())
		return f.Name()
	}
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"flag space", []string{"--token", " "}, nil},
		{"flag tab and newline", []string{"--token", "\t\n"}, nil},
		{"flag empty", []string{"--token="}, nil},
		{"flag no-break space", []string{"--token", "\u00a0"}, nil},
		{"env spaces", nil, map[string]string{"REGISTRY_SIDECAR_TOKEN": "   "}},
		{"env empty", nil, map[string]string{"REGISTRY_SIDECAR_TOKEN": ""}},
		{"file spaces", []string{"--token-file", file("  \n")}, nil},
		{"file empty", []string{"--token-file", file("")}, nil},
		{"file from env", nil, map[string]string{"REGISTRY_SIDECAR_TOKEN_FILE": file("\r\n\t ")}},
		{"env blank, flag set", []string{"--token", "good"}, map[string]string{"REGISTRY_SIDECAR_TOKEN": " "}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			args := append([]string{"--workspace", t.TempDir(), "--listen", "127.0.0.1:0"}, tc.args...)
			err := run(context.Background(), args, io.Discard, io.Discard)
			require.Error(t, err)
			var stderr bytes.Buffer
			assert.Equal(t, exitUsage, exitCode(err, &stderr))
			assert.Contains(t, stderr.String(), "the token is empty or only whitespace")
		})
	}
	t.Run("surrounding whitespace trimmed", func(t *testing.T) {
		for _, args := range [][]string{{"--token", " tok\n"}, {"--token-file", file("\ttok \n")}} {
			url, stop := startRun(t, args...)
			assert.Equal(t, http.StatusUnauthorized, wsStatus(t, url, nil))
			ws, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Authorization": {"Bearer tok"}})
			require.NoError(t, err)
			_ = resp.Body.Close()
			_ = ws.Close()
			assert.NoError(t, stop())
		}
	})
}

// TestAllowOriginNeedsToken: without a token only loopback origins are
// served, so --allow-origin without one is a usage error, not ignored.
func TestAllowOriginNeedsToken(t *testing.T) {
	args := []string{"--workspace", filepath.Join(t.TempDir(), "ws"), "--listen", "127.0.0.1:0", "--allow-origin", "https://app.example.com"}
	err := run(context.Background(), args, io.Discard, io.Discard)
	var stderr bytes.Buffer
	assert.Equal(t, exitUsage, exitCode(err, &stderr))
	assert.Contains(t, stderr.String(), "--allow-origin requires --token")
}
