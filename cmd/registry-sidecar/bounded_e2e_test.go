package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"compress/flate"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// bigRows is the row count of the generated large workbook (the issue's
// 500k-row case).
const bigRows = 500_000

// writeWorkbook writes an xlsx at path: excelize's parts (styles with a bold
// xf 1), with sheet1.xml's body streamed by sheet (fast: no excelize
// parse, flate at its fastest level).
func writeWorkbook(t *testing.T, path string, sheet func(w io.Writer) error) {
	t.Helper()
	f := excelize.NewFile()
	_, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	var base bytes.Buffer
	require.NoError(t, f.Write(&base))
	require.NoError(t, f.Close())
	zr, err := zip.NewReader(bytes.NewReader(base.Bytes()), int64(base.Len()))
	require.NoError(t, err)
	out, err := os.Create(path)
	require.NoError(t, err)
	defer out.Close()
	zw := zip.NewWriter(out)
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) { return flate.NewWriter(w, flate.BestSpeed) })
	for _, zf := range zr.File {
		if zf.Name != "xl/worksheets/sheet1.xml" {
			require.NoError(t, zw.Copy(zf))
			continue
		}
		w, err := zw.Create(zf.Name)
		require.NoError(t, err)
		bw := bufio.NewWriterSize(w, 1<<20)
		_, err = io.WriteString(bw, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
		require.NoError(t, err)
		require.NoError(t, sheet(bw))
		_, err = io.WriteString(bw, `</sheetData><mergeCells count="1"><mergeCell ref="D1:E2"/></mergeCells></worksheet>`)
		require.NoError(t, err)
		require.NoError(t, bw.Flush())
	}
	require.NoError(t, zw.Close())
}

// sidecar is a running binary and its WebSocket URL.
type sidecar struct {
	url    string
	cmd    *exec.Cmd
	stderr *lockedBuffer
}

