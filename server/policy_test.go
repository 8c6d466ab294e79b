package server_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/sirupsen/logrus"
	"github.com/sirupsen/logrus/hooks/test"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// rebindToken is the token of the "with token" runs; no log may show it.
const rebindToken = "rebind-s3cret"

// rebindCase is one request's Host and Origin ("PORT" stands for the
// listener's port; "" keeps the client's own Host, or sends no Origin) and
// whether it is served without a token and with one.
type rebindCase struct {
	name               string
	host, origin       string
	noToken, withToken bool
}

var rebindCases = []rebindCase{
	{"loopback", "", "", true, true},
	{"localhost host", "localhost:PORT", "", true, true},
	{"localhost host without port", "localhost", "", true, true},
	{"other 127 address", "127.0.0.2:PORT", "", true, true},
	{"IPv6 loopback host", "[::1]:PORT", "", true, true},
	{"IPv6 loopback host without port", "[::1]", "", true, true},
	{"loopback origin", "", "http://localhost:3000", true, true},
	{"same-host origin", "", "http://127.0.0.1:PORT", true, true},
	{"IPv6 loopback origin", "[::1]:PORT", "http://[::1]:PORT", true, true},
	{"evil host", "evil.com:18765", "", false, true},
	// The page of a rebound domain: its own name in Host and Origin. With a
	// token it passes the Origin rules (same host) but lacks the token:
	// TestRebindingWithTokenNeedsTheToken.
	{"rebinding: evil host and origin", "evil.com:18765", "http://evil.com:18765", false, true},
	{"evil origin", "", "http://evil.com:18765", false, false},
	{"loopback host, evil origin", "localhost:PORT", "http://evil.com:18765", false, false},
	{"localhost.evil.com host", "localhost.evil.com:PORT", "", false, true},
	{"localhost.evil.com origin", "", "http://localhost.evil.com:PORT", false, false},
	{"127.0.0.1.nip.io host", "127.0.0.1.nip.io:PORT", "", false, true},
	{"127.0.0.1.nip.io origin", "", "http://127.0.0.1.nip.io:PORT", false, false},
	{"IPv6 host", "[2001:db8::1]:PORT", "", false, true},
	{"IPv6 unspecified host", "[::]:PORT", "", false, true},
	{"IPv6 origin", "", "http://[2001:db8::1]:PORT", false, false},
	{"null origin", "", "null", false, false},
	// AllowedOrigins count only with a token.
	{"allowed origin", "", "https://app.example.com", false, true},
}

// rebindDoor is one path of the server: how to ask it, and the status of a
// request it serves.
type rebindDoor struct {
	name, method, path, body string
	served                   int
}

var rebindDoors = []rebindDoor{
	{"ws", http.MethodGet, server.PathWS, "", http.StatusSwitchingProtocols},
	{"mcp", http.MethodPost, server.PathMCP, initializeBody, http.StatusOK},
	{"metrics", http.MethodGet, server.PathMetrics, "", http.StatusOK},
	{"healthz", http.MethodGet, server.PathHealth, "", http.StatusOK},
	{"readyz", http.MethodGet, server.PathReady, "", http.StatusOK},
	{"unknown path", http.MethodGet, "/nope", "", http.StatusNotFound},
}

// initializeBody is a 2025-11-25 MCP initialize request.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// doorsFixture is a Server with every door configured (WebSocket, MCP
// HTTP, metrics) behind a real loopback listener.
type doorsFixture struct {
	base, port string // http://127.0.0.1:PORT, PORT
	logs       *test.Hook
}

func startDoors(t *testing.T, token string) *doorsFixture {
	t.Helper()
	log, hook := test.NewNullLogger()
	log.Level = logrus.DebugLevel
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	door := mcpdoor.New(reg, mcpdoor.Config{})
	srv := server.New(reg, server.Config{
		Token:          token,
		AllowedOrigins: []string{"https://app.example.com"},
		Log:            log,
		MCP:            door,
		Metrics:        http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "# metrics\n") }),
	})
	hs := httptest.NewServer(srv)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testWait)
		defer cancel()
		_ = door.Shutdown(ctx)
		_ = srv.Shutdown(ctx)
		hs.Close()
	})
	return &doorsFixture{base: hs.URL, port: hs.URL[strings.LastIndexByte(hs.URL, ':')+1:], logs: hook}
}

