package errorsjson_test

import (
	"fmt"
	"io/fs"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// Execution builds the payload an agent sees when a tool fails; the Python
// exception name and the cause come from the Go error.
func ExampleExecution() {
	err := fmt.Errorf("open 报表.xlsx: %w", fs.ErrNotExist)
	text, _ := pyjson.MarshalString(errorsjson.Execution("read_excel", err))
	fmt.Println(text)
	// Output: {"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "read_excel", "exception": "FileNotFoundError", "message": "open 报表.xlsx: file does not exist", "cause": "file does not exist"}
}