// lockedBuffer is a bytes.Buffer safe to read while the process writes it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write implements io.Writer.
func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// startSidecar runs the binary under a shell line prefix (say a ulimit)
// and waits for its handshake.
func startSidecar(t *testing.T, bin, prefix string, args ...string) *sidecar {
	t.Helper()
	cmd := exec.Command("bash", append([]string{"-c", prefix + ` exec "$0" "$@"`, bin, "--listen", "127.0.0.1:0", "--log-level", "warn"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	require.NoError(t, err)
	s := &sidecar{cmd: cmd, stderr: &lockedBuffer{}}
	cmd.Stderr = s.stderr
	require.NoError(t, cmd.Start())
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	require.NoError(t, err, "no handshake; stderr: %s", s.stderr)
	m := handshakeRE.FindStringSubmatch(strings.TrimSuffix(line, "\n"))
	require.NotNil(t, m, "handshake %q", line)
	s.url = m[1]
	return s
}

// dial opens a WebSocket connection to s.
func (s *sidecar) dial(t *testing.T) *websocket.Conn {
	t.Helper()
	ws, resp, err := websocket.DefaultDialer.Dial(s.url, nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	t.Cleanup(func() { _ = ws.Close() })
	return ws
}

// callFrame is a tools/call request.
func callFrame(id int, tool, args, meta string) []byte {
	if meta == "" {
		meta = "{}"
	}
	return []byte(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s,"_meta":%s}}`, id, tool, args, meta))
}

// callWS sends one call on ws and returns its payload text.
func callWS(t *testing.T, ws *websocket.Conn, tool, args, meta string) gjson.Result {
	t.Helper()
	require.NoError(t, ws.WriteMessage(websocket.TextMessage, callFrame(1, tool, args, meta)))
	data := nextAnswer(t, ws)
	return gjson.Parse(gjson.GetBytes(data, "result.content.0.text").String())
}

// healthy checks the process still serves /healthz.
func (s *sidecar) healthy(t *testing.T) {
	t.Helper()
	u := strings.Replace(strings.TrimSuffix(s.url, "/ws"), "ws://", "http://", 1) + "/healthz"
	resp, err := http.Get(u)
	require.NoError(t, err, "the sidecar died; stderr: %s", s.stderr)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusOK, resp.StatusCode)
}

// TestBoundedUnderUlimit runs the sidecar binary under `ulimit -v 4 GiB`
// and sends the calls that used to take the process down, all at once on
// one connection, while a second connection keeps calling: every heavy
// call answers with a payload (a page, or a clear MemoryError / ValueError
// / BadZipFile), the second connection is served throughout, and the
// process stays up.
func TestBoundedUnderUlimit(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and a 500k-row workbook")
	}
	skipUnderRace(t)
	bin := buildBinary(t)
	ws := t.TempDir()
	writeWorkbook(t, filepath.Join(ws, "big.xlsx"), func(w io.Writer) error {
		for r := 1; r <= bigRows; r++ {
			if _, err := fmt.Fprintf(w, `<row r="%d"><c r="A%d" s="1"><v>%d</v></c><c r="B%d"><v>%d</v></c></row>`, r, r, r, r, 2*r); err != nil {
				return err
			}
		}
		return nil
	})
	// One cell that inflates to 300 MB from a file of a few hundred KB.
	writeWorkbook(t, filepath.Join(ws, "inflate.xlsx"), func(w io.Writer) error {
		if _, err := io.WriteString(w, `<row r="1"><c r="A1" t="inlineStr"><is><t>head</t></is></c></row><row r="2"><c r="B2" t="inlineStr"><is><t>`); err != nil {
			return err
		}
		chunk := bytes.Repeat([]byte("A"), 1<<20)
		for range 300 {
			if _, err := w.Write(chunk); err != nil {
				return err
			}
		}
		_, err := io.WriteString(w, `</t></is></c></row>`)
		return err
	})
	writeWorkbook(t, filepath.Join(ws, "ooo.xlsx"), func(w io.Writer) error {
		_, err := io.WriteString(w, `<row r="1048576"><c r="A1048576"><v>9</v></c></row><row r="1"><c r="A1"><v>1</v></c></row>`)
		return err
	})
	st, err := os.Stat(filepath.Join(ws, "inflate.xlsx"))
	require.NoError(t, err)
	t.Logf("inflate.xlsx is %d bytes on disk", st.Size())
	mkfifo(t, filepath.Join(ws, "fifo.xlsx"))
	l, err := net.Listen("unix", filepath.Join(ws, "sock.xlsx"))
	require.NoError(t, err)
	defer l.Close()
	specials := []string{"fifo.xlsx", "sock.xlsx"}
	if mknodNull(filepath.Join(ws, "dev.xlsx")) == nil {
		specials = append(specials, "dev.xlsx")
	}

	s := startSidecar(t, bin, "ulimit -v 4194304;", "--workspace", ws, "--test-tools", "--call-timeout", "5m")

	type heavy struct {
		tool, args string
		check      func(t *testing.T, p gjson.Result)
	}
	memoryError := func(what string) func(t *testing.T, p gjson.Result) {
		return func(t *testing.T, p gjson.Result) {
			assert.Equal(t, "MemoryError", p.Get("exception").String(), p.Raw)
			assert.Contains(t, p.Get("message").String(), what)
		}
	}
	page := func(key string) func(t *testing.T, p gjson.Result) {
		return func(t *testing.T, p gjson.Result) {
			require.Equal(t, "success", p.Get("status").String(), p.Raw)
			n := p.Get(key + ".#").Int()
			assert.Positive(t, n)
			assert.Equal(t, n, p.Get("rows_returned").Int())
			assert.True(t, p.Get("has_more").Bool())
			assert.Equal(t, p.Get("offset").Int()+n, p.Get("next_offset").Int())
			p.ForEach(func(k, _ gjson.Result) bool {
				assert.False(t, strings.HasPrefix(k.String(), "_"), "page cut by truncation: %s", p.Raw)
				return true
			})
		}
	}
	calls := []heavy{
		{"read_cell_styles", `{"file_path": "big.xlsx", "cell_range": "A1:XFD1048576"}`, func(t *testing.T, p gjson.Result) {
			require.Equal(t, "success", p.Get("status").String(), p.Raw)
			assert.Equal(t, "A1", p.Get("styled_cells.0.cell").String())
			assert.True(t, p.Get("styled_cells.0.font.bold").Bool())
			assert.Equal(t, `["D1:E2"]`, p.Get("merged_ranges").Raw)
		}},
		{"read_excel", `{"file_path": "big.xlsx", "range": "A1:XFD1048576"}`, page("values")},
		{"read_excel", `{"file_path": "big.xlsx", "offset": 400000}`, page("rows")},
		{"format_cells", `{"file_path": "big.xlsx", "cell_range": "A1:XFD1048576", "font": {"bold": true}}`, memoryError("A1:XFD1048576 has 17179869184 cells")},
		{"read_excel", `{"file_path": "inflate.xlsx"}`, memoryError("cell B2 of sheet \"Sheet1\" holds more than 1.0 MiB of text")},
		{"read_excel", `{"file_path": "inflate.xlsx", "range": "A1:XFD1048576"}`, memoryError("more than 1.0 MiB of text")},
		{"read_cell_styles", `{"file_path": "inflate.xlsx", "cell_range": "A1:XFD1048576"}`, memoryError("more than 1.0 MiB of text")},
		{"format_cells", `{"file_path": "inflate.xlsx", "cell_range": "A1:B2", "font": {"bold": true}}`, memoryError("more than 1.0 MiB of text")},
		{"read_excel", `{"file_path": "ooo.xlsx"}`, func(t *testing.T, p gjson.Result) {
			assert.Equal(t, "BadZipFile", p.Get("exception").String(), p.Raw)
			assert.Contains(t, p.Get("message").String(), "out of order (row 1 comes after row 1048576)")
		}},
	}
	for _, name := range specials {
		for _, tool := range []string{"read_excel", "read_cell_styles", "format_cells"} {
			args := fmt.Sprintf(`{"file_path": %q, "cell_range": "A1:XFD1048576"}`, name)
			if tool == "read_excel" {
				args = fmt.Sprintf(`{"file_path": %q, "range": "A1:XFD1048576"}`, name)
			} else if tool == "format_cells" {
				args = fmt.Sprintf(`{"file_path": %q, "cell_range": "A1:B2", "font": {"bold": true}}`, name)
			}
			calls = append(calls, heavy{tool, args, func(t *testing.T, p gjson.Result) {
				assert.Equal(t, "ValueError", p.Get("exception").String(), p.Raw)
				assert.Contains(t, p.Get("message").String(), "only regular files are opened")
			}})
		}
	}

	// The second connection calls all along; it must keep being answered.
	other := s.dial(t)
	stop := make(chan struct{})
	var served int
	var otherErr error
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			if otherErr = other.WriteMessage(websocket.TextMessage, callFrame(1, "echo", `{"value": "ping"}`, "")); otherErr != nil {
				return
			}
			_ = other.SetReadDeadline(time.Now().Add(heavyWait))
			var data []byte
			if _, data, otherErr = other.ReadMessage(); otherErr != nil {
				return
			}
			if text := gjson.GetBytes(data, "result.content.0.text").String(); !strings.Contains(text, "ping") {
				otherErr = fmt.Errorf("echo answered %s", data)
				return
			}
			served++
		}
	}()

	conn := s.dial(t)
	for i, c := range calls {
		require.NoError(t, conn.WriteMessage(websocket.TextMessage, callFrame(i+1, c.tool, c.args, "")))
	}
	answers := map[int64]gjson.Result{}
	for range calls {
		data := nextAnswerWithin(t, conn)
		answers[gjson.GetBytes(data, "id").Int()] = gjson.Parse(gjson.GetBytes(data, "result.content.0.text").String())
	}
	close(stop)
	wg.Wait()
	for i, c := range calls {
		t.Run(fmt.Sprintf("%d_%s", i+1, c.tool), func(t *testing.T) {
			p, ok := answers[int64(i+1)]
			require.True(t, ok, "no answer")
			c.check(t, p)
		})
	}
	require.NoError(t, otherErr, "the other connection")
	assert.Positive(t, served, "the other connection was served while the heavy calls ran")
	s.healthy(t)
	assert.NotContains(t, s.stderr.String(), "panic")
	if status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid)); err == nil {
		for _, l := range strings.Split(string(status), "\n") {
			if strings.HasPrefix(l, "VmHWM") || strings.HasPrefix(l, "VmPeak") {
				t.Logf("sidecar %s", strings.Join(strings.Fields(l), " "))
			}
		}
	}
}

// heavyWait bounds the wait for one heavy call's answer on 2 busy cores; it
// is a hang detector, not a timing assertion.
const heavyWait = 5 * time.Minute

// nextAnswerWithin is nextAnswer with heavyWait.
func nextAnswerWithin(t *testing.T, ws *websocket.Conn) []byte {
	t.Helper()
	require.NoError(t, ws.SetReadDeadline(time.Now().Add(heavyWait)))
	for {
		_, data, err := ws.ReadMessage()
		require.NoError(t, err, "no answer")
		if gjson.GetBytes(data, "id").Exists() {
			return data
		}
	}
}
