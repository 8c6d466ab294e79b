// Package metrics is registry-sidecar's Prometheus instrumentation
// (github.com/prometheus/client_golang): calls by tool and error code, call
// latency, calls in flight, open connections per door, workbook saves and
// failed saves, and the bytes held by the workbook cache. Everything lives
// in the Metrics value's own prometheus.Registry (no global state); the
// registry, the spreadsheet service and the doors report through the small
// interfaces they define (registry.Observer, excelops.Observer) and
// through callbacks read at scrape time.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/registry-sidecar/registry-sidecar/registry"
)

// namespace prefixes every metric name.
const namespace = "registry_sidecar"

// Label values used for calls that have no error code.
const (
	// CodeOK labels successful calls.
	CodeOK = "OK"
	// CodeFallback labels calls that asked for fallback routing.
	CodeFallback = "FALLBACK_REQUIRED"
	// ToolUnknown labels calls of a name no tool is registered under (so
	// that client-made names never become label values).
	ToolUnknown = "_unknown"
)

// latencyBuckets are the call-latency histogram's upper bounds in seconds:
// from a trivial tool's sub-millisecond call to a long spreadsheet edit.
var latencyBuckets = []float64{0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}

// Metrics holds every collector. Create it with New; it implements
// registry.Observer and excelops.Observer. Safe for concurrent use.
type Metrics struct {
	reg          *prometheus.Registry
	calls        *prometheus.CounterVec
	latency      *prometheus.HistogramVec
	inFlight     prometheus.Gauge
	saves        prometheus.Counter
	saveFailures prometheus.Counter
}

// New returns Metrics with the process and Go runtime collectors besides
// the sidecar's own.
func New() *Metrics {
	m := &Metrics{
		reg: prometheus.NewRegistry(),
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: namespace, Name: "calls_total",
			Help: "Tool calls finished, by tool and error code (OK for success, FALLBACK_REQUIRED for fallback requests).",
		}, []string{"tool", "error_code"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: namespace, Name: "call_duration_seconds",
			Help:    "Wall time of tool calls, from the registry's checks to the encoded payload, by tool.",
			Buckets: latencyBuckets,
		}, []string{"tool"}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{
			Namespace: namespace, Name: "calls_in_flight",
			Help: "Tool calls running now.",
		}),
		saves: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "workbook_saves_total",
			Help: "Workbooks saved atomically.",
		}),
		saveFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: namespace, Name: "workbook_save_failures_total",
			Help: "Workbook saves that failed (the original file was kept).",
		}),
	}
	m.reg.MustRegister(m.calls, m.latency, m.inFlight, m.saves, m.saveFailures,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// CallStarted counts a call in flight (registry.Observer).
func (m *Metrics) CallStarted(string) { m.inFlight.Inc() }

// CallFinished counts a finished call by tool and error code and observes
// its latency (registry.Observer).
func (m *Metrics) CallFinished(tool string, res registry.Result) {
	m.inFlight.Dec()
	if tool == "" {
		tool = ToolUnknown
	}
	code := string(res.Code)
	switch {
	case res.Fallback:
		code = CodeFallback
	case code == "":
		code = CodeOK
	}
	m.calls.WithLabelValues(tool, code).Inc()
	m.latency.WithLabelValues(tool).Observe(res.Elapsed.Seconds())
}

// WorkbookSaved counts a save or a failed save (excelops.Observer).
func (m *Metrics) WorkbookSaved(err error) {
	if err != nil {
		m.saveFailures.Inc()
		return
	}
	m.saves.Inc()
}

// Connections exports open, read at every scrape, as the open connections
// of door (ws, stdio, http). Each door is registered once.
func (m *Metrics) Connections(door string, open func() float64) error {
	return m.reg.Register(prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: namespace, Name: "open_connections",
		Help:        "Open connections per door: WebSocket connections (ws), stdio sessions (stdio), MCP HTTP requests being served, SSE streams included (http).",
		ConstLabels: prometheus.Labels{"door": door},
	}, open))
}

// WorkbookCache exports stats, read at every scrape, as the workbooks the
// cache keeps in memory and the bytes they hold (estimated).
func (m *Metrics) WorkbookCache(stats func() (books int, bytes int64)) error {
	return m.cacheGauges("workbook_cache",
		"Parsed workbooks kept in memory between calls.",
		"Estimated bytes held by the workbooks kept in memory between calls.", stats)
}

// ReadCache exports stats, read at every scrape, as the unchanged workbook
// files reads remember (sheet index, date styles, shared strings) and the
// bytes of shared strings held for them.
func (m *Metrics) ReadCache(stats func() (files int, bytes int64)) error {
	return m.cacheGauges("read_cache",
		"Unchanged workbook files whose sheet index, date styles and shared strings reads remember.",
		"Bytes of shared strings reads remember (strings plus a header each).", stats)
}

// cacheGauges registers the gauges name_workbooks and name_bytes over stats.
func (m *Metrics) cacheGauges(name, countHelp, bytesHelp string, stats func() (int, int64)) error {
	count := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: namespace, Name: name + "_workbooks", Help: countHelp,
	}, func() float64 { n, _ := stats(); return float64(n) })
	bytes := prometheus.NewGaugeFunc(prometheus.GaugeOpts{
		Namespace: namespace, Name: name + "_bytes", Help: bytesHelp,
	}, func() float64 { _, b := stats(); return float64(b) })
	if err := m.reg.Register(count); err != nil {
		return err
	}
	return m.reg.Register(bytes)
}

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Gatherer is the underlying registry, for tests and for embedding.
func (m *Metrics) Gatherer() prometheus.Gatherer { return m.reg }