// ask sends d's request with host and origin (PORT replaced; "" for the
// defaults) and the bearer token when not "", and returns the status and
// the body. A WebSocket it opens must run a tool.
func (f *doorsFixture) ask(t *testing.T, d rebindDoor, host, origin, token string) (int, string) {
	t.Helper()
	h := http.Header{}
	if host != "" {
		h.Set("Host", strings.ReplaceAll(host, "PORT", f.port))
	}
	if origin != "" {
		h.Set("Origin", strings.ReplaceAll(origin, "PORT", f.port))
	}
	if token != "" {
		h.Set("Authorization", "Bearer "+token)
	}
	if d.path == server.PathWS {
		ws, resp, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(f.base, "http")+d.path, h)
		require.NotNil(t, resp, "no HTTP answer: %v", err)
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err == nil {
			c := &client{t: t, ws: ws}
			got := c.roundTrip(callFrame(1, "add", `{"a":20,"b":22}`, ""))
			assert.Equal(t, `{"status": "success", "sum": 42}`, got.Get("result.content.0.text").String(), "a tool runs")
			_ = ws.Close()
		}
		return resp.StatusCode, string(body)
	}
	req, err := http.NewRequest(d.method, f.base+d.path, strings.NewReader(d.body))
	require.NoError(t, err)
	req.Header = h
	req.Host = h.Get("Host")
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// TestRebindingEveryDoor sends DNS-rebinding and cross-site headers to
// every path, without a token and with one (the right bearer sent): what
// the policy refuses is 403 with the reason as the body and a warning
// logged; what it accepts is served as usual (a WebSocket runs a tool).
func TestRebindingEveryDoor(t *testing.T) {
	for _, mode := range []struct {
		name, token string
	}{{"no token", ""}, {"token", rebindToken}} {
		t.Run(mode.name, func(t *testing.T) {
			f := startDoors(t, mode.token)
			for _, d := range rebindDoors {
				for _, tc := range rebindCases {
					t.Run(d.name+"/"+tc.name, func(t *testing.T) {
						served := tc.noToken
						if mode.token != "" {
							served = tc.withToken
						}
						status, body := f.ask(t, d, tc.host, tc.origin, mode.token)
						if served {
							assert.Equal(t, d.served, status, "body %q", body)
							return
						}
						assert.Equal(t, http.StatusForbidden, status)
						assert.Contains(t, body, "not allowed")
					})
				}
			}
			refused := 0
			for _, e := range f.logs.AllEntries() {
				s, _ := e.String()
				assert.NotContains(t, s, rebindToken, "a token reached the logs")
				if e.Level == logrus.WarnLevel && strings.HasPrefix(e.Message, "request refused: host or origin") {
					refused++
					assert.Contains(t, e.Data, "host")
					assert.Contains(t, e.Data, "origin")
					assert.Contains(t, e.Data, "reason")
				}
			}
			assert.Positive(t, refused, "no refusal was logged")
		})
	}
}

// TestRebindingWithTokenNeedsTheToken: with a token, a rebound page (its
// own name in Host and Origin) passes the Origin rules but, not knowing
// the token, is refused by every door that runs tools or shows metrics.
func TestRebindingWithTokenNeedsTheToken(t *testing.T) {
	f := startDoors(t, rebindToken)
	for _, d := range rebindDoors[:3] {
		t.Run(d.name, func(t *testing.T) {
			status, _ := f.ask(t, d, "evil.com:18765", "http://evil.com:18765", "")
			assert.Equal(t, http.StatusUnauthorized, status)
			status, _ = f.ask(t, d, "evil.com:18765", "http://evil.com:18765", "wrong")
			assert.Equal(t, http.StatusUnauthorized, status)
		})
	}
}

