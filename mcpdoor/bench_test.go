package mcpdoor_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// Each benchmark measures a door beside its floor: a bare go-sdk server
// exposing the same trivial tool on the same transport, driven by the same
// client in the same run. Reported: p50 of each and their ratio (the
// door's overhead), and for HTTP with 64 concurrent clients, calls/s of
// the door, of the floor and of a plain net/http handler answering canned
// bytes (the ceiling: what this machine and client allow at all).

// benchClients is the number of concurrent clients (connections) of the
// HTTP throughput benchmark; each calls for roundTime per round.
const (
	benchClients = 64
	roundTime    = 300 * time.Millisecond
)

// trivialText is what the trivial tool returns.
const trivialText = "ok"

// trivialRegistry holds the trivial tool behind the door.
func trivialRegistry(b *testing.B) *registry.Registry {
	reg := registry.New()
	require.NoError(b, reg.Register(registry.Tool{
		Name: "noop", Description: "Answer ok.", Annotations: registry.ReadOnly(),
		Func: func(context.Context, json.RawMessage) (any, error) { return trivialText, nil },
	}))
	return reg
}

// bareServer is the floor: the go-sdk alone with the same tool.
func bareServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bare", Version: "1"}, &mcp.ServerOptions{Capabilities: &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{}}})
	s.AddTool(&mcp.Tool{Name: "noop", Description: "Answer ok.", InputSchema: json.RawMessage(`{"type": "object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: trivialText}}}, nil
		})
	return s
}

// pipeSession connects a client to serve over a pair of pipes.
func pipeSession(b *testing.B, serve func(io.ReadCloser, io.WriteCloser)) *mcp.ClientSession {
	cr, sw := io.Pipe()
	sr, cw := io.Pipe()
	go serve(sr, sw)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.IOTransport{Reader: cr, Writer: cw}, nil)
	require.NoError(b, err)
	b.Cleanup(func() { _ = cs.Close(); _ = cw.Close() })
	return cs
}

// urlSession connects a client to a streamable HTTP endpoint.
func urlSession(b *testing.B, url string) *mcp.ClientSession {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: benchHTTPClient}, nil)
	require.NoError(b, err)
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// benchHTTPClient keeps enough idle connections for every client.
var benchHTTPClient = &http.Client{Transport: &http.Transport{MaxIdleConns: 2 * benchClients, MaxIdleConnsPerHost: 2 * benchClients}}

var noopParams = &mcp.CallToolParams{Name: "noop", Arguments: json.RawMessage(`{}`)}

// call is one timed tools/call round trip.
func call(b *testing.B, cs *mcp.ClientSession) time.Duration {
	start := time.Now()
	res, err := cs.CallTool(context.Background(), noopParams)
	d := time.Since(start)
	if err != nil || res.IsError || len(res.Content) != 1 {
		b.Fatalf("call failed: %v %+v", err, res)
	}
	return d
}

// p50 is the median of ds.
func p50(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

// alternate runs b.N round trips on each session, interleaved, and
// reports both medians and their ratio.
func alternate(b *testing.B, door, bare *mcp.ClientSession) {
	for range 50 { // warm both paths up
		call(b, door)
		call(b, bare)
	}
	doorD := make([]time.Duration, 0, b.N)
	bareD := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		doorD = append(doorD, call(b, door))
		bareD = append(bareD, call(b, bare))
	}
	b.StopTimer()
	pd, pb := p50(doorD), p50(bareD)
	b.ReportMetric(float64(pd.Nanoseconds()), "door-p50-ns")
	b.ReportMetric(float64(pb.Nanoseconds()), "bare-p50-ns")
	b.ReportMetric(float64(pd)/float64(pb), "p50-ratio")
}

// BenchmarkStdioCall: one tools/call round trip of a trivial tool over
// stdio (pipes), the door beside the bare go-sdk server.
func BenchmarkStdioCall(b *testing.B) {
	door := mcpdoor.New(trivialRegistry(b), mcpdoor.Config{})
	doorCS := pipeSession(b, func(r io.ReadCloser, w io.WriteCloser) { _ = door.ServeStdio(context.Background(), r, w) })
	bare := bareServer()
	bareCS := pipeSession(b, func(r io.ReadCloser, w io.WriteCloser) {
		_ = bare.Run(context.Background(), &mcp.IOTransport{Reader: r, Writer: w})
	})
	alternate(b, doorCS, bareCS)
}

// httpPair serves the door (through the sidecar's HTTP server: routing,
// token and Origin checks) and the bare stateless go-sdk handler.
func httpPair(b *testing.B) (doorURL, bareURL string) {
	reg := trivialRegistry(b)
	door := mcpdoor.New(reg, mcpdoor.Config{})
	ds := httptest.NewServer(server.New(reg, server.Config{MCP: door}))
	bare := bareServer()
	// The floor gets the SDK's own best options for these calls: stateless,
	// application/json answers (what the door answers them with too).
	bs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return bare }, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	b.Cleanup(func() { ds.Close(); bs.Close() })
	return ds.URL + server.PathMCP, bs.URL
}

// BenchmarkHTTPCall: one tools/call round trip over streamable HTTP at
// the newest protocol (stateless), the door beside the bare go-sdk handler.
func BenchmarkHTTPCall(b *testing.B) {
	doorURL, bareURL := httpPair(b)
	alternate(b, urlSession(b, doorURL), urlSession(b, bareURL))
}

// rawCall is a 2026-07-28 tools/call of the trivial tool as one stateless
// POST, as the go-sdk client sends it.
const rawCall = `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"noop","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}}}`

// loadConn is one keep-alive HTTP/1.1 connection of the load client,
// sending rawCall again and again: the lightest client there is (one
// goroutine, no per-call request building), so that the server's cost
// dominates. net/http writes the request once and parses every answer.
type loadConn struct {
	conn net.Conn
	r    *bufio.Reader
	req  []byte
	body bytes.Buffer
}

// dialLoad opens benchClients connections to url.
func dialLoad(b *testing.B, url string) []*loadConn {
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(rawCall))
	require.NoError(b, err)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", "2026-07-28")
	req.Header.Set("Mcp-Method", "tools/call")
	req.Header.Set("Mcp-Name", "noop")
	var wire bytes.Buffer
	require.NoError(b, req.Write(&wire))
	conns := make([]*loadConn, benchClients)
	for i := range conns {
		conn, err := net.Dial("tcp", req.URL.Host)
		require.NoError(b, err)
		b.Cleanup(func() { _ = conn.Close() })
		conns[i] = &loadConn{conn: conn, r: bufio.NewReader(conn), req: wire.Bytes()}
	}
	return conns
}

// call sends rawCall and checks the answer.
func (c *loadConn) call() error {
	if _, err := c.conn.Write(c.req); err != nil {
		return err
	}
	resp, err := http.ReadResponse(c.r, nil)
	if err != nil {
		return err
	}
	c.body.Reset()
	_, err = c.body.ReadFrom(resp.Body)
	_ = resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK || !bytes.Contains(c.body.Bytes(), []byte(`"content"`)) {
		return fmt.Errorf("call failed: %v %d %s", err, resp.StatusCode, c.body.Bytes())
	}
	return nil
}

// rate is what one round measured: calls per second of wall time, and
// calls per second of this process's CPU time (client and server both;
// zero when unknown), which the other processes of a shared machine
// disturb less.
type rate struct{ wall, cpu float64 }

// throughput has each of conns call again and again for roundTime.
func throughput(b *testing.B, conns []*loadConn) rate {
	var wg sync.WaitGroup
	var calls atomic.Int64
	errs := make(chan error, len(conns))
	cpu0, cpuOK := cpuTime()
	start := time.Now()
	deadline := start.Add(roundTime)
	for _, c := range conns {
		wg.Go(func() {
			for time.Now().Before(deadline) {
				if err := c.call(); err != nil {
					errs <- err
					return
				}
				calls.Add(1)
			}
		})
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu1, _ := cpuTime()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
	n := float64(calls.Load())
	r := rate{wall: n / elapsed.Seconds()}
	if cpuOK && cpu1 > cpu0 {
		r.cpu = n / (cpu1 - cpu0).Seconds()
	}
	return r
}

// cannedAnswer is what the ceiling server answers: the bytes of a
// tools/call result, without any MCP behind them.
const cannedAnswer = `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"ok"}]}}`

// ceilingServer answers every POST with cannedAnswer: what net/http and
// the benchmark client cost alone on this machine, the most any MCP server
// could reach here.
func ceilingServer(b *testing.B) string {
	s := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, cannedAnswer)
	}))
	b.Cleanup(s.Close)
	return s.URL
}

