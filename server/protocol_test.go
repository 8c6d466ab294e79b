package server_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/server"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

var update = flag.Bool("update", false, "rewrite testdata/protocol.golden")

// exchanges are one request frame and its one answer each; the answers are
// pinned in testdata/protocol.golden and docs/PROTOCOL.md quotes them.
var exchanges = []struct {
	name, request string
	// check is the JSON path that must hold want in the answer.
	path, want string
}{
	{"initialize", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "result.capabilities.tools", "{}"},
	{"initialize older version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26"}}`, "result.protocolVersion", "2025-03-26"},
	{"initialize unknown version", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"1999-01-01"}}`, "result.protocolVersion", server.ProtocolVersion},
	{"ping", `{"jsonrpc":"2.0","id":"p","method":"ping"}`, "result", "{}"},
	{"tools/list", `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`, "result.tools.#", "9"},
	{"tools/list toolScope", `{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"toolScope":["add"]}}}`, "result.tools.0.name", "add"},
	{"call success", callFrame(3, "add", `{"a":1,"b":2}`, ""), "result.isError", "false"},
	{"call unicode", callFrame(3, "echo", `{"value":"数据\u2028\"q\"\n"}`, ""), "result.isError", "false"},
	{"call validation error", callFrame(4, "add", `{"a":"x"}`, ""), "result.isError", "true"},
	{"call not found", callFrame(5, "nope", `{}`, ""), "result.isError", "true"},
	{"call not allowed", callFrame(6, "add", `{"a":1,"b":2}`, `{"toolScope":["echo"]}`), "result.isError", "true"},
	{"call execution error", callFrame(7, "fail", `{"exception":"KeyError","message":"no sheet","cause":"lookup"}`, ""), "result.isError", "true"},
	{"call fatal error", callFrame(8, "fail", `{"exception":"OSError","message":"disk gone","fatal":true}`, ""), "result.isError", "true"},
	{"call timeout", callFrame(9, "sleep", `{"ms":5000}`, `{"timeoutMs":20}`), "result.isError", "true"},
	{"call panic string", callFrame(10, "panic", `{"kind":"string"}`, ""), "result.isError", "true"},
	{"call panic nil", callFrame(10, "panic", `{"kind":"nil"}`, ""), "result.isError", "true"},
	{"call fallback", callFrame(11, "fallback", `{"to":"CHAT_SERVICE","reason":"PREVIEW_MODE"}`, ""), "result.isError", "false"},
	{"call env not_found", callFrame(12, "env_error", `{"kind":"not_found"}`, ""), "result.isError", "true"},
	{"call env value", callFrame(12, "env_error", `{"kind":"value"}`, ""), "result.isError", "true"},
	{"call no arguments", `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"add"}}`, "result.isError", "true"},
	{"unknown method", `{"jsonrpc":"2.0","id":14,"method":"resources/list"}`, "error.code", "-32601"},
	{"malformed JSON", `{"jsonrpc":"2.0","id":15,"method":`, "error.code", "-32700"},
	{"not an object", `42`, "error.code", "-32600"},
	{"batch", `[{"jsonrpc":"2.0","id":16,"method":"ping"}]`, "error.code", "-32600"},
	{"missing jsonrpc", `{"id":17,"method":"ping"}`, "error.code", "-32600"},
	{"id is an object", `{"jsonrpc":"2.0","id":{},"method":"ping"}`, "error.code", "-32600"},
	{"method not a string", `{"jsonrpc":"2.0","id":18,"method":7}`, "error.code", "-32600"},
	{"params not an object", `{"jsonrpc":"2.0","id":19,"method":"tools/call","params":["add"]}`, "error.code", "-32602"},
	{"call without name", `{"jsonrpc":"2.0","id":20,"method":"tools/call","params":{"arguments":{}}}`, "error.code", "-32602"},
	{"toolScope not a list", callFrame(21, "add", `{}`, `{"toolScope":"add"}`), "error.code", "-32602"},
	{"timeoutMs not positive", callFrame(22, "add", `{}`, `{"timeoutMs":-1}`), "error.code", "-32602"},
	{"nullAsOmitted", callFrame(29, "add", `{"a":1,"b":2,"note":null}`, `{"nullAsOmitted":true}`), "result.isError", "false"},
	{"nullAsOmitted not a boolean", callFrame(30, "add", `{"a":1,"b":2}`, `{"nullAsOmitted":1}`), "error.code", "-32602"},
	// Last, as they change the connection's message profile.
	{"initialize unknown message profile", `{"jsonrpc":"2.0","id":23,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"registrySidecar":{"messageProfile":"fr"}}}}}`, "error.code", "-32602"},
	{"initialize message profile en", `{"jsonrpc":"2.0","id":24,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"registrySidecar":{"messageProfile":"en"}}}}}`, "result.capabilities.experimental.registrySidecar.messageProfile", "en"},
	{"call validation error en", callFrame(25, "add", `{"a":"x"}`, ""), "result.isError", "true"},
	{"call not found en", callFrame(26, "nope", `{}`, ""), "result.isError", "true"},
	{"initialize message profile excelmanus", `{"jsonrpc":"2.0","id":27,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"experimental":{"registrySidecar":{"messageProfile":"excelmanus"}}}}}`, "result.capabilities.experimental.registrySidecar.messageProfile", "excelmanus"},
	{"call not found excelmanus", callFrame(28, "nope", `{}`, ""), "result.isError", "true"},
}

