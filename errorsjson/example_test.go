package errorsjson_test

import (
	"fmt"
	"io/fs"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// Marshal writes what Python's json.dumps(value, ensure_ascii=False) writes:
// ", " and ": " separators, key order kept, non-ASCII raw, floats as repr.
func ExampleMarshal() {
	v := errorsjson.Object{
		{Key: "status", Value: "success"},
		{Key: "sheet", Value: "销售"},
		{Key: "values", Value: []any{1, 1.0, 1e16, 0.0001, 1e-05, nil, true}},
	}
	text, err := errorsjson.Marshal(v)
	if err != nil {
		panic(err)
	}
	fmt.Println(string(text))
	// Output: {"status": "success", "sheet": "销售", "values": [1, 1.0, 1e+16, 0.0001, 1e-05, null, true]}
}

// Execution builds the payload an agent sees when a tool fails; the Python
// exception name and the cause come from the Go error.
func ExampleExecution() {
	err := fmt.Errorf("open 报表.xlsx: %w", fs.ErrNotExist)
	text, _ := errorsjson.MarshalString(errorsjson.Execution("read_excel", err))
	fmt.Println(text)
	// Output: {"status": "error", "error_code": "TOOL_EXECUTION_ERROR", "tool": "read_excel", "exception": "FileNotFoundError", "message": "open 报表.xlsx: file does not exist", "cause": "file does not exist"}
}
