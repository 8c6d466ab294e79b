package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// testWait bounds every wait in these tests.
const testWait = 15 * time.Second

var handshakeRE = regexp.MustCompile(`^REGISTRY-SIDECAR\|1\|(ws://127\.0\.0\.1:\d+/ws)$`)

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var out bytes.Buffer
			require.NoError(t, run(context.Background(), args, &out, io.Discard))
			assert.Equal(t, "registry-sidecar "+version+" protocol 1\n", out.String())
		})
	}
}

// TestCall: `call` prints Result.Text and exits 0 for success and
// fallback payloads, 3 for error payloads, 2 for usage errors.
func TestCall(t *testing.T) {
	ws := filepath.Join(t.TempDir(), "new", "ws")
	for _, tc := range []struct {
		name string
		args []string
		code int
		text string
	}{
		{"success", []string{"add", `{"a":1,"b":2}`}, exitOK, `{"status": "success", "sum": 3}`},
		{"fallback", []string{"fallback", `{"to":"TOOL_ROUTER"}`}, exitOK, `{"status": "fallback", "error": "FALLBACK_REQUIRED", "tool": "fallback", "use_fallback": true, "fallback_to": "TOOL_ROUTER", "reason": ""}`},
		{"error payload", []string{"fail", `{"exception":"KeyError","message":"k"}`}, exitToolError, `{"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "fail", "exception": "KeyError", "message": "k"}`},
		{"validation", []string{"add", `{}`}, exitToolError, ""},
		{"unknown tool", []string{"nope"}, exitToolError, `{"status": "error", "error_code": "TOOL_NOT_FOUND", "tool": "nope", "exception": "ToolNotFoundError", "message": "工具 'nope' 未注册。"}`},
		{"message profile en", []string{"--message-profile", "en", "nope"}, exitToolError, `{"status": "error", "error_code": "TOOL_NOT_FOUND", "tool": "nope", "exception": "ToolNotFoundError", "message": "Tool 'nope' not found."}`},
		{"unknown message profile", []string{"--message-profile", "fr", "add", `{"a":1,"b":2}`}, exitUsage, ""},
		{"no tool", nil, exitUsage, ""},
		{"too many args", []string{"add", "{}", "x"}, exitUsage, ""},
		{"bad flag", []string{"--nope", "add"}, exitUsage, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			args := append([]string{"call", "--workspace", ws, "--test-tools", "--log-level", "error"}, tc.args...)
			err := run(context.Background(), args, &out, io.Discard)
			assert.Equal(t, tc.code, exitCode(err, io.Discard), "err %v", err)
			if tc.text != "" {
				assert.Equal(t, tc.text, strings.TrimSuffix(out.String(), "\n"))
			}
		})
	}
	assert.DirExists(t, ws, "the workspace is created when missing")
}

// TestCallArgsFromStdin: JSON-ARGS "-" reads the arguments from stdin, as
// the README's `echo '{...}' | registry-sidecar call TOOL -` does; "-"
// alone is never parsed as JSON, and an oversized stdin is a usage error.
func TestCallArgsFromStdin(t *testing.T) {
	ws := t.TempDir()
	for _, tc := range []struct {
		name  string
		stdin string
		code  int
		text  string
	}{
		{"object", `{"a": 40, "b": 2}` + "\n", exitOK, `{"status": "success", "sum": 42}`},
		{"empty stdin", "", exitToolError, ""},
		{"not json", "not json", exitToolError, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			args := []string{"--workspace", ws, "--test-tools", "--log-level", "error", "add", "-"}
			err := runCall(context.Background(), args, strings.NewReader(tc.stdin), &out, io.Discard)
			assert.Equal(t, tc.code, exitCode(err, io.Discard), "err %v", err)
			if tc.text != "" {
				assert.Equal(t, tc.text+"\n", out.String())
			}
			if tc.code == exitToolError {
				assert.Contains(t, out.String(), `"status": "error"`)
			}
		})
	}
	big := io.MultiReader(strings.NewReader(`{"note": "`), io.LimitReader(neverEnding('x'), maxStdinArgs))
	err := runCall(context.Background(), []string{"--workspace", ws, "--test-tools", "add", "-"}, big, io.Discard, io.Discard)
	assert.Equal(t, exitUsage, exitCode(err, io.Discard), "err %v", err)
}

// neverEnding is an endless reader of one byte.
type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	// Doubling copies: a handful of calls per buffer, where a store per byte
	// takes tens of seconds over 64 MiB under -race.
	p[0] = byte(b)
	for n := 1; n < len(p); n *= 2 {
		copy(p[n:], p[:n])
	}
	return len(p), nil
}

// TestMessageProfileEnv: $REGISTRY_SIDECAR_MESSAGE_PROFILE picks the
// profile; the flag wins over it.
func TestMessageProfileEnv(t *testing.T) {
	t.Setenv("REGISTRY_SIDECAR_MESSAGE_PROFILE", "en")
	ws := t.TempDir()
	for flag, want := range map[string]string{"": "Tool 'nope' not found.", "excelmanus": "工具 'nope' 未注册。"} {
		args := []string{"call", "--workspace", ws, "--log-level", "error"}
		if flag != "" {
			args = append(args, "--message-profile", flag)
		}
		var out bytes.Buffer
		err := run(context.Background(), append(args, "nope"), &out, io.Discard)
		assert.Equal(t, exitToolError, exitCode(err, io.Discard))
		assert.Contains(t, out.String(), `"message": "`+want+`"`, "flag %q", flag)
	}
}

