package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"
)

// blockArgs is a write_cells call whose sheet XML is well over 1 KiB.
func blockArgs(file string) string {
	rows := make([]string, 200)
	for i := range rows {
		rows[i] = fmt.Sprintf("[%d,%d,%d,%d,%d]", i, i+1, i+2, i+3, i+4)
	}
	return `{"file_path":"` + file + `","cell_range":"A1","values":[` + strings.Join(rows, ",") + `]}`
}

// TestShutdownClosesTheSpreadsheetTools: the spreadsheet tools keep parsed
// workbooks between calls, with the parts spilled to temporary files
// (forced here by a 1 KiB --unzip-xml-size-limit); `call` and a stopped
// server close them, so no temporary folder outlives the process.
func TestShutdownClosesTheSpreadsheetTools(t *testing.T) {
	for _, mode := range []string{"call", "serve"} {
		t.Run(mode, func(t *testing.T) {
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)
			ws := t.TempDir()
			code, res := callTool(t, ws, nil, "write_cells", blockArgs("book.xlsx"))
			require.Equal(t, exitOK, code, res.Raw)
			edit := `{"file_path":"book.xlsx","cell":"Z1","value":1}`
			spill := []string{"--unzip-xml-size-limit", "1KiB"}

			if mode == "call" {
				code, res := callTool(t, ws, spill, "write_cells", edit)
				require.Equal(t, exitOK, code, res.Raw)
			} else {
				url, stop := startRun(t, append(spill, "--workspace", ws)...)
				conn, resp, err := websocket.DefaultDialer.Dial(url, nil)
				require.NoError(t, err)
				_ = resp.Body.Close()
				req := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"write_cells","arguments":` + edit + `}}`
				require.NoError(t, conn.WriteMessage(websocket.TextMessage, []byte(req)))
				_, data, err := conn.ReadMessage()
				require.NoError(t, err)
				require.False(t, gjson.GetBytes(data, "result.isError").Bool(), string(data))
				_ = conn.Close()
				require.NoError(t, stop())
			}
			left, err := os.ReadDir(tmp)
			require.NoError(t, err)
			var names []string
			for _, e := range left {
				names = append(names, e.Name())
			}
			assert.Empty(t, names, "temporary files left in %s", tmp)
			_, err = os.Stat(filepath.Join(ws, "book.xlsx"))
			assert.NoError(t, err)
		})
	}
}
