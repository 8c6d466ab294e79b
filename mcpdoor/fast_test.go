package mcpdoor

import (
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/testtools"
)

// The fast path must answer exactly what the SDK answers (with
// JSONResponse, on the door's own *mcp.Server, so through the same
// middleware and registry) for every request it takes, and leave every
// other request to the SDK with its body intact.

// trickyText is what the "tricky" tool returns: characters JSON encoders
// disagree on (HTML, line and paragraph separators, invalid UTF-8, control
// characters, non-ASCII).
const trickyText = "<a href=\"x\">&amp;</a>\u2028\u2029\x00\x1f\x7f\xff\xfe é 😀 \\ /"

// fastDoor is a door onto the test tools, a tool returning trickyText and
// a tool binding an argument to a header, with small limits; sdk serves
// the same *mcp.Server through the SDK's stateless JSON handler; sse
// through its stateless SSE handler.
func fastDoor(t testing.TB) (d *Door, sdk, sse http.Handler) {
	reg := registry.New()
	require.NoError(t, testtools.Register(reg))
	require.NoError(t, reg.Register(registry.Tool{
		Name: "tricky", Description: "Answer awkward text.",
		Func: func(context.Context, json.RawMessage) (any, error) { return trickyText, nil },
	}))
	require.NoError(t, reg.Register(registry.Tool{
		Name: "bound", Description: "An argument bound to a header.",
		InputSchema: json.RawMessage(`{"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}`),
		Func:        func(context.Context, json.RawMessage) (any, error) { return "bound", nil },
	}))
	d = New(reg, Config{Version: "1.2.3", MaxRequestBytes: 4096})
	require.NoError(t, reg.Register(registry.Tool{
		Name: "late", Description: "Registered after the door was built.",
		Func: func(context.Context, json.RawMessage) (any, error) { return "late", nil },
	}))
	sdk = mcp.NewStreamableHTTPHandler(d.server, &mcp.StreamableHTTPOptions{
		Stateless: true, JSONResponse: true, MaxRequestBodyBytes: 4096, PropagateRequestCancellation: true, DisableLocalhostProtection: true,
	})
	sse = mcp.NewStreamableHTTPHandler(d.server, &mcp.StreamableHTTPOptions{
		Stateless: true, MaxRequestBodyBytes: 4096, PropagateRequestCancellation: true, DisableLocalhostProtection: true,
	})
	return d, sdk, sse
}

// goClientMeta is the _meta the go-sdk client sends at 2026-07-28.
const goClientMeta = `{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"},"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`

// callBody is a tools/call of name with args (raw JSON, "" for none).
func callBody(id, name, args, meta string) string {
	b := `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"_meta":` + meta + `,"name":"` + name + `"`
	if args != "" {
		b += `,"arguments":` + args
	}
	return b + `}}`
}

// exchange is one request: body, headers beyond the defaults, and the
// addresses the server sees.
type exchange struct {
	method, body, host string
	header             map[string]string
	local              net.Addr
}

// request builds x with a 2026-07-28 client's headers (Mcp-Name from the
// body), then x.header ("" deletes).
func (x exchange) request() *http.Request {
	method := x.method
	if method == "" {
		method = http.MethodPost
	}
	r := httptest.NewRequest(method, "/mcp", strings.NewReader(x.body))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Accept", "application/json, text/event-stream")
	r.Header.Set(headerProtocolVersion, protocolStateless)
	r.Header.Set(headerMethod, gjson.Get(x.body, "method").Str)
	if n := gjson.Get(x.body, "params.name"); n.Exists() {
		r.Header.Set(headerName, n.Str)
	}
	for k, v := range x.header {
		if v == "" {
			r.Header.Del(k)
		} else {
			r.Header.Set(k, v)
		}
	}
	if x.host != "" {
		r.Host = x.host
	}
	if x.local != nil {
		r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, x.local))
	}
	return r
}

// answer is what a client sees of a response: status, headers (the date
// and framing left out) and body.
type answer struct {
	Status int
	Header http.Header
	Body   string
}

