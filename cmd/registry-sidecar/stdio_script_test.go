package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// sidecarBin is the binary under test: $REGISTRY_SIDECAR_BIN when set,
// else this command as the package's tests build it (buildBinary).
func sidecarBin(t *testing.T) string {
	t.Helper()
	if bin := os.Getenv("REGISTRY_SIDECAR_BIN"); bin != "" {
		return bin
	}
	return buildBinary(t)
}

// Lines of the scripts piped into `registry-sidecar mcp`.
const (
	scriptInit      = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`
	scriptInitOld   = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"printf","version":"1"}}}`
	scriptInited    = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
	scriptWrite     = `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"write_cells","arguments":{"file_path":"piped.xlsx","cell":"A1","value":42}}}`
	scriptPing      = `{"jsonrpc":"2.0","id":3,"method":"ping"}`
	scriptSleep     = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":300}}}`
	scriptSleepLong = `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sleep","arguments":{"ms":20000}}}`
)

// TestMCPStdioScripts pipes whole scripts into the real binary, stdin
// closing right after the last line (as `printf '...' | registry-sidecar
// mcp` does): malformed lines are answered and the session goes on, and the
// calls already received run and answer before the process exits 0.
func TestMCPStdioScripts(t *testing.T) {
	bin := sidecarBin(t)
	cases := []struct {
		name  string
		lines []string
		grace string
		// answers by id (raw JSON id, "null" for the malformed lines, in
		// order): the gjson path checked and its wanted value.
		want []answerCheck
		// file the script writes, if any
		file string
		// maxTime bounds the run (the grace case must not wait for the call)
		maxTime time.Duration
		logged  string
	}{
		{
			name:  "write at EOF",
			lines: []string{scriptInit, scriptInited, scriptWrite},
			want: []answerCheck{
				{"1", "result.serverInfo.name", "registry-sidecar"},
				{"2", "result.content.0.text", `{"status": "success", "file": "piped.xlsx", "sheet": "Sheet1", "cell": "A1", "value_written": 42, "cells_written": 1, "created": true}`},
			},
			file: "piped.xlsx",
		},
		{
			name:  "a slow call at EOF",
			lines: []string{scriptInit, scriptInited, scriptSleep},
			want:  []answerCheck{{"1", "result.protocolVersion", "2025-11-25"}, {"4", "result.content.0.text", `{"status": "success", "slept_ms": 300}`}},
		},
		{
			name:  "malformed lines",
			lines: []string{scriptInit, "not json", "{}", scriptInited, scriptPing, `{"jsonrpc":"2.0","id":7,"method":7}`, `{"jsonrpc":"2.0","id":[1],"method":"ping"}`, "\xff\xfe", "[]", scriptWrite},
			want: []answerCheck{
				{"null", "error.code", "-32700"},
				{"null", "error.code", "-32600"},
				{"null", "error.code", "-32600"},
				{"null", "error.code", "-32700"},
				{"null", "error.code", "-32600"},
				{"1", "result.protocolVersion", "2025-11-25"},
				{"3", "result", "{}"},
				{"7", "error.message", "Invalid Request: method must be a string"},
				{"2", "result.content.0.text", `{"status": "success", "file": "piped.xlsx", "sheet": "Sheet1", "cell": "A1", "value_written": 42, "cells_written": 1, "created": true}`},
			},
			file:   "piped.xlsx",
			logged: "stdio: malformed message answered",
		},
		{
			name:  "batch after the protocol dropped batches",
			lines: []string{scriptInit, scriptInited, "[" + scriptPing + "]", scriptWrite},
			want: []answerCheck{
				{"1", "result.protocolVersion", "2025-11-25"},
				{"null", "error.message", "Invalid Request: batches are not supported in protocol 2025-11-25"},
				{"2", "result.content.0.text", `{"status": "success", "file": "piped.xlsx", "sheet": "Sheet1", "cell": "A1", "value_written": 42, "cells_written": 1, "created": true}`},
			},
			file: "piped.xlsx",
		},
		{
			name:  "batch with a malformed element, protocol 2025-03-26",
			lines: []string{scriptInitOld, scriptInited, "[" + scriptPing + `,{"id":9}]`},
			want: []answerCheck{
				{"1", "result.protocolVersion", "2025-03-26"},
				{"9", "0.error.code", "-32600"},
				{"3", "0.result", "{}"},
			},
		},
		{
			name:    "grace bounds the wait at EOF",
			lines:   []string{scriptInit, scriptInited, scriptSleepLong},
			grace:   "300ms",
			want:    []answerCheck{{"1", "result.protocolVersion", "2025-11-25"}},
			maxTime: 10 * time.Second,
			logged:  "grace period expired",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ws := t.TempDir()
			args := []string{"mcp", "--workspace", ws, "--test-tools"}
			if c.grace != "" {
				args = append(args, "--grace", c.grace)
			}
			cmd := exec.Command(bin, args...)
			cmd.Stdin = strings.NewReader(strings.Join(c.lines, "\n") + "\n")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			start := time.Now()
			require.NoError(t, cmd.Run(), "stderr: %s", stderr.String())
			if c.maxTime > 0 {
				assert.Less(t, time.Since(start), c.maxTime)
			}
			answers := byID(t, stdout.String())
			for _, w := range c.want {
				list := answers[w.id]
				require.NotEmpty(t, list, "no answer with id %s; stdout:\n%s", w.id, stdout.String())
				got := gjson.Get(list[0], w.path)
				assert.Equal(t, w.value, got.String(), "id %s %s in %s", w.id, w.path, list[0])
				answers[w.id] = list[1:]
			}
			for id, rest := range answers {
				assert.Empty(t, rest, "unexpected answers with id %s", id)
			}
			if c.file != "" {
				assert.FileExists(t, filepath.Join(ws, c.file))
			}
			if c.logged != "" {
				assert.Contains(t, stderr.String(), c.logged)
			}
		})
	}
}

// answerCheck is one answer a script expects.
type answerCheck struct{ id, path, value string }

// byID groups the lines of stdout (each a JSON-RPC message, or an array
// of them) by the raw id of their first element, in order.
func byID(t *testing.T, stdout string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		if line == "" {
			continue
		}
		require.True(t, gjson.Valid(line), "stdout carries only JSON: %q", line)
		msg := gjson.Parse(line)
		first := msg
		if msg.IsArray() {
			first = msg.Get("0")
		}
		require.Equal(t, "2.0", first.Get("jsonrpc").Str, line)
		out[first.Get("id").Raw] = append(out[first.Get("id").Raw], line)
	}
	return out
}
