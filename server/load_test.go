package server_test

import (
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/server"
)

// TestThousandConnections holds 1,000 connections open at once, each
// making a call, then closes them all.
func TestThousandConnections(t *testing.T) {
	const n = 1000
	f := startServer(t, server.Config{})
	conns := make([]*websocket.Conn, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	const dialers = 50
	for w := 0; w < dialers; w++ {
		wg.Go(func() {
			for i := w; i < n; i += dialers {
				ws, resp, err := websocket.DefaultDialer.Dial(f.url, nil)
				if err != nil {
					errs <- err
					return
				}
				_ = resp.Body.Close()
				conns[i] = ws
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		require.NoError(t, err)
	}
	defer func() {
		for _, ws := range conns {
			_ = ws.Close()
		}
	}()
	eventually(t, func() bool { return f.srv.Connections() == n }, "not all connections are open at once")

	sums := make([]int64, n)
	for w := 0; w < dialers; w++ {
		wg.Go(func() {
			for i := w; i < n; i += dialers {
				ws := conns[i]
				if err := ws.WriteMessage(websocket.TextMessage, []byte(callFrame(i, "add", `{"a":`+strconv.Itoa(i)+`,"b":1}`, ""))); err != nil {
					return
				}
				_ = ws.SetReadDeadline(time.Now().Add(testWait))
				_, data, err := ws.ReadMessage()
				if err != nil {
					return
				}
				sums[i] = gjson.Get(gjson.GetBytes(data, "result.content.0.text").String(), "sum").Int()
			}
		})
	}
	wg.Wait()
	for i, s := range sums {
		require.Equal(t, int64(i+1), s, "connection %d", i)
	}
	for _, ws := range conns {
		_ = ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	}
	eventually(t, func() bool { return f.srv.Connections() == 0 }, "connections did not end")
}

// TestSixtyFourConcurrentCalls runs 64 calls on one connection and sees
// all 64 inside the tool at the same time; once released, every call is
// answered exactly once.
func TestSixtyFourConcurrentCalls(t *testing.T) {
	const n = 64
	g := newGauge()
	f := startGauge(t, server.Config{MaxConcurrentCalls: n}, g)
	c := f.dial(t)
	for i := 0; i < n; i++ {
		c.send(callFrame(i, "hold", `{}`, ""))
	}
	eventually(t, func() bool { return g.running.Load() == n }, "64 calls never ran at once")
	close(g.release)
	seen := map[int64]bool{}
	for len(seen) < n {
		msg := c.next()
		require.Equal(t, `{"status": "success"}`, msg.Get("result.content.0.text").String(), msg.Raw)
		id := msg.Get("id").Int()
		require.False(t, seen[id], "id %d answered twice", id)
		seen[id] = true
	}
	assert.Equal(t, int64(n), g.peak.Load())
}

// TestBackPressure: over MaxConcurrentCalls, calls wait instead of running;
// over twice that, the server stops reading the connection, so a flood of
// calls costs a bounded number of goroutines and a request sent after the
// flood is only read once the flood has (nearly) drained.
func TestBackPressure(t *testing.T) {
	const bound = 2
	const flood = 40
	g := newGauge()
	f := startGauge(t, server.Config{MaxConcurrentCalls: bound}, g)
	c := f.dial(t)
	c.roundTrip(`{"jsonrpc":"2.0","id":"warm","method":"ping"}`)
	base := runtime.NumGoroutine()
	for i := 0; i < flood; i++ {
		c.send(callFrame(i, "hold", `{}`, ""))
	}
	c.send(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	eventually(t, func() bool { return g.running.Load() >= bound }, "the calls did not start")
	// Admitted: 2*bound call goroutines, bound of them inside the registry
	// (one more goroutine each); everything else waits in the socket.
	assert.LessOrEqual(t, runtime.NumGoroutine()-base, 2*bound+bound+2, "goroutines grew with the flood")
	close(g.release)
	calls := 0
	for {
		msg := c.next()
		if msg.Get("id").Raw == `"after"` {
			break
		}
		require.Equal(t, `{"status": "success"}`, msg.Get("result.content.0.text").String(), msg.Raw)
		calls++
	}
	// The ping was read only after all but the 2*bound admitted calls had
	// been answered.
	assert.GreaterOrEqual(t, calls, flood-2*bound)
	for ; calls < flood; calls++ {
		require.True(t, c.next().Get("result").Exists())
	}
	assert.Equal(t, int64(bound), g.peak.Load(), "more calls ran at once than the bound")
}

// TestConnectDisconnectCycles: 10,000 connect/call/disconnect cycles leave
// no goroutine growth.
func TestConnectDisconnectCycles(t *testing.T) {
	const cycles = 10000
	const workers = 8
	f := startServer(t, server.Config{})
	warm := f.dial(t)
	warm.roundTrip(`{"jsonrpc":"2.0","id":0,"method":"ping"}`)
	require.NoError(t, warm.ws.Close())
	eventually(t, func() bool { return f.srv.Connections() == 0 }, "warm-up connection did not end")
	runtime.GC()
	base := runtime.NumGoroutine()

	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			for i := w; i < cycles; i += workers {
				if err := cycle(f.url, i); err != nil {
					mu.Lock()
					firstErr = err
					mu.Unlock()
					return
				}
			}
		})
	}
	wg.Wait()
	require.NoError(t, firstErr)
	eventually(t, func() bool { return f.srv.Connections() == 0 }, "connections did not end")
	eventually(t, func() bool { return runtime.NumGoroutine() <= base+2 }, "goroutines grew")
}

// cycle connects, calls add on every tenth connection (pings otherwise),
// and closes: cleanly on even i, abruptly on odd.
func cycle(url string, i int) error {
	ws, resp, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		return err
	}
	_ = resp.Body.Close()
	defer ws.Close()
	frame := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	if i%10 == 0 {
		frame = callFrame(1, "add", `{"a":1,"b":2}`, "")
	}
	if err := ws.WriteMessage(websocket.TextMessage, []byte(frame)); err != nil {
		return err
	}
	_ = ws.SetReadDeadline(time.Now().Add(testWait))
	if _, _, err := ws.ReadMessage(); err != nil {
		return err
	}
	if i%2 == 0 {
		return ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	}
	return nil
}
