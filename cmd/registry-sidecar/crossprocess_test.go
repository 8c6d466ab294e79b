package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// startBinary runs the built binary over workspace and returns its ws URL.
func startBinary(t *testing.T, bin, workspace string) string {
	t.Helper()
	cmd := exec.Command(bin, "--listen", "127.0.0.1:0", "--workspace", workspace, "--log-level", "error")
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	cmd.Stderr = os.Stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err)
	m := handshakeRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	require.NotNil(t, m, "handshake %q", line)
	return m[1]
}

// TestTwoProcessesOneWorkbookLoseNoWrite runs the binary twice over one
// workspace; each process writes 60 distinct cells of one workbook, both at
// once, one call after another, each keeping the workbook in its cache
// between calls. The per-workbook file lock and the identity check before
// every replace keep all 120 writes.
func TestTwoProcessesOneWorkbookLoseNoWrite(t *testing.T) {
	bin := buildBinary(t)
	workspace := t.TempDir()
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "A1", "header"))
	require.NoError(t, f.SaveAs(filepath.Join(workspace, "shared.xlsx")))
	require.NoError(t, f.Close())

	const perProcess = 60
	urls := []string{startBinary(t, bin, workspace), startBinary(t, bin, workspace)}
	var wg sync.WaitGroup
	for p, url := range urls {
		wg.Add(1)
		go func(p int, url string) {
			defer wg.Done()
			ws, resp, err := websocket.DefaultDialer.Dial(url, nil)
			if !assert.NoError(t, err) {
				return
			}
			_ = resp.Body.Close()
			defer ws.Close()
			for i := 0; i < perProcess; i++ {
				cell := fmt.Sprintf("%c%d", 'B'+p, i+2)
				msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"write_cells","arguments":{"file_path":"shared.xlsx","cell":%q,"value":"p%d-%d"}}}`, i, cell, p, i)
				if !assert.NoError(t, ws.WriteMessage(websocket.TextMessage, []byte(msg))) {
					return
				}
				_, data, err := ws.ReadMessage()
				if !assert.NoError(t, err) {
					return
				}
				assert.False(t, gjson.GetBytes(data, "result.isError").Bool(), "%s", data)
			}
		}(p, url)
	}
	wg.Wait()

	got, err := excelize.OpenFile(filepath.Join(workspace, "shared.xlsx"))
	require.NoError(t, err)
	defer got.Close()
	kept := 0
	for p := range urls {
		for i := 0; i < perProcess; i++ {
			v, err := got.GetCellValue("Sheet1", fmt.Sprintf("%c%d", 'B'+p, i+2))
			require.NoError(t, err)
			if v == fmt.Sprintf("p%d-%d", p, i) {
				kept++
			}
		}
	}
	assert.Equal(t, 2*perProcess, kept, "writes kept of %d", 2*perProcess)
}