func answerOf(t testing.TB, rec *httptest.ResponseRecorder) answer {
	h := rec.Header().Clone()
	if cl := h.Get("Content-Length"); cl != "" {
		assert.Equal(t, strconv.Itoa(rec.Body.Len()), cl, "Content-Length")
	}
	h.Del("Date")
	h.Del("Content-Length")
	return answer{Status: rec.Code, Header: h, Body: rec.Body.String()}
}

func serve(t testing.TB, h http.Handler, r *http.Request) answer {
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, r)
	return answerOf(t, rec)
}

// fastCase is one exchange and whether the fast path must take it.
type fastCase struct {
	name string
	x    exchange
	fast bool
}

func fastCases() []fastCase {
	loop := &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 8766}
	call := func(id, name, args string) exchange { return exchange{body: callBody(id, name, args, goClientMeta)} }
	withMeta := func(meta string) exchange { return exchange{body: callBody("1", "add", `{"a":1,"b":2}`, meta)} }
	hdr := func(x exchange, k, v string) exchange { x.header = map[string]string{k: v}; return x }
	add := call("7", "add", `{"a":1,"b":2}`)
	return []fastCase{
		{"success", add, true},
		{"bare meta", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`), true},
		{"client title and capabilities", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"n","version":"v","title":"T"},"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":false},"sampling":{},"elicitation":{}}}`), true},
		{"python 2.x client", exchange{body: `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"mcp","version":"0.1.0"},"io.modelcontextprotocol/clientCapabilities":{}}}}`}, true},
		{"string id", call(`"req-1"`, "add", `{"a":1,"b":2}`), true},
		{"html in string id", call(`"<&>"`, "add", `{"a":1,"b":2}`), true},
		{"id zero", call("0", "add", `{"a":1,"b":2}`), true},
		{"long id", call("123456789012345", "add", `{"a":1,"b":2}`), true},
		{"no arguments", call("1", "slow", ""), false}, // slow waits: see below
		{"no arguments (error)", call("1", "echo", ""), true},
		{"empty arguments", call("1", "tricky", `{}`), true},
		{"tricky text", call("1", "tricky", `{}`), true},
		{"echoed html and unicode", call("1", "echo", `{"value":"<b>&\u2028é😀\ud800"}`), true},
		{"error payload", call("1", "fail", `{"exception":"KeyError","message":"no <sheet>"}`), true},
		{"invalid arguments", call("1", "add", `{"a":"x","b":2}`), true},
		{"unknown tool", call("1", "nope", `{}`), true},
		{"env error", call("1", "env_error", `{"kind":"permission"}`), true},
		{"panic", call("1", "panic", `{"kind":"string"}`), true},
		{"big", call("1", "big", `{"items":30,"text":"<x>"}`), true},
		{"whitespace", exchange{body: " {\n\"jsonrpc\" : \"2.0\" ,\t\"id\":1, \"method\":\"tools/call\", \"params\": { \"name\" : \"add\", \"arguments\" : { \"a\" : 1 , \"b\" : 2 } , \"_meta\" : " + goClientMeta + " } } \n"}, true},
		{"scope allows", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"toolScope":["add"]}`), true},
		{"scope refuses", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"toolScope":["echo"]}`), true},
		{"timeout", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"timeoutMs":5000.5}`), true},
		{"bad timeout", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"timeoutMs":-1}`), false},
		{"zero timeout", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"timeoutMs":0}`), false},
		{"bad scope", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"toolScope":"add"}`), false},
		{"progress", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"progressToken":1}`), false},
		{"log level", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/logLevel":"debug"}`), false},
		{"no capabilities", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}`), false},
		{"bad capabilities", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":"yes"}}}`), false},
		{"bad client info", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":1}}`), false},
		{"old version in meta", withMeta(`{"io.modelcontextprotocol/protocolVersion":"2025-11-25","io.modelcontextprotocol/clientCapabilities":{}}`), false},
		{"no meta", exchange{body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2}}}`}, false},
		{"null id", call("null", "add", `{"a":1,"b":2}`), false},
		{"fraction id", call("1.5", "add", `{"a":1,"b":2}`), false},
		{"negative id", call("-1", "add", `{"a":1,"b":2}`), false},
		{"exponent id", call("1e3", "add", `{"a":1,"b":2}`), false},
		{"non-ASCII id", call(`"é"`, "add", `{"a":1,"b":2}`), false},
		{"escaped id", call(`"a\nb"`, "add", `{"a":1,"b":2}`), false},
		{"null arguments", call("1", "add", "null"), false},
		{"array arguments", call("1", "add", "[1]"), false},
		{"notification", exchange{body: `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":` + goClientMeta + `}}`}, false},
		{"batch", exchange{body: "[" + callBody("1", "add", `{"a":1,"b":2}`, goClientMeta) + "]"}, false},
		{"duplicate key", exchange{body: `{"jsonrpc":"2.0","id":1,"id":2,"method":"tools/call","params":{"name":"add","arguments":{"a":1,"b":2},"_meta":` + goClientMeta + `}}`}, false},
		{"escaped key", exchange{body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"n\u0061me":"add","arguments":{"a":1,"b":2},"_meta":` + goClientMeta + `}}`}, false},
		{"extra member", exchange{body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","task":{},"arguments":{"a":1,"b":2},"_meta":` + goClientMeta + `}}`}, false},
		{"wrong jsonrpc", exchange{body: strings.Replace(add.body, `"2.0"`, `"1.0"`, 1)}, false},
		{"invalid JSON", exchange{body: add.body[:len(add.body)-1]}, false},
		{"trailing garbage", exchange{body: add.body + "x"}, false},
		{"other method", exchange{body: `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":` + goClientMeta + `}}`}, false},
		{"name header mismatch", hdr(add, headerName, "echo"), false},
		{"no name header", hdr(add, headerName, ""), false},
		{"no method header", hdr(add, headerMethod, ""), false},
		{"session header", hdr(add, headerSessionID, "abc"), false},
		{"text content type", hdr(add, "Content-Type", "text/plain"), false},
		{"content type with charset", hdr(add, "Content-Type", "application/json; charset=utf-8"), true},
		{"accept wildcard", hdr(add, "Accept", "*/*"), false},
		{"accept JSON only", hdr(add, "Accept", "application/json"), false},
		{"accept with parameters", hdr(add, "Accept", "application/json;q=0.9, TEXT/EVENT-STREAM"), true},
		{"tool registered after New", call("1", "late", `{}`), false},
		{"bound tool", exchange{body: callBody("1", "bound", `{"region":"eu"}`, goClientMeta), header: map[string]string{"Mcp-Param-Region": "eu"}}, false},
		// Host and Origin are the server's RequestPolicy's, applied before
		// the door: the door (fast path and SDK alike) serves any Host.
		{"loopback host", exchange{body: add.body, host: "localhost:8766", local: loop}, true},
		{"foreign host on loopback", exchange{body: add.body, host: "evil.example:8766", local: loop}, true},
		{"host without port on loopback", exchange{body: add.body, host: "127.0.0.1", local: loop}, true},
		{"too long", call("1", "echo", `{"value":"`+strings.Repeat("x", 5000)+`"}`), false},
		{"GET", exchange{method: http.MethodGet}, false},
	}
}