// TestProtocolExchanges checks every method and error path over a real
// connection against the golden answers; the connection outlives every
// error.
func TestProtocolExchanges(t *testing.T) {
	f := startServer(t, server.Config{Version: "test"})
	c := f.dial(t)
	var golden strings.Builder
	for _, ex := range exchanges {
		t.Run(ex.name, func(t *testing.T) {
			c.t = t
			got := c.roundTrip(ex.request)
			assert.Equal(t, "2.0", got.Get("jsonrpc").String())
			assert.Equal(t, ex.want, got.Get(ex.path).String(), "answer %s", got.Raw)
			golden.WriteString("== " + ex.name + "\n> " + ex.request + "\n< " + got.Raw + "\n\n")
		})
	}
	path := filepath.Join("testdata", "protocol.golden")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(golden.String()), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./server -run TestProtocolExchanges -update")
	assert.Equal(t, string(want), golden.String())
}

// TestCallTextIsRegistryText: the text content is byte for byte what
// registry.CallTool returns, and isError is Result.IsError.
func TestCallTextIsRegistryText(t *testing.T) {
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	f := startServer(t, server.Config{})
	c := f.dial(t)
	cases := []struct{ name, args string }{
		{"add", `{"a":-7,"b":9007199254740993}`},
		{"echo", `{"value":{"z":1,"a":[1.0,1e-05,"é\u0000"]}}`},
		{"add", `{"a":1,"b":2,"extra":true}`},
		{"fail", `{"exception":"ValueError","message":"bad","cause":"bad"}`},
		{"env_error", `{"kind":"permission"}`},
		{"big", `{"items":500,"text":"0123456789"}`},
		{"missing", `{}`},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.t = t
			want := reg.CallTool(context.Background(), tc.name, []byte(tc.args))
			got := c.roundTrip(callFrame(i, tc.name, tc.args, ""))
			require.Equal(t, int64(i), got.Get("id").Int())
			assert.Equal(t, want.Text, got.Get("result.content.0.text").String())
			assert.Equal(t, "text", got.Get("result.content.0.type").String())
			assert.Equal(t, want.IsError, got.Get("result.isError").Bool())
		})
	}
}

// TestNotificationsAreNotAnswered: notifications (known, unknown) and
// stray responses get no answer; the next request's answer comes first.
func TestNotificationsAreNotAnswered(t *testing.T) {
	f := startServer(t, server.Config{})
	c := f.dial(t)
	for _, frame := range []string{
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","method":"notifications/unknown","params":{"x":1}}`,
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":999}}`,
		`{"jsonrpc":"2.0","id":5,"result":{}}`,
	} {
		c.send(frame)
	}
	got := c.roundTrip(`{"jsonrpc":"2.0","id":"after","method":"ping"}`)
	assert.Equal(t, `"after"`, got.Get("id").Raw)
}

// TestDuplicateInFlightID: a second request reusing an in-flight id is an
// invalid request; the first still completes.
func TestDuplicateInFlightID(t *testing.T) {
	f := startServer(t, server.Config{})
	c := f.dial(t)
	c.send(callFrame(1, "sleep", `{"ms":300}`, ""))
	dup := c.roundTrip(callFrame(1, "add", `{"a":1,"b":1}`, ""))
	assert.Equal(t, int64(-32600), dup.Get("error.code").Int())
	first := c.next()
	assert.Equal(t, `{"status": "success", "slept_ms": 300}`, first.Get("result.content.0.text").String())
}

// TestInFlightIDReusedByAnyMethod: docs/PROTOCOL.md §2 says an id may not
// be reused while its call is in flight, whatever the new request's method:
// ping, tools/list, initialize and unknown methods reusing it get -32600
// with that id, the call still completes, and the id is free again once
// its answer arrived.
func TestInFlightIDReusedByAnyMethod(t *testing.T) {
	f := startServer(t, server.Config{})
	c := f.dial(t)
	c.send(callFrame(7, "sleep", `{"ms":300}`, ""))
	for _, frame := range []string{
		`{"jsonrpc":"2.0","id":7,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":7,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
		`{"jsonrpc":"2.0","id":7,"method":"no/such/method"}`,
	} {
		got := c.roundTrip(frame)
		assert.Equal(t, "7", got.Get("id").Raw, frame)
		assert.Equal(t, int64(-32600), got.Get("error.code").Int(), frame)
		assert.Equal(t, "Invalid Request: a request with this id is already in flight", got.Get("error.message").String(), frame)
	}
	other := c.roundTrip(`{"jsonrpc":"2.0","id":"7","method":"ping"}`)
	assert.JSONEq(t, `{}`, other.Get("result").Raw, "the string id \"7\" is another id than the number 7")
	first := c.next()
	assert.Equal(t, "7", first.Get("id").Raw)
	assert.Equal(t, `{"status": "success", "slept_ms": 300}`, first.Get("result.content.0.text").String())
	again := c.roundTrip(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	assert.JSONEq(t, `{}`, again.Get("result").Raw, "the id is free once its answer arrived")
}
