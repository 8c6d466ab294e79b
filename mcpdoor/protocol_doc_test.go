package mcpdoor_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// Markers of the MCP door examples in docs/PROTOCOL.md.
const (
	stdioIn, stdioOut = "stdio> ", "stdio< "
	httpIn, httpOut   = "http> ", "http< "
)

// docLines are the lines of docs/PROTOCOL.md starting with one of prefixes,
// in order, and the binary version the doc quotes.
func docLines(t *testing.T, prefixes ...string) ([]string, string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "docs", "PROTOCOL.md"))
	require.NoError(t, err)
	var out []string
	version := ""
	for _, line := range strings.Split(string(raw), "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(line, p) {
				out = append(out, line)
				body := strings.TrimPrefix(line, p)
				for _, path := range []string{"result.serverInfo.version", `result._meta.io\.modelcontextprotocol/serverInfo.version`} {
					if v := gjson.Get(body, path); v.Exists() {
						version = v.Str
					}
				}
			}
		}
	}
	return out, version
}

// TestProtocolDocMCP: every stdio and HTTP exchange quoted in
// docs/PROTOCOL.md is what the doors really answer, byte for byte.
func TestProtocolDocMCP(t *testing.T) {
	t.Run("stdio", func(t *testing.T) {
		lines, version := docLines(t, stdioIn, stdioOut)
		require.GreaterOrEqual(t, len(lines), 12, "the doc quotes fewer stdio lines than expected")
		door := mcpdoor.New(newRegistry(t), mcpdoor.Config{Version: version})
		cr, sw := io.Pipe()
		sr, cw := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- door.ServeStdio(context.Background(), sr, sw) }()
		defer func() {
			_ = cw.Close()
			go func() { _, _ = io.Copy(io.Discard, cr) }() // the rest of the progress
			select {
			case <-done:
			case <-time.After(testWait):
				t.Error("the stdio door did not end")
			}
		}()
		out := bufio.NewReader(cr)
		for _, line := range lines {
			if msg, ok := strings.CutPrefix(line, stdioIn); ok {
				_, err := io.WriteString(cw, msg+"\n")
				require.NoError(t, err)
				continue
			}
			want := strings.TrimPrefix(line, stdioOut)
			got := make(chan string, 1)
			go func() { s, _ := out.ReadString('\n'); got <- strings.TrimSuffix(s, "\n") }()
			select {
			case g := <-got:
				assert.Equal(t, want, g)
			case <-time.After(testWait):
				t.Fatalf("no answer; want %s", want)
			}
		}
	})

	t.Run("http", func(t *testing.T) {
		lines, version := docLines(t, httpIn, httpOut)
		require.GreaterOrEqual(t, len(lines), 6, "the doc quotes fewer HTTP lines than expected")
		reg := newRegistry(t)
		door := mcpdoor.New(reg, mcpdoor.Config{Version: version})
		hs := httpFixture(t, reg, door, server.Config{})
		var request string
		for _, line := range lines {
			if msg, ok := strings.CutPrefix(line, httpIn); ok {
				request = msg
				continue
			}
			require.NotEmpty(t, request, "an http< line without its http> line")
			assert.Equal(t, strings.TrimPrefix(line, httpOut), postEvent(t, hs.URL+server.PathMCP, request), "request %s", request)
			request = ""
		}
	})
}

// postEvent POSTs body with the headers a 2026-07-28 client sends and
// returns the answer: the body of an application/json answer, the data of
// the first event of a text/event-stream one.
func postEvent(t *testing.T, url, body string) string {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", gjson.Get(body, `params._meta.io\.modelcontextprotocol/protocolVersion`).Str)
	req.Header.Set("Mcp-Method", gjson.Get(body, "method").Str)
	if gjson.Get(body, "method").Str == "tools/call" {
		req.Header.Set("Mcp-Name", gjson.Get(body, "params.name").Str)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	if resp.Header.Get("Content-Type") == "application/json" {
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return string(b)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return data
		}
	}
	t.Fatalf("no event in the answer to %s", body)
	return ""
}
