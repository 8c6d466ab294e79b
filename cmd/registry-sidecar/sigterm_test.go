package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// TestSIGTERMWithCallsInFlight runs the real binary, starts calls on
// several connections, sends SIGTERM: the calls finish and are answered,
// connections close with 1001, the process exits 0. The logs are one
// JSON line per connection and per call and carry no argument values or
// token.
func TestSIGTERMWithCallsInFlight(t *testing.T) {
	bin := buildBinary(t)
	const token = "tok-SIGTERM-secret"
	cmd := exec.Command(bin, "--listen", "127.0.0.1:0", "--workspace", t.TempDir(), "--test-tools", "--grace", "10s")
	cmd.Env = append(os.Environ(), "REGISTRY_SIDECAR_TOKEN="+token)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill() })

	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	m := handshakeRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	require.NotNil(t, m, "handshake %q", line)

	const conns = 4
	wss := make([]*websocket.Conn, conns)
	for i := range wss {
		ws, resp, err := websocket.DefaultDialer.Dial(m[1], map[string][]string{"Authorization": {"Bearer " + token}})
		require.NoError(t, err)
		_ = resp.Body.Close()
		defer ws.Close()
		wss[i] = ws
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"value":"ARG-VALUE-secret"}}}`)))
		_, _, err = ws.ReadMessage()
		require.NoError(t, err)
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":`+strconv.Itoa(400+100*i)+`},"_meta":{"progressToken":"p"}}}`)))
	}
	for i, ws := range wss {
		// The first progress notification: the sleep is running.
		require.NoError(t, ws.SetReadDeadline(time.Now().Add(testWait)))
		_, data, err := ws.ReadMessage()
		require.NoError(t, err)
		require.Equal(t, "notifications/progress", gjson.GetBytes(data, "method").String(), "connection %d: %s", i, data)
	}
	require.NoError(t, cmd.Process.Signal(syscall.SIGTERM))

	for i, ws := range wss {
		data := nextAnswer(t, ws)
		assert.Equal(t, `{"status": "success", "slept_ms": `+strconv.Itoa(400+100*i)+`}`, gjson.GetBytes(data, "result.content.0.text").String())
		_, _, err = ws.ReadMessage()
		assert.True(t, websocket.IsCloseError(err, websocket.CloseGoingAway), "connection %d: %v", i, err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "exit status; stderr:\n%s", stderr.String())
	case <-time.After(testWait):
		t.Fatal("the process did not exit after SIGTERM")
	}

	logs := stderr.String()
	assert.NotContains(t, logs, "ARG-VALUE-secret")
	assert.NotContains(t, logs, token)
	var opened, closed, calls int
	for _, l := range strings.Split(strings.TrimSpace(logs), "\n") {
		entry := gjson.Parse(l)
		require.True(t, entry.IsObject(), "not a JSON log line: %q", l)
		switch entry.Get("msg").String() {
		case "connection opened":
			opened++
		case "connection closed":
			closed++
			assert.Equal(t, int64(2), entry.Get("calls").Int())
		case "call":
			calls++
			for _, f := range []string{"conn", "tool", "error_code", "duration_ms"} {
				assert.True(t, entry.Get(f).Exists(), "call line without %s: %s", f, l)
			}
		}
	}
	assert.Equal(t, conns, opened)
	assert.Equal(t, conns, closed)
	assert.Equal(t, 2*conns, calls)
}

// nextAnswer reads frames, skipping notifications, until an answer.
func nextAnswer(t *testing.T, ws *websocket.Conn) []byte {
	t.Helper()
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(testWait)))
	for {
		_, data, err := ws.ReadMessage()
		require.NoError(t, err, "no answer")
		if gjson.GetBytes(data, "id").Exists() {
			return data
		}
	}
}
