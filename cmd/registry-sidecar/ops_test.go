package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// loggedSidecar is a server started through run, with its "listening" log line.
type loggedSidecar struct {
	listening gjson.Result // the "listening" log line
	base      string       // http://host:port of --listen
	stop      func() error
}

// startLogged runs the server with info logs and returns once it logged
// "listening".
func startLogged(t *testing.T, args ...string) *loggedSidecar {
	t.Helper()
	lr, lw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--workspace", t.TempDir(), "--log-level", "info"}, args...), io.Discard, lw)
		_ = lw.Close()
	}()
	lines := make(chan gjson.Result, 1)
	go func() {
		sc := bufio.NewScanner(lr)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			if l := gjson.Parse(sc.Text()); l.Get("msg").Str == "listening" {
				lines <- l
			}
		}
		_, _ = io.Copy(io.Discard, lr)
	}()
	s := &loggedSidecar{}
	select {
	case s.listening = <-lines:
	case err := <-done:
		cancel()
		t.Fatalf("run returned before listening: %v", err)
	case <-time.After(testWait):
		cancel()
		t.Fatal("no listening log line")
	}
	s.base = "http://" + strings.TrimSuffix(strings.TrimPrefix(s.listening.Get("url").Str, "ws://"), "/ws")
	s.stop = func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(testWait):
			t.Fatal("run did not return after cancel")
			return nil
		}
	}
	t.Cleanup(cancel)
	return s
}

// scrape reads /metrics.
func scrape(t *testing.T, base string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	require.NoError(t, err)
	return fams
}

