package server_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// BenchmarkRoundTrip measures tools/call round trips of the trivial add
// tool through the sidecar, beside a bare gorilla echo server (the floor)
// measured in the same run with the same frames and load generator. Each
// result reports p50-ns, p99-ns and calls/s; sidecar results also report
// p50-x-echo, the ratio to the echo floor of the same shape.
func BenchmarkRoundTrip(b *testing.B) {
	shapes := []struct{ conns, concurrency int }{
		{1, 1}, {1, 16}, {1, 64}, {16, 16}, {16, 64},
	}
	echoURL := startEcho(b)
	sidecarURL := startSidecar(b)
	for _, sh := range shapes {
		var floor float64
		name := fmt.Sprintf("conns=%d/concurrency=%d", sh.conns, sh.concurrency)
		b.Run("echo/"+name, func(b *testing.B) {
			floor = runLoad(b, echoURL, sh.conns, sh.concurrency).p50
		})
		b.Run("sidecar/"+name, func(b *testing.B) {
			st := runLoad(b, sidecarURL, sh.conns, sh.concurrency)
			if floor > 0 {
				b.ReportMetric(st.p50/floor, "p50-x-echo")
			}
		})
	}
}

func startEcho(b *testing.B) string {
	up := websocket.Upgrader{ReadBufferSize: 16 << 10, WriteBufferSize: 16 << 10}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ws, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer ws.Close()
		for {
			mt, data, err := ws.ReadMessage()
			if err != nil {
				return
			}
			if err := ws.WriteMessage(mt, data); err != nil {
				return
			}
		}
	}))
	b.Cleanup(hs.Close)
	return "ws" + strings.TrimPrefix(hs.URL, "http") + "/"
}

func startSidecar(b *testing.B) string {
	reg := registry.New()
	if err := testtools.Register(reg); err != nil {
		b.Fatal(err)
	}
	hs := httptest.NewServer(server.New(reg, server.Config{}))
	b.Cleanup(hs.Close)
	return "ws" + strings.TrimPrefix(hs.URL, "http") + server.PathWS
}

type loadStats struct{ p50, p99 float64 }

// loadConn is one connection of the load generator: workers write under
// wmu, one reader routes each answer to its worker by id.
type loadConn struct {
	ws      *websocket.Conn
	wmu     sync.Mutex
	waiters map[int64]chan struct{}
}

// runLoad runs b.N add calls from concurrency workers spread over conns
// connections, each worker with one call outstanding, and reports the
// latency percentiles and throughput.
func runLoad(b *testing.B, url string, conns, concurrency int) loadStats {
	lcs := make([]*loadConn, conns)
	for i := range lcs {
		ws, resp, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			b.Fatal(err)
		}
		_ = resp.Body.Close()
		lcs[i] = &loadConn{ws: ws, waiters: map[int64]chan struct{}{}}
	}
	frames := make([][]byte, concurrency)
	done := make([]chan struct{}, concurrency)
	for w := range concurrency {
		frames[w] = []byte(callFrame(w, "add", `{"a":1,"b":2}`, ""))
		done[w] = make(chan struct{}, 1)
		lcs[w%conns].waiters[int64(w)] = done[w]
	}
	var readers sync.WaitGroup
	for _, lc := range lcs {
		readers.Go(func() {
			for {
				_, data, err := lc.ws.ReadMessage()
				if err != nil {
					return
				}
				if ch, ok := lc.waiters[gjson.GetBytes(data, "id").Int()]; ok {
					ch <- struct{}{}
				}
			}
		})
	}
	var issued atomic.Int64
	lat := make([][]time.Duration, concurrency)
	var workers sync.WaitGroup
	b.ResetTimer()
	start := time.Now()
	for w := range concurrency {
		workers.Go(func() {
			lc := lcs[w%conns]
			for issued.Add(1) <= int64(b.N) {
				t0 := time.Now()
				lc.wmu.Lock()
				err := lc.ws.WriteMessage(websocket.TextMessage, frames[w])
				lc.wmu.Unlock()
				if err != nil {
					b.Error(err)
					return
				}
				<-done[w]
				lat[w] = append(lat[w], time.Since(t0))
			}
		})
	}
	workers.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	for _, lc := range lcs {
		_ = lc.ws.Close()
	}
	readers.Wait()
	all := slices.Concat(lat...)
	slices.Sort(all)
	st := loadStats{p50: float64(pct(all, 50)), p99: float64(pct(all, 99))}
	b.ReportMetric(st.p50, "p50-ns")
	b.ReportMetric(st.p99, "p99-ns")
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "calls/s")
	return st
}

func pct(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	return sorted[(len(sorted)-1)*p/100]
}
