package mcpdoor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/mcpdoor"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// listedTool is what a door lists for one tool, normalised for comparison.
type listedTool struct {
	Description string
	Schema      any  // decoded inputSchema
	ReadOnly    bool // readOnlyHint (default false)
	Destructive bool // destructiveHint (default true)
	Idempotent  bool // idempotentHint (default false)
	OpenWorld   bool // openWorldHint (default true)
	Title       string
	Annotated   bool
}

// answer is a tools/call answer: the payload text, isError, and the
// progress values notified before it.
type answer struct {
	Text     string
	IsError  bool
	Progress []float64
}

// door is one front door as a client sees it.
type door interface {
	list(t *testing.T) map[string]listedTool
	// call runs name(args) with _meta (nil for none); progress asks for
	// progress notifications.
	call(t *testing.T, name, args string, meta map[string]any, progress bool) answer
	// cancel starts name(args), waits until started() and cancels it.
	cancel(t *testing.T, name, args string, started <-chan struct{})
}

// probe observes the registry: it signals each started call of a tool
// and keeps the codes of finished calls.
type probe struct {
	mu      sync.Mutex
	started map[string]chan struct{}
	codes   []errorsjson.Code
}

func (p *probe) CallStarted(tool string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if ch, ok := p.started[tool]; ok {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

func (p *probe) CallFinished(_ string, res registry.Result) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.codes = append(p.codes, res.Code)
}

func (p *probe) lastCode() errorsjson.Code {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.codes) == 0 {
		return ""
	}
	return p.codes[len(p.codes)-1]
}

func (p *probe) count() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.codes)
}

// doorCall is one row of the table: the same call through every door.
type doorCall struct {
	name, tool, args string
	meta             map[string]any
	progress         bool
	code             errorsjson.Code
}

// TestDoorsAgree runs one set of calls (success, every error code a
// client can provoke, fallback, progress, an oversized result, then a
// cancel) through the WebSocket, stdio and HTTP doors: every door lists the
// same tools and answers each call with CallTool's payload, byte for byte.
func TestDoorsAgree(t *testing.T) {
	p := &probe{started: map[string]chan struct{}{"sleep": make(chan struct{}, 1)}}
	reg := registry.New(registry.WithObserver(p))
	require.NoError(t, testtools.Register(reg))
	// A direct registry without the probe: the reference payloads.
	ref := registry.New()
	require.NoError(t, testtools.Register(ref))

	mdoor := mcpdoor.New(reg, mcpdoor.Config{})
	hs := httpFixture(t, reg, mdoor, server.Config{})
	doors := map[string]door{
		"ws":              newWSDoor(t, "ws"+strings.TrimPrefix(hs.URL, "http")+server.PathWS),
		"stdio":           &sdkDoor{cs: nil},
		"http stateless":  &sdkDoor{},
		"http 2025-11-25": &sdkDoor{},
	}
	for name, d := range doors {
		sd, ok := d.(*sdkDoor)
		if !ok {
			continue
		}
		opts := &mcp.ClientOptions{ProgressNotificationHandler: sd.onProgress}
		switch name {
		case "stdio":
			sd.cs = stdioSession(t, mdoor, opts)
		case "http stateless":
			sd.cs = httpSession(t, hs.URL, "", opts)
		default:
			sd.cs = httpSession(t, hs.URL, "2025-11-25", opts)
		}
	}

	calls := []doorCall{
		{"success", "add", `{"a": 1, "b": 2}`, nil, false, ""},
		{"unicode", "echo", `{"value": "数据\u2028\"q\"\n"}`, nil, false, ""},
		{"validation", "add", `{"a": "x"}`, nil, false, errorsjson.CodeArgumentValidation},
		{"not found", "no_such_tool", `{}`, nil, false, errorsjson.CodeNotFound},
		{"not allowed", "add", `{"a": 1, "b": 2}`, map[string]any{"toolScope": []any{"echo"}}, false, errorsjson.CodeNotAllowed},
		{"execution", "fail", `{"exception": "KeyError", "message": "no sheet", "cause": "lookup"}`, nil, false, errorsjson.CodeExecution},
		{"fatal", "fail", `{"exception": "OSError", "message": "disk gone", "fatal": true}`, nil, false, errorsjson.CodeFatal},
		{"timeout", "sleep", `{"ms": 60000}`, map[string]any{"timeoutMs": 20}, false, errorsjson.CodeTimeout},
		{"null as omitted", "add", `{"a": 1, "b": 2, "note": null}`, map[string]any{"nullAsOmitted": true}, false, ""},
		{"null refused", "add", `{"a": 1, "b": 2, "note": null}`, nil, false, errorsjson.CodeArgumentValidation},
		{"internal", "panic", `{"kind": "error"}`, nil, false, errorsjson.CodeInternal},
		{"fallback", "fallback", `{"to": "CHAT_SERVICE", "reason": "PREVIEW_MODE"}`, nil, false, ""},
		{"progress", "sleep", `{"ms": 50}`, nil, true, ""},
		{"oversized result", "big", `{"items": 2000, "text": "0123456789"}`, nil, false, ""},
	}

	wantList := listOf(reg)
	for name, d := range doors {
		t.Run(name, func(t *testing.T) {
			assert.Equal(t, wantList, d.list(t), "tools/list")
			for _, c := range calls {
				t.Run(c.name, func(t *testing.T) {
					var opts []registry.CallOption
					if c.meta != nil {
						if s, ok := c.meta["toolScope"].([]any); ok {
							opts = append(opts, registry.WithScope([]string{s[0].(string)}))
						}
						if ms, ok := c.meta["timeoutMs"].(int); ok {
							opts = append(opts, registry.WithTimeout(time.Duration(ms)*time.Millisecond))
						}
						if c.meta["nullAsOmitted"] == true {
							opts = append(opts, registry.WithNullAsOmitted())
						}
					}
					want := ref.CallTool(context.Background(), c.tool, []byte(c.args), opts...)
					require.Equal(t, c.code, want.Code, "the reference call")
					got := d.call(t, c.tool, c.args, c.meta, c.progress)
					assert.Equal(t, want.Text, got.Text, "payload text")
					assert.Equal(t, want.IsError, got.IsError, "isError")
					if c.progress {
						require.NotEmpty(t, got.Progress, "progress notifications")
						for i := 1; i < len(got.Progress); i++ {
							assert.Greater(t, got.Progress[i], got.Progress[i-1], "progress increases")
						}
					}
				})
			}
			t.Run("cancel", func(t *testing.T) {
				select { // earlier sleep calls have answered: forget their start
				case <-p.started["sleep"]:
				default:
				}
				before := p.count()
				d.cancel(t, "sleep", `{"ms": 600000}`, p.started["sleep"])
				require.Eventually(t, func() bool { return p.count() > before }, testWait, 5*time.Millisecond,
					"the cancelled call never ended: its context was not cancelled")
				assert.Equal(t, errorsjson.CodeCancelled, p.lastCode())
			})
		})
	}
}

