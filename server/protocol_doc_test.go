package server_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/server"
)

// docExchange is one request quoted in docs/PROTOCOL.md ("> ...") followed
// by exactly one quoted answer ("< ...").
type docExchange struct{ request, answer string }

// docExchanges reads the single request/answer pairs of the protocol doc;
// blocks with several answers or none (progress, cancellation) are left
// to TestProgress and TestCancellation.
func docExchanges(t *testing.T, doc string) []docExchange {
	t.Helper()
	var out []docExchange
	var req string
	var answers []string
	flush := func() {
		if req != "" && len(answers) == 1 {
			out = append(out, docExchange{req, answers[0]})
		}
		req, answers = "", nil
	}
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case strings.HasPrefix(line, "> "):
			flush()
			req = strings.TrimPrefix(line, "> ")
		case strings.HasPrefix(line, "< "):
			answers = append(answers, strings.TrimPrefix(line, "< "))
		default:
			flush()
		}
	}
	return out
}

// TestProtocolDocExamples: every single request/answer pair quoted in
// docs/PROTOCOL.md is what the server really answers, byte for byte.
func TestProtocolDocExamples(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "PROTOCOL.md"))
	require.NoError(t, err)
	exchanges := docExchanges(t, string(raw))
	require.GreaterOrEqual(t, len(exchanges), 10, "the doc quotes fewer exchanges than expected")
	version := ""
	for _, ex := range exchanges {
		if v := gjson.Get(ex.answer, "result.serverInfo.version"); v.Exists() {
			version = v.String() // the doc quotes the binary's release
		}
	}
	f := startServer(t, server.Config{Version: version})
	c := f.dial(t)
	methods := map[string]bool{}
	for _, ex := range exchanges {
		t.Run(gjson.Get(ex.request, "method").String(), func(t *testing.T) {
			c.t = t
			methods[gjson.Get(ex.request, "method").String()] = true
			assert.Equal(t, ex.answer, c.roundTrip(ex.request).Raw, "request %s", ex.request)
		})
	}
	for _, m := range []string{server.MethodInitialize, server.MethodPing, server.MethodToolsList, server.MethodToolsCall} {
		assert.True(t, methods[m], "docs/PROTOCOL.md has no checked example of %s", m)
	}
}

// TestProtocolDocInFlightIDExample replays the doc's block of an id reused
// while its call is in flight: both requests, then both answers in order,
// byte for byte.
func TestProtocolDocInFlightIDExample(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("..", "docs", "PROTOCOL.md"))
	require.NoError(t, err)
	doc := string(raw)
	at := strings.Index(doc, "An id may not be reused while its call is in flight")
	require.GreaterOrEqual(t, at, 0, "docs/PROTOCOL.md lost its id-reuse rule")
	start := strings.Index(doc[at:], "```\n")
	require.GreaterOrEqual(t, start, 0)
	block := doc[at+start+4:]
	block = block[:strings.Index(block, "```")]
	var requests, answers []string
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		switch {
		case strings.HasPrefix(line, "> "):
			requests = append(requests, strings.TrimPrefix(line, "> "))
		case strings.HasPrefix(line, "< "):
			answers = append(answers, strings.TrimPrefix(line, "< "))
		}
	}
	require.Len(t, requests, 2)
	require.Len(t, answers, 2)
	f := startServer(t, server.Config{})
	c := f.dial(t)
	for _, r := range requests {
		c.send(r)
	}
	for _, want := range answers {
		assert.Equal(t, want, c.next().Raw)
	}
}
