package server_test

import (
	"net/http"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// TestOversizedFrame: a frame over the read limit is closed with 1009 and
// the server keeps serving the other connections.
func TestOversizedFrame(t *testing.T) {
	f := startServer(t, server.Config{ReadLimit: 1024})
	other := f.dial(t)
	c := f.dial(t)
	c.send(callFrame(1, "echo", `{"value":"`+strings.Repeat("x", 2048)+`"}`, ""))
	assert.Equal(t, websocket.CloseMessageTooBig, c.closeCode())
	got := other.roundTrip(callFrame(2, "add", `{"a":2,"b":2}`, ""))
	assert.Equal(t, `{"status": "success", "sum": 4}`, got.Get("result.content.0.text").String())
	fresh := f.dial(t)
	assert.Equal(t, "{}", fresh.roundTrip(`{"jsonrpc":"2.0","id":1,"method":"ping"}`).Get("result").Raw)
}

// TestBinaryFrame: binary frames are refused with close 1003.
func TestBinaryFrame(t *testing.T) {
	f := startServer(t, server.Config{})
	c := f.dial(t)
	require.NoError(t, c.ws.WriteMessage(websocket.BinaryMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`)))
	assert.Equal(t, websocket.CloseUnsupportedData, c.closeCode())
}

// TestSlowClientIsDropped: a client that sends calls but never reads is
// dropped (close 1008 logged) once its bounded queue stays full, server
// memory stays bounded, and other clients are served meanwhile.
func TestSlowClientIsDropped(t *testing.T) {
	f := startServer(t, server.Config{OutboundQueue: 4, MaxConcurrentCalls: 4, WriteTimeout: 200 * time.Millisecond},
		registry.WithMaxResultChars(-1))
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	slow := f.dial(t)
	const calls = 2000 // each answer is ~100 KB: 200 MB if nothing were bounded
	frame := callFrame(1, "big", `{"items":1000,"text":"`+strings.Repeat("y", 96)+`"}`, "")
	var peak uint64
	for i := 0; i < calls; i++ {
		_ = slow.ws.SetWriteDeadline(time.Now().Add(testWait))
		if err := slow.ws.WriteMessage(websocket.TextMessage, []byte(strings.Replace(frame, `"id":1`, `"id":`+strconv.Itoa(i), 1))); err != nil {
			break // dropped: the server closed the socket
		}
		if i%100 == 0 {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
		}
	}
	eventually(t, func() bool { return f.srv.Connections() == 0 }, "slow client was not dropped")
	assert.Less(t, peak-min(peak, before.HeapAlloc), uint64(64<<20), "server memory grew without bound")

	dropped := false
	for _, e := range f.logs.AllEntries() {
		if strings.HasPrefix(e.Message, "dropping client: ") && e.Data["close_code"] == websocket.ClosePolicyViolation {
			dropped = true
		}
	}
	assert.True(t, dropped, "no log line says why the client was dropped")

	other := f.dial(t)
	got := other.roundTrip(callFrame(1, "add", `{"a":1,"b":1}`, ""))
	assert.Equal(t, `{"status": "success", "sum": 2}`, got.Get("result.content.0.text").String())
}

// TestAuth: with a token, a missing or wrong bearer is 401 at upgrade; the
// right one connects.
func TestAuth(t *testing.T) {
	f := startServer(t, server.Config{Token: "s3cret-token"})
	for _, tc := range []struct {
		name   string
		header http.Header
		want   int
	}{
		{"missing", nil, http.StatusUnauthorized},
		{"wrong", http.Header{"Authorization": {"Bearer nope"}}, http.StatusUnauthorized},
		{"prefix of the token", http.Header{"Authorization": {"Bearer s3cret"}}, http.StatusUnauthorized},
		{"not bearer", http.Header{"Authorization": {"Basic czNjcmV0LXRva2Vu"}}, http.StatusUnauthorized},
		{"right", http.Header{"Authorization": {"Bearer s3cret-token"}}, http.StatusSwitchingProtocols},
		{"right, lower-case scheme", http.Header{"Authorization": {"bearer s3cret-token"}}, http.StatusSwitchingProtocols},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, f.dialStatus(t, tc.header))
		})
	}
	for _, e := range f.logs.AllEntries() {
		s, _ := e.String()
		assert.NotContains(t, s, "s3cret", "a token reached the logs")
	}
}

// TestSubprotocol: a client asking for "mcp" gets it.
func TestSubprotocol(t *testing.T) {
	f := startServer(t, server.Config{})
	d := websocket.Dialer{Subprotocols: []string{"mcp"}}
	ws, resp, err := d.Dial(f.url, nil)
	require.NoError(t, err)
	defer ws.Close()
	_ = resp.Body.Close()
	assert.Equal(t, "mcp", ws.Subprotocol())
}

// TestHealthz answers 200 while serving.
func TestHealthz(t *testing.T) {
	f := startServer(t, server.Config{})
	resp, err := http.Get(f.http.URL + server.PathHealth)
	require.NoError(t, err)
	defer resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	resp2, err := http.Get(f.http.URL + "/other")
	require.NoError(t, err)
	defer resp2.Body.Close()
	assert.Equal(t, http.StatusNotFound, resp2.StatusCode)
}

// TestMaxConnections refuses connections over the cap with 503.
func TestMaxConnections(t *testing.T) {
	f := startServer(t, server.Config{MaxConnections: 2})
	f.dial(t)
	f.dial(t)
	assert.Equal(t, http.StatusServiceUnavailable, f.dialStatus(t, nil))
}

// TestKeepalive: a client that answers pings (any reading gorilla client
// does) stays connected; one that never reads (no pongs) is dropped after
// PongWait.
func TestKeepalive(t *testing.T) {
	f := startServer(t, server.Config{PingInterval: 20 * time.Millisecond, PongWait: 150 * time.Millisecond})
	alive := f.dial(t)
	pings := make(chan struct{}, 100)
	alive.ws.SetPingHandler(func(data string) error {
		pings <- struct{}{}
		return alive.ws.WriteControl(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
	})
	go func() {
		for {
			if _, _, err := alive.ws.ReadMessage(); err != nil {
				return
			}
		}
	}()
	silent := f.dial(t)
	_ = silent
	eventually(t, func() bool { return f.srv.Connections() == 1 }, "the silent client was not dropped")
	time.Sleep(300 * time.Millisecond) // two PongWaits: alive survives them
	assert.Equal(t, 1, f.srv.Connections())
	assert.GreaterOrEqual(t, len(pings), 5)
}