// TestTools lists the tools as markdown and JSON.
func TestTools(t *testing.T) {
	var md bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"tools", "--format", "markdown", "--test-tools"}, &md, io.Discard))
	assert.Contains(t, md.String(), "## `add`\n\nAdd two integers.\n\nAccess: read-only (MCP `readOnlyHint: true`, `idempotentHint: true`, `openWorldHint: false`).\n")
	assert.Contains(t, md.String(), "Title: Delete rows. Access: may delete or overwrite data (MCP `destructiveHint: true`, `idempotentHint: false`, `openWorldHint: false`).\n", "delete_rows' declaration")
	assert.Contains(t, md.String(), "Title: Insert rows. Access: only adds (MCP `destructiveHint: false`, `idempotentHint: false`, `openWorldHint: false`).\n", "insert_rows' declaration")
	assert.Contains(t, md.String(), "Title: Format cells. Access: may delete or overwrite data; the same call again changes nothing more (MCP `destructiveHint: true`, `idempotentHint: true`, `openWorldHint: false`).\n", "format_cells' declaration")
	assert.Contains(t, md.String(), "| `note` | string | no | max length `64` |\n")
	assert.Contains(t, md.String(), "| `kind` | string | yes | one of `\"string\"`, `\"error\"`, `\"nil\"` |\n")

	var js bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"tools", "--format", "json", "--test-tools"}, &js, io.Discard))
	var list []struct {
		Name        string         `json:"name"`
		InputSchema map[string]any `json:"inputSchema"`
	}
	require.NoError(t, json.Unmarshal(js.Bytes(), &list))
	names := map[string]bool{}
	for _, tool := range list {
		names[tool.Name] = true
		assert.Equal(t, "object", tool.InputSchema["type"], tool.Name)
	}
	assert.True(t, names["echo"] && names["env_error"])

	var plain bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"tools"}, &plain, io.Discard))
	assert.NotContains(t, plain.String(), "## `echo`", "test tools are off by default")

	err := run(context.Background(), []string{"tools", "--format", "yaml"}, io.Discard, io.Discard)
	assert.Equal(t, exitUsage, exitCode(err, io.Discard))
}

// TestHelp documents every flag with its environment variable, on stdout:
// the ones the issue names, and every other flag serve defines.
func TestHelp(t *testing.T) {
	var errOut, stderr bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"--help"}, &errOut, &stderr))
	assert.Empty(t, stderr.String(), "--help writes to stdout only")
	names := []string{"listen", "mcp-listen", "workspace", "token", "token-file", "call-timeout", "max-call-timeout", "concurrency", "read-limit", "max-result-chars", "log-level", "grace", "test-tools",
		"max-file-size", "unzip-size-limit", "unzip-xml-size-limit", "max-cells", "max-read-cells", "max-write-cells", "call-memory-budget", "max-cell-text"}
	var o options
	fs := flag.NewFlagSet("x", flag.ContinueOnError)
	o.serveFlags(fs)
	fs.VisitAll(func(f *flag.Flag) { names = append(names, f.Name) })
	assert.Regexp(t, `-call-timeout duration\n\s+per-call deadline of every tool`, errOut.String(), "--call-timeout says it bounds every tool")
	for _, name := range names {
		assert.Regexp(t, `\n  -`+name+`[ \n]`, errOut.String())
		if name != "version" {
			assert.Contains(t, errOut.String(), "$"+envName(name))
		}
	}
}

// startRun runs the server through run and returns its ws:// URL and a
// stop function that returns run's error.
func startRun(t *testing.T, args ...string) (string, func() error) {
	t.Helper()
	pr, pw := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"--listen", "127.0.0.1:0", "--workspace", t.TempDir(), "--log-level", "error"}, args...), pw, io.Discard)
		_ = pw.Close()
	}()
	line := make(chan string, 1)
	go func() {
		s, _ := bufio.NewReader(pr).ReadString('\n')
		line <- s
		_, _ = io.Copy(io.Discard, pr)
	}()
	var url string
	select {
	case l := <-line:
		m := handshakeRE.FindStringSubmatch(strings.TrimSuffix(l, "\n"))
		require.NotNil(t, m, "handshake line %q", l)
		url = m[1]
	case err := <-done:
		cancel()
		t.Fatalf("run returned before the handshake: %v", err)
	case <-time.After(testWait):
		cancel()
		t.Fatal("no handshake line")
	}
	stop := func() error {
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(testWait):
			t.Fatal("run did not return after cancel")
			return nil
		}
	}
	t.Cleanup(func() { cancel() })
	return url, stop
}