func TestFastPathMatchesSDK(t *testing.T) {
	d, sdk, sse := fastDoor(t)
	for _, c := range fastCases() {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "no arguments" {
				t.Skip("slow waits for its default; covered by the arguments-less echo")
			}
			want := serve(t, sdk, c.x.request())
			// The fast path alone: takes the request or leaves it whole.
			r := c.x.request()
			body, ok := readBody(r, d.cfg.MaxRequestBytes)
			rec := httptest.NewRecorder()
			took := ok && d.serveFast(rec, r, body)
			require.Equal(t, c.fast, took, "fast path taken")
			if took {
				assert.Equal(t, want, answerOf(t, rec))
				assert.Equal(t, "application/json", rec.Header().Get("Content-Type"))
			} else {
				left := new(bytes.Buffer)
				_, _ = left.ReadFrom(r.Body)
				assert.Equal(t, c.x.body, left.String(), "body left for the SDK")
			}
			// The whole door: what the SDK answers, as JSON unless the
			// answer streams.
			if c.x.method == "" && streams([]byte(c.x.body)) {
				want = serve(t, sse, c.x.request())
			}
			assert.Equal(t, want, serve(t, d, c.x.request()))
		})
	}
}

// TestFastPathDraining: once Shutdown began the SDK path answers (its
// refusal), not the fast path.
func TestFastPathDraining(t *testing.T) {
	d, sdk, _ := fastDoor(t)
	require.NoError(t, d.Shutdown(context.Background()))
	x := exchange{body: callBody("1", "add", `{"a":1,"b":2}`, goClientMeta)}
	r := x.request()
	body, _ := readBody(r, d.cfg.MaxRequestBytes)
	assert.False(t, d.serveFast(httptest.NewRecorder(), r, body))
	got := serve(t, d, x.request())
	assert.Equal(t, serve(t, sdk, x.request()), got)
	assert.Contains(t, got.Body, `"code":-32000`)
}