// TestLoopbackHost: the Host forms that name a loopback host, and the
// look-alikes that do not.
func TestLoopbackHost(t *testing.T) {
	for host, want := range map[string]bool{
		"localhost": true, "localhost:8765": true, "LocalHost:80": true, "localhost:": true,
		"127.0.0.1": true, "127.0.0.1:8765": true, "127.1.2.3:1": true, "127.255.255.254": true,
		"[::1]": true, "[::1]:8765": true, "::1": true, "[0:0:0:0:0:0:0:1]:80": true, "[::ffff:127.0.0.1]:80": true,

		"": false, ":8765": false, "evil.com:18765": false, "evil.com": false,
		"localhost.evil.com": false, "localhost.evil.com:8765": false, "evil.localhost.com:1": false,
		"127.0.0.1.nip.io": false, "127.0.0.1.nip.io:8765": false, "localhost.": false, "localhost.:80": false,
		"0.0.0.0:8765": false, "[::]:8765": false, "10.0.0.1": false, "128.0.0.1:80": false,
		"[::2]:80": false, "[2001:db8::1]:80": false, "[fe80::1%25lo]:80": false, "[::1%lo]:80": false,
		"127.0.0.1:80x": false, "127.0.0.1:80@evil.com": false, "127.0.0.1:80:90": false,
		"2130706433": false, "0x7f000001": false, "017700000001": false, "127.1": false,
	} {
		t.Run(host, func(t *testing.T) { assert.Equal(t, want, server.LoopbackHost(host)) })
	}
}

// TestRequestPolicyCheck: the policy on requests no client library would
// send: several Origin headers, an empty Host, odd Origin forms.
func TestRequestPolicyCheck(t *testing.T) {
	open := server.RequestPolicy{}
	tokened := server.RequestPolicy{Token: true, AllowedOrigins: []string{"https://app.example.com"}}
	for _, tc := range []struct {
		name    string
		policy  server.RequestPolicy
		host    string
		origins []string
		want    error
	}{
		{"no token: loopback", open, "127.0.0.1:1", nil, nil},
		{"no token: empty host", open, "", nil, server.ErrHostNotAllowed},
		{"no token: two origins, one evil", open, "127.0.0.1:1", []string{"http://localhost", "http://evil.com"}, server.ErrOriginNotAllowed},
		{"no token: empty origin", open, "127.0.0.1:1", []string{""}, nil},
		{"no token: userinfo origin", open, "127.0.0.1:1", []string{"http://localhost@evil.com"}, server.ErrOriginNotAllowed},
		{"no token: https loopback origin", open, "localhost:1", []string{"https://127.0.0.1"}, nil},
		{"no token: allowed origin ignored", server.RequestPolicy{AllowedOrigins: []string{"https://app.example.com"}}, "127.0.0.1:1", []string{"https://app.example.com"}, server.ErrOriginNotAllowed},
		{"no token: unparsable origin", open, "127.0.0.1:1", []string{"http://%zz"}, server.ErrOriginNotAllowed},
		{"token: any host", tokened, "sidecar.example.com", nil, nil},
		{"token: same host origin", tokened, "sidecar.example.com", []string{"https://sidecar.example.com"}, nil},
		{"token: loopback origin to a foreign host", tokened, "sidecar.example.com", []string{"http://localhost:3000"}, server.ErrOriginNotAllowed},
		{"token: allowed origin, any case", tokened, "sidecar.example.com", []string{"HTTPS://APP.EXAMPLE.COM"}, nil},
		{"token: two origins, one evil", tokened, "127.0.0.1:1", []string{"https://app.example.com", "http://evil.com"}, server.ErrOriginNotAllowed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/ws", nil)
			r.Host = tc.host
			for _, o := range tc.origins {
				r.Header.Add("Origin", o)
			}
			assert.Equal(t, tc.want, tc.policy.Check(r))
		})
	}
}
