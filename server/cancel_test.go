package server_test

import (
	"context"
	"encoding/json"
	"math"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
)

// TestCancellation: notifications/cancelled cancels the tool's context,
// no answer is sent for that id, and later calls on the connection work.
func TestCancellation(t *testing.T) {
	reg := registry.New()
	started := make(chan struct{})
	var cancelled atomic.Bool
	require.NoError(t, reg.Register(registry.Tool{
		Name: "block",
		Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			close(started)
			<-ctx.Done()
			cancelled.Store(true)
			return nil, ctx.Err()
		},
	}))
	srv := server.New(reg, server.Config{})
	f := serveRegistry(t, srv)
	c := f.dial(t)

	c.send(callFrame(1, "block", `{}`, ""))
	select {
	case <-started:
	case <-time.After(testWait):
		t.Fatal("tool never started")
	}
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1,"reason":"user"}}`)
	eventually(t, cancelled.Load, "the tool's context was not cancelled")
	// The next answer on the wire is the ping's: nothing for id 1.
	got := c.roundTrip(`{"jsonrpc":"2.0","id":2,"method":"ping"}`)
	assert.Equal(t, "2", got.Get("id").Raw)
	assert.Equal(t, "{}", got.Get("result").Raw)
	// Give a late answer for id 1 a chance to show up, then check again.
	time.Sleep(50 * time.Millisecond)
	got = c.roundTrip(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	assert.Equal(t, "3", got.Get("id").Raw)
}

// TestCancelWhileWaitingForSlot: a call queued behind the concurrency
// bound can be cancelled before it starts; it never runs or answers.
func TestCancelWhileWaitingForSlot(t *testing.T) {
	f := startServer(t, server.Config{MaxConcurrentCalls: 1})
	c := f.dial(t)
	c.send(callFrame(1, "sleep", `{"ms":200}`, ""))
	c.send(callFrame(2, "add", `{"a":1,"b":1}`, ""))
	c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
	first := c.next()
	assert.Equal(t, "1", first.Get("id").Raw)
	got := c.roundTrip(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
	assert.Equal(t, "3", got.Get("id").Raw, "no answer for the cancelled id 2")
}

// TestProgress: a progressToken yields notifications/progress with that
// token, increasing, before the answer; no token, no notifications.
func TestProgress(t *testing.T) {
	f := startServer(t, server.Config{})
	c := f.dial(t)
	for _, tc := range []struct {
		name, meta string
		token      string
		want       int
	}{
		{"string token", `{"progressToken":"tok-1"}`, `"tok-1"`, 10},
		{"number token", `{"progressToken":7}`, `7`, 10},
		{"no token", ``, ``, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			c.send(callFrame(1, "sleep", `{"ms":50}`, tc.meta))
			var progress []float64
			for {
				msg := c.next()
				if msg.Get("id").Exists() {
					assert.Equal(t, `{"status": "success", "slept_ms": 50}`, msg.Get("result.content.0.text").String())
					break
				}
				require.Equal(t, "notifications/progress", msg.Get("method").String())
				assert.Equal(t, tc.token, msg.Get("params.progressToken").Raw)
				assert.Equal(t, 50.0, msg.Get("params.total").Float())
				progress = append(progress, msg.Get("params.progress").Float())
			}
			require.Len(t, progress, tc.want)
			for i := 1; i < len(progress); i++ {
				assert.Greater(t, progress[i], progress[i-1])
			}
		})
	}
}

// TestTimeoutMsIsCappedByRegistry: _meta.timeoutMs shortens a call, and
// the registry maximum caps it.
func TestTimeoutMsIsCappedByRegistry(t *testing.T) {
	f := startServer(t, server.Config{}, registry.WithMaxTimeout(30*time.Millisecond))
	c := f.dial(t)
	start := time.Now()
	got := c.roundTrip(callFrame(1, "sleep", `{"ms":5000}`, `{"timeoutMs":600000}`))
	assert.Contains(t, got.Get("result.content.0.text").String(), `"error_code": "TOOL_TIMEOUT"`)
	assert.Less(t, time.Since(start), 4*time.Second)
}

// TestProgressNonFinite: JSON has no NaN or infinity, so a progress report
// of NaN or ±Inf is skipped and a non-finite total is left out; every frame
// stays valid JSON.
func TestProgressNonFinite(t *testing.T) {
	reg := registry.New()
	require.NoError(t, reg.Register(registry.Tool{
		Name: "odd_progress",
		Func: func(ctx context.Context, _ json.RawMessage) (any, error) {
			registry.ReportProgress(ctx, math.NaN(), 10, "nan")
			registry.ReportProgress(ctx, math.Inf(1), 10, "inf")
			registry.ReportProgress(ctx, 1, math.NaN(), "nan total")
			registry.ReportProgress(ctx, 2, math.Inf(-1), "inf total")
			registry.ReportProgress(ctx, 3, 10, "fine")
			return nil, nil
		},
	}))
	f := serveRegistry(t, server.New(reg, server.Config{}))
	c := f.dial(t)
	c.send(callFrame(1, "odd_progress", `{}`, `{"progressToken":"p"}`))
	var got []string
	for {
		msg := c.next() // fails on a frame that is not valid JSON
		if msg.Get("id").Exists() {
			assert.False(t, msg.Get("result.isError").Bool(), msg.Raw)
			break
		}
		got = append(got, msg.Get("params").Raw)
	}
	assert.Equal(t, []string{
		`{"progressToken":"p","progress":1,"message":"nan total"}`,
		`{"progressToken":"p","progress":2,"message":"inf total"}`,
		`{"progressToken":"p","progress":3,"total":10,"message":"fine"}`,
	}, got)
}