// listOf is what every door must list: the registry's tools.
func listOf(reg *registry.Registry) map[string]listedTool {
	out := map[string]listedTool{}
	for _, t := range reg.Tools() {
		var schema any
		if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
			panic(err)
		}
		lt := listedTool{Description: t.Description, Schema: schema, Destructive: true, OpenWorld: true}
		if a := t.Annotations; a != nil {
			lt.Annotated, lt.ReadOnly, lt.Title, lt.OpenWorld = true, a.ReadOnly, a.Title, a.OpenWorld
			lt.Idempotent = a.ReadOnly || a.Idempotent
			if !a.ReadOnly {
				lt.Destructive = a.Destructive
			}
		}
		out[t.Name] = lt
	}
	return out
}

// sdkDoor is an MCP door reached with the Go SDK's client.
type sdkDoor struct {
	cs       *mcp.ClientSession
	mu       sync.Mutex
	progress []float64
}

func (d *sdkDoor) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.progress = append(d.progress, req.Params.Progress)
}

func (d *sdkDoor) list(t *testing.T) map[string]listedTool {
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	res, err := d.cs.ListTools(ctx, nil)
	require.NoError(t, err)
	out := map[string]listedTool{}
	for _, tool := range res.Tools {
		lt := listedTool{Description: tool.Description, Schema: tool.InputSchema, Destructive: true, OpenWorld: true}
		if a := tool.Annotations; a != nil {
			lt.Annotated, lt.ReadOnly, lt.Idempotent, lt.Title = true, a.ReadOnlyHint, a.IdempotentHint, a.Title
			if !a.ReadOnlyHint && a.DestructiveHint != nil {
				lt.Destructive = *a.DestructiveHint
			}
			if a.OpenWorldHint != nil {
				lt.OpenWorld = *a.OpenWorldHint
			}
		}
		out[tool.Name] = lt
	}
	return out
}

var progressTokens atomic.Int64

func (d *sdkDoor) call(t *testing.T, name, args string, meta map[string]any, progress bool) answer {
	ctx, cancel := context.WithTimeout(context.Background(), testWait)
	defer cancel()
	m := mcp.Meta{}
	for k, v := range meta {
		m[k] = v
	}
	if progress {
		m["progressToken"] = fmt.Sprint("p", progressTokens.Add(1))
	}
	d.mu.Lock()
	d.progress = nil
	d.mu.Unlock()
	res, err := d.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args), Meta: m})
	require.NoError(t, err)
	require.Len(t, res.Content, 1)
	text, ok := res.Content[0].(*mcp.TextContent)
	require.True(t, ok, "text content")
	d.mu.Lock()
	defer d.mu.Unlock()
	return answer{Text: text.Text, IsError: res.IsError, Progress: d.progress}
}

func (d *sdkDoor) cancel(t *testing.T, name, args string, started <-chan struct{}) {
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := d.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(args)})
		errc <- err
	}()
	select {
	case <-started:
	case <-time.After(testWait):
		t.Fatal("the call never started")
	}
	cancel()
	select {
	case err := <-errc:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(testWait):
		t.Fatal("the client's call did not return after cancel")
	}
}