// BenchmarkHTTPConcurrent64: 64 clients calling at once over streamable
// HTTP (stateless 2026-07-28 POSTs); calls/s of the door, of the bare
// handler (the floor) and of a plain net/http handler answering canned
// bytes (the ceiling of this machine and client), measured in alternating
// rounds with the same keep-alive client (benchClients connections).
// Also reported: calls per CPU-second of the process (client included),
// a figure the rest of a busy machine disturbs less: on two idle cores a
// server could reach about twice it.
func BenchmarkHTTPConcurrent64(b *testing.B) {
	doorURL, bareURL := httpPair(b)
	door, bare, ceil := dialLoad(b, doorURL), dialLoad(b, bareURL), dialLoad(b, ceilingServer(b))
	throughput(b, door) // warm up
	throughput(b, bare)
	throughput(b, ceil)
	b.ResetTimer()
	var sum [3]rate
	for range b.N {
		for i, conns := range [3][]*loadConn{door, bare, ceil} {
			r := throughput(b, conns)
			sum[i].wall += r.wall / float64(b.N)
			sum[i].cpu += r.cpu / float64(b.N)
		}
	}
	b.StopTimer()
	for i, name := range [3]string{"door", "bare", "ceiling"} {
		b.ReportMetric(sum[i].wall, name+"-calls/s")
		if sum[i].cpu > 0 {
			b.ReportMetric(sum[i].cpu, name+"-calls/cpu-s")
		}
	}
	b.ReportMetric(sum[0].wall/sum[1].wall, "throughput-ratio")
}
