package mcpdoor_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/server"
)

// wsDoor is the WebSocket door reached with a raw JSON-RPC client.
type wsDoor struct {
	ws     *websocket.Conn
	nextID atomic.Int64
	mu     sync.Mutex
	wait   map[string]chan gjson.Result // by id
	notes  map[string][]float64         // progress by token
}

func newWSDoor(t *testing.T, url string) *wsDoor {
	ws, resp, err := websocket.DefaultDialer.Dial(url, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	d := &wsDoor{ws: ws, wait: map[string]chan gjson.Result{}, notes: map[string][]float64{}}
	go d.read()
	t.Cleanup(func() { _ = ws.Close() })
	return d
}

func (d *wsDoor) read() {
	for {
		_, data, err := d.ws.ReadMessage()
		if err != nil {
			return
		}
		msg := gjson.ParseBytes(data)
		d.mu.Lock()
		if msg.Get("method").Str == server.MethodProgress {
			tok := msg.Get("params.progressToken").String()
			d.notes[tok] = append(d.notes[tok], msg.Get("params.progress").Num)
		} else if ch, ok := d.wait[msg.Get("id").Raw]; ok {
			ch <- msg
		}
		d.mu.Unlock()
	}
}

// send sends method(params) and returns the channel of its answer.
func (d *wsDoor) send(t *testing.T, method string, params any) (string, chan gjson.Result) {
	id := fmt.Sprint(d.nextID.Add(1))
	ch := make(chan gjson.Result, 1)
	d.mu.Lock()
	d.wait[id] = ch
	d.mu.Unlock()
	frame, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": method, "params": params})
	require.NoError(t, err)
	d.mu.Lock()
	err = d.ws.WriteMessage(websocket.TextMessage, frame)
	d.mu.Unlock()
	require.NoError(t, err)
	return id, ch
}

func (d *wsDoor) roundTrip(t *testing.T, method string, params any) gjson.Result {
	_, ch := d.send(t, method, params)
	select {
	case msg := <-ch:
		require.False(t, msg.Get("error").Exists(), "error: %s", msg.Raw)
		return msg.Get("result")
	case <-time.After(testWait):
		t.Fatalf("no answer to %s", method)
		return gjson.Result{}
	}
}

func (d *wsDoor) list(t *testing.T) map[string]listedTool {
	res := d.roundTrip(t, server.MethodToolsList, map[string]any{})
	out := map[string]listedTool{}
	for _, tool := range res.Get("tools").Array() {
		var schema any
		require.NoError(t, json.Unmarshal([]byte(tool.Get("inputSchema").Raw), &schema))
		lt := listedTool{Description: tool.Get("description").Str, Schema: schema, Destructive: true, OpenWorld: true}
		if a := tool.Get("annotations"); a.Exists() {
			lt.Annotated, lt.ReadOnly, lt.Title = true, a.Get("readOnlyHint").Bool(), a.Get("title").Str
			lt.Idempotent = a.Get("idempotentHint").Bool()
			if h := a.Get("destructiveHint"); !lt.ReadOnly && h.Exists() {
				lt.Destructive = h.Bool()
			}
			if h := a.Get("openWorldHint"); h.Exists() {
				lt.OpenWorld = h.Bool()
			}
		}
		out[tool.Get("name").Str] = lt
	}
	return out
}

func (d *wsDoor) call(t *testing.T, name, args string, meta map[string]any, progress bool) answer {
	m := map[string]any{}
	for k, v := range meta {
		m[k] = v
	}
	tok := fmt.Sprint("w", progressTokens.Add(1))
	if progress {
		m["progressToken"] = tok
	}
	res := d.roundTrip(t, server.MethodToolsCall, map[string]any{"name": name, "arguments": json.RawMessage(args), "_meta": m})
	content := res.Get("content").Array()
	require.Len(t, content, 1)
	d.mu.Lock()
	defer d.mu.Unlock()
	return answer{Text: content[0].Get("text").Str, IsError: res.Get("isError").Bool(), Progress: d.notes[tok]}
}

func (d *wsDoor) cancel(t *testing.T, name, args string, started <-chan struct{}) {
	id, _ := d.send(t, server.MethodToolsCall, map[string]any{"name": name, "arguments": json.RawMessage(args)})
	select {
	case <-started:
	case <-time.After(testWait):
		t.Fatal("the call never started")
	}
	frame := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s}}`, id)
	d.mu.Lock()
	defer d.mu.Unlock()
	require.NoError(t, d.ws.WriteMessage(websocket.TextMessage, []byte(frame)))
}
