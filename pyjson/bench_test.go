package pyjson_test

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// benchError is a typical execution error payload, non-ASCII included.
var benchError = errorsjson.ErrorPayload{
	Status: errorsjson.StatusError, ErrorCode: errorsjson.CodeExecution, Tool: "write_cells",
	Exception: "FileNotFoundError", Message: "open 销售数据.xlsx: no such file or directory",
	Cause: &benchCause,
}

var benchCause = "no such file or directory"

// benchRow and benchSuccess are a larger success result: the shape a
// spreadsheet read returns (metadata plus 50 rows of mixed cells).
type benchRow struct {
	Row   int      `json:"row"`
	Name  string   `json:"name"`
	Score float64  `json:"score"`
	Tags  []string `json:"tags"`
	Note  string   `json:"note,omitempty"`
}

type benchSuccess struct {
	Status string     `json:"status"`
	File   string     `json:"file"`
	Sheet  string     `json:"sheet"`
	Total  int        `json:"total"`
	Rows   []benchRow `json:"rows"`
}

func newBenchSuccess() benchSuccess {
	s := benchSuccess{Status: "success", File: "reports/销售.xlsx", Sheet: "Sheet1", Total: 50}
	for i := range 50 {
		s.Rows = append(s.Rows, benchRow{
			Row: i + 2, Name: fmt.Sprintf("客户 %d \"VIP\"", i), Score: float64(i) * 1.25,
			Tags: []string{"a", "b<c>"}, Note: map[bool]string{true: "line\nbreak"}[i%3 == 0],
		})
	}
	return s
}

var benchPayloads = []struct {
	name string
	v    any
}{
	{"error", benchError},
	{"success", newBenchSuccess()},
}

// BenchmarkMarshal measures pyjson.Marshal; compare with
// BenchmarkEncodingJSON on the same payloads in the same run.
func BenchmarkMarshal(b *testing.B) {
	for _, p := range benchPayloads {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := pyjson.Marshal(p.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkEncodingJSON is the peer: encoding/json.Marshal on the same
// payloads (its output differs in separators and escaping).
func BenchmarkEncodingJSON(b *testing.B) {
	for _, p := range benchPayloads {
		b.Run(p.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := json.Marshal(p.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