// TestServe: the handshake line, every spreadsheet tool (the ones `tools`
// documents) served over a workspace created on the fly, a call over
// WebSocket, and a clean stop.
func TestServe(t *testing.T) {
	var js bytes.Buffer
	require.NoError(t, run(context.Background(), []string{"tools", "--format", "json"}, &js, io.Discard))
	var want []string
	for _, n := range gjson.Get(js.String(), "#.name").Array() {
		want = append(want, n.String())
	}
	require.Contains(t, want, "write_cells")

	workspace := filepath.Join(t.TempDir(), "missing", "workspace")
	url, stop := startRun(t, "--test-tools", "--workspace", workspace)
	assert.DirExists(t, workspace, "the workspace is created when missing")
	ws, resp, err := websocket.DefaultDialer.Dial(url, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	defer ws.Close()
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)))
	_, data, err := ws.ReadMessage()
	require.NoError(t, err)
	served := map[string]bool{}
	for _, n := range gjson.GetBytes(data, "result.tools.#.name").Array() {
		served[n.String()] = true
	}
	for _, name := range want {
		assert.True(t, served[name], "spreadsheet tool %s is not served", name)
	}

	require.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"add","arguments":{"a":20,"b":22}}}`)))
	_, data, err = ws.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, `{"status": "success", "sum": 42}`, gjson.GetBytes(data, "result.content.0.text").String())

	health, err := http.Get(strings.Replace(strings.TrimSuffix(url, "/ws"), "ws://", "http://", 1) + "/healthz")
	require.NoError(t, err)
	_ = health.Body.Close()
	assert.Equal(t, http.StatusOK, health.StatusCode)
	assert.NoError(t, stop())
}

// TestServeToken: a token from the environment or a file is required at
// upgrade.
func TestServeToken(t *testing.T) {
	file := filepath.Join(t.TempDir(), "token")
	require.NoError(t, os.WriteFile(file, []byte("from-file\n"), 0o600))
	for _, tc := range []struct {
		name, env, token string
		args             []string
	}{
		{"env", "from-env", "from-env", nil},
		{"file", "", "from-file", []string{"--token-file", file}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("REGISTRY_SIDECAR_TOKEN", tc.env)
			}
			url, stop := startRun(t, tc.args...)
			_, resp, err := websocket.DefaultDialer.Dial(url, nil)
			require.Error(t, err)
			assert.Equal(t, http.StatusUnauthorized, resp.StatusCode)
			ws, resp, err := websocket.DefaultDialer.Dial(url, http.Header{"Authorization": {"Bearer " + tc.token}})
			require.NoError(t, err)
			_ = resp.Body.Close()
			_ = ws.Close()
			assert.NoError(t, stop())
		})
	}
}

// TestServeUsageErrors: bad flags and env values, a non-loopback listen
// without a token.
func TestServeUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"non-loopback without token", []string{"--listen", "0.0.0.0:0"}, nil},
		{"token and token file", []string{"--token", "a", "--token-file", "b"}, nil},
		{"bad log level", []string{"--log-level", "loud"}, nil},
		{"bad env duration", nil, map[string]string{"REGISTRY_SIDECAR_GRACE": "soon"}},
		{"stray argument", []string{"extra"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			args := append([]string{"--workspace", t.TempDir(), "--listen", "127.0.0.1:0"}, tc.args...)
			err := run(context.Background(), args, io.Discard, io.Discard)
			assert.Equal(t, exitUsage, exitCode(err, io.Discard), "err %v", err)
		})
	}
}

func TestLoopbackAddr(t *testing.T) {
	for addr, want := range map[string]bool{
		"127.0.0.1:0": true, "localhost:80": true, "[::1]:1": true,
		"0.0.0.0:8765": false, ":8765": false, "10.0.0.2:1": false, "example.com:1": false,
	} {
		t.Run(addr, func(t *testing.T) { assert.Equal(t, want, loopbackAddr(addr)) })
	}
}

// TestHelpEverySubcommand: -h and --help of every subcommand print the
// usage on stdout, nothing on stderr, and succeed (exit 0).
func TestHelpEverySubcommand(t *testing.T) {
	for _, args := range [][]string{{"--help"}, {"-h"}, {"serve", "--help"}, {"mcp", "--help"}, {"call", "--help"}, {"tools", "-h"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), args, &stdout, &stderr)
			require.NoError(t, err)
			assert.Equal(t, exitOK, exitCode(err, &stderr))
			assert.Contains(t, stdout.String(), "Usage")
			assert.Empty(t, stderr.String())
		})
	}
}

// TestInvalidAddress: a malformed --listen or --mcp-listen is called an
// invalid address (exit 2), before any token rule is applied.
func TestInvalidAddress(t *testing.T) {
	for _, args := range [][]string{{"--listen", "nonsense"}, {"--listen", "0.0.0.0:99999"}, {"--listen", "10.0.0.1"}, {"--mcp-listen", "nonsense"}} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			err := run(context.Background(), append(args, "--workspace", t.TempDir()), io.Discard, io.Discard)
			require.Error(t, err)
			assert.Equal(t, exitUsage, exitCode(err, &stderr))
			assert.Contains(t, stderr.String(), "is not a valid address")
			assert.NotContains(t, stderr.String(), "token")
		})
	}
}