// TestFastPathShuttingDownAnswer: a call refused by runCall on the fast
// path is answered as the SDK answers its handler's refusal.
func TestFastPathShuttingDownAnswer(t *testing.T) {
	d, sdk, _ := fastDoor(t)
	require.NoError(t, d.Shutdown(context.Background()))
	x := exchange{body: callBody(`"s"`, "add", `{"a":1,"b":2}`, goClientMeta)}
	assert.Equal(t, serve(t, sdk, x.request()).Body, string(errorAnswer([]byte(`"s"`), errShuttingDown)))
	assert.Nil(t, errorAnswer([]byte("1"), context.Canceled))
}

// FuzzFastPath: for any body, with the headers a client would send for
// it, the fast path either leaves the request to the SDK, body intact, or
// answers exactly what the SDK answers.
func FuzzFastPath(f *testing.F) {
	for _, c := range fastCases() {
		if c.x.body != "" && len(c.x.header) == 0 && c.x.local == nil && c.name != "no arguments" {
			f.Add(c.x.body)
		}
	}
	d, sdk, _ := fastDoor(f)
	f.Fuzz(func(t *testing.T, body string) {
		if n := gjson.Get(body, "params.name").Str; n == "slow" || n == "sleep" {
			t.Skip("tools that wait")
		}
		x := exchange{body: body}
		r := x.request()
		got, ok := readBody(r, d.cfg.MaxRequestBytes)
		rec := httptest.NewRecorder()
		if !ok || !d.serveFast(rec, r, got) {
			left := new(bytes.Buffer)
			_, _ = left.ReadFrom(r.Body)
			require.Equal(t, body, left.String(), "body left for the SDK")
			return
		}
		require.Equal(t, serve(t, sdk, x.request()), answerOf(t, rec))
	})
}

// TestReadBody: readBody takes bodies of known or unknown length up to the
// bound and always leaves the whole body for the SDK.
func TestReadBody(t *testing.T) {
	const maxBody = 16
	for _, c := range []struct {
		name   string
		body   string
		length int64 // Content-Length; -1 unknown
		ok     bool
	}{
		{"known", "0123456789", 10, true},
		{"unknown", "0123456789", -1, true},
		{"at the bound", strings.Repeat("x", maxBody), maxBody, true},
		{"too long", strings.Repeat("x", maxBody+1), maxBody + 1, false},
		{"too long, unknown", strings.Repeat("x", maxBody+5), -1, false},
		{"shorter than claimed", "0123", 10, false},
		{"empty", "", 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(c.body))
			r.ContentLength = c.length
			body, ok := readBody(r, maxBody)
			assert.Equal(t, c.ok, ok)
			if ok {
				assert.Equal(t, c.body, string(body))
			}
			left := new(bytes.Buffer)
			_, err := left.ReadFrom(r.Body)
			require.NoError(t, err)
			assert.Equal(t, c.body, left.String(), "body left for the SDK")
		})
	}
}