// sample is the value of the metric of fams[name] whose labels include
// labels (counter, gauge, or a histogram's sample count); -1 when absent.
func sample(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	fam, ok := fams[name]
	if !ok {
		return -1
	}
next:
	for _, m := range fam.GetMetric() {
		have := map[string]string{}
		for _, lp := range m.GetLabel() {
			have[lp.GetName()] = lp.GetValue()
		}
		for k, v := range labels {
			if have[k] != v {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.GetCounter().GetValue()
		case m.Gauge != nil:
			return m.GetGauge().GetValue()
		case m.Histogram != nil:
			return float64(m.GetHistogram().GetSampleCount())
		}
	}
	return -1
}

// TestMetricsCountKnownCalls: after known calls over the WebSocket and MCP
// HTTP doors, /metrics counts them by tool and error code, times them,
// counts the save and the open WebSocket connection, and reports the
// workbook cache; the listening log line names the workspace and doors.
func TestMetricsCountKnownCalls(t *testing.T) {
	s := startLogged(t, "--test-tools", "--mcp-listen", "127.0.0.1:0")
	assert.NotEmpty(t, s.listening.Get("workspace").Str, "the listening line names the workspace")
	assert.Equal(t, `["ws","http"]`, s.listening.Get("doors").Raw, "the listening line names the doors")
	mcpURL := s.listening.Get("mcp_url").Str
	require.True(t, strings.HasPrefix(mcpURL, "http://127.0.0.1:") && strings.HasSuffix(mcpURL, "/mcp"), mcpURL)

	ws, resp, err := websocket.DefaultDialer.Dial(s.listening.Get("url").Str, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	defer ws.Close()
	wsCall := func(id int, name, args string) string {
		frame := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"tools/call","params":{"name":"` + name + `","arguments":` + args + `}}`
		require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(frame)))
		_, data, err := ws.ReadMessage()
		require.NoError(t, err)
		return gjson.GetBytes(data, "result.content.0.text").Str
	}
	assert.Contains(t, wsCall(1, "add", `{"a":1,"b":2}`), `"sum": 3`)
	assert.Contains(t, wsCall(2, "add", `{"a":2,"b":2}`), `"sum": 4`)
	assert.Contains(t, wsCall(3, "fail", `{"exception":"KeyError","message":"x"}`), "TOOL_EXECUTION_ERROR")

	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "metrics-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: mcpURL}, nil)
	require.NoError(t, err)
	defer cs.Close()
	for _, c := range []struct{ name, args string }{
		{"add", `{"a":5,"b":5}`},
		{"made_up_tool", `{}`},
		{"write_cells", `{"file_path":"m.xlsx","cell":"A1","value":7,"create":true}`},
		// A new workbook is not cached (excelops.book.unchecked); an edit of
		// the saved one through excelize's parsed workbook is.
		{"insert_rows", `{"file_path":"m.xlsx","row":1}`},
		// A read remembers the saved file's sheet index (it has no shared
		// strings to hold).
		{"read_excel", `{"file_path":"m.xlsx","range":"A1:B2"}`},
		{"fallback", `{"to":"CHAT_SERVICE"}`},
	} {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: json.RawMessage(c.args)})
		require.NoError(t, err)
	}

	fams := scrape(t, s.base)
	calls := "registry_sidecar_calls_total"
	assert.Equal(t, 3.0, sample(fams, calls, map[string]string{"tool": "add", "error_code": "OK"}))
	assert.Equal(t, 1.0, sample(fams, calls, map[string]string{"tool": "fail", "error_code": "TOOL_EXECUTION_ERROR"}))
	assert.Equal(t, 1.0, sample(fams, calls, map[string]string{"tool": "_unknown", "error_code": "TOOL_NOT_FOUND"}))
	assert.Equal(t, 1.0, sample(fams, calls, map[string]string{"tool": "write_cells", "error_code": "OK"}))
	assert.Equal(t, 1.0, sample(fams, calls, map[string]string{"tool": "fallback", "error_code": "FALLBACK_REQUIRED"}))
	assert.Equal(t, 3.0, sample(fams, "registry_sidecar_call_duration_seconds", map[string]string{"tool": "add"}), "latency samples")
	assert.Equal(t, 0.0, sample(fams, "registry_sidecar_calls_in_flight", nil))
	assert.Equal(t, 2.0, sample(fams, "registry_sidecar_workbook_saves_total", nil))
	assert.Equal(t, 0.0, sample(fams, "registry_sidecar_workbook_save_failures_total", nil))
	assert.Equal(t, 1.0, sample(fams, "registry_sidecar_open_connections", map[string]string{"door": "ws"}))
	assert.GreaterOrEqual(t, sample(fams, "registry_sidecar_open_connections", map[string]string{"door": "http"}), 0.0,
		"the http door's gauge is exported")
	assert.Equal(t, 1.0, sample(fams, "registry_sidecar_workbook_cache_workbooks", nil))
	assert.Greater(t, sample(fams, "registry_sidecar_workbook_cache_bytes", nil), 0.0)
	assert.Equal(t, 1.0, sample(fams, "registry_sidecar_read_cache_workbooks", nil))
	assert.Equal(t, 0.0, sample(fams, "registry_sidecar_read_cache_bytes", nil))

	require.NoError(t, cs.Close())
	require.NoError(t, ws.Close())
	require.Eventually(t, func() bool {
		fams := scrape(t, s.base)
		return sample(fams, "registry_sidecar_open_connections", map[string]string{"door": "http"}) == 0 &&
			sample(fams, "registry_sidecar_open_connections", map[string]string{"door": "ws"}) == 0
	}, testWait, 10*time.Millisecond, "open connections go back to 0 once the clients hang up")
	require.NoError(t, s.stop())
}

// TestReadyAndHealth: /readyz and /healthz answer 200 while serving;
// /metrics needs the token when one is configured.
func TestReadyAndHealth(t *testing.T) {
	s := startLogged(t, "--token", "sekret")
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(s.base + path)
		require.NoError(t, err)
		_ = resp.Body.Close()
		assert.Equal(t, http.StatusOK, resp.StatusCode, path)
	}
	resp, err := http.Get(s.base + "/metrics")
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusUnauthorized, resp.StatusCode, "/metrics without the token")
	req, err := http.NewRequest(http.MethodGet, s.base+"/metrics", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer sekret")
	resp, err = http.DefaultClient.Do(req)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode, "/metrics with the token")
	require.NoError(t, s.stop())
}
