package server

import (
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// FuzzHandle feeds arbitrary inbound frames to the JSON-RPC decoder: it
// never panics, every answer is valid JSON-RPC 2.0 text, and a request
// gets at most one answer.
func FuzzHandle(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"_meta":{"toolScope":["add"]}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":5},"_meta":{"progressToken":1,"timeoutMs":1}}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}`,
		`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
		`[{"jsonrpc":"2.0"}]`, `{"jsonrpc":"2.0","id":{},"method":1}`, `{`, `"\ud800"`, "\xff",
	} {
		f.Add([]byte(seed))
	}
	reg := registry.New(registry.WithMaxTimeout(20 * time.Millisecond))
	if err := testtools.Register(reg); err != nil {
		f.Fatal(err)
	}
	s := New(reg, Config{OutboundQueue: 64, WriteTimeout: time.Second})
	f.Fuzz(func(t *testing.T, frame []byte) {
		c := newConnState(s, "fuzz", s.log)
		c.handle(frame)
		c.calls.Wait()
		c.shutdown()
		answers := 0
		for len(c.out) > 0 {
			m := <-c.out
			if !utf8.Valid(m.data) || !gjson.ValidBytes(m.data) {
				t.Fatalf("invalid frame %q for input %q", m.data, frame)
			}
			msg := gjson.ParseBytes(m.data)
			if msg.Get("jsonrpc").String() != "2.0" {
				t.Fatalf("not JSON-RPC 2.0: %s", m.data)
			}
			if msg.Get("id").Exists() {
				answers++
				if msg.Get("result").Exists() == msg.Get("error").Exists() {
					t.Fatalf("an answer needs exactly one of result and error: %s", m.data)
				}
			}
		}
		if answers > 1 {
			t.Fatalf("%d answers to one frame %q", answers, frame)
		}
	})
}
