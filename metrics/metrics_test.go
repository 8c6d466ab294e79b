package metrics_test

import (
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/metrics"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// TestCounts: calls are counted by tool and code (OK, FALLBACK_REQUIRED,
// an error code, _unknown for unregistered names), saves and failed saves
// apart, and the gauges read their callbacks at scrape time.
func TestCounts(t *testing.T) {
	m := metrics.New()
	m.CallStarted("add")
	m.CallFinished("add", registry.Result{Elapsed: time.Millisecond})
	m.CallStarted("fallback")
	m.CallFinished("fallback", registry.Result{Fallback: true})
	m.CallStarted("")
	m.CallFinished("", registry.Result{IsError: true, Code: errorsjson.CodeNotFound})
	m.CallStarted("sleep") // still running
	m.WorkbookSaved(nil)
	m.WorkbookSaved(nil)
	m.WorkbookSaved(errors.New("disk full"))
	open := 3.0
	require.NoError(t, m.Connections("ws", func() float64 { return open }))
	assert.Error(t, m.Connections("ws", func() float64 { return 0 }), "a door is registered once")
	require.NoError(t, m.WorkbookCache(func() (int, int64) { return 2, 4096 }))
	require.NoError(t, m.ReadCache(func() (int, int64) { return 3, 512 }))
	assert.Error(t, m.ReadCache(func() (int, int64) { return 0, 0 }), "a cache is registered once")

	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body := rec.Body.String()
	for _, line := range []string{
		`registry_sidecar_calls_total{error_code="OK",tool="add"} 1`,
		`registry_sidecar_calls_total{error_code="FALLBACK_REQUIRED",tool="fallback"} 1`,
		`registry_sidecar_calls_total{error_code="TOOL_NOT_FOUND",tool="_unknown"} 1`,
		`registry_sidecar_call_duration_seconds_count{tool="add"} 1`,
		`registry_sidecar_calls_in_flight 1`,
		`registry_sidecar_workbook_saves_total 2`,
		`registry_sidecar_workbook_save_failures_total 1`,
		`registry_sidecar_open_connections{door="ws"} 3`,
		`registry_sidecar_workbook_cache_workbooks 2`,
		`registry_sidecar_workbook_cache_bytes 4096`,
		`registry_sidecar_read_cache_workbooks 3`,
		`registry_sidecar_read_cache_bytes 512`,
		`go_goroutines `,
	} {
		assert.Contains(t, body, line)
	}
	open = 5
	n, err := testutil.GatherAndCount(m.Gatherer(), "registry_sidecar_open_connections")
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.NoError(t, testutil.GatherAndCompare(m.Gatherer(), strings.NewReader(`
# HELP registry_sidecar_open_connections Open connections per door: WebSocket connections (ws), stdio sessions (stdio), MCP HTTP requests being served, SSE streams included (http).
# TYPE registry_sidecar_open_connections gauge
registry_sidecar_open_connections{door="ws"} 5
`), "registry_sidecar_open_connections"))
}
