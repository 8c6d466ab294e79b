package tools

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// update rewrites this file's golden files: go test ./excelops/internal/tools -run Golden -update
var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// TestGoldenSchemas pins every tool's OpenAI schema: argument names are a
// contract with the agent's prompts, so a change must be deliberate.
func TestGoldenSchemas(t *testing.T) {
	e := newEnv(t)
	schemas, err := e.reg.OpenAISchemas(registry.ModeChatCompletions, nil)
	require.NoError(t, err)
	got, err := json.MarshalIndent(schemas, "", "  ")
	require.NoError(t, err)
	got = append(got, '\n')
	path := filepath.Join("testdata", "schemas.golden.json")
	if *update {
		require.NoError(t, os.MkdirAll("testdata", 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.JSONEq(t, string(want), string(got))
}

// TestGoldenStrictSchemas pins the OpenAI strict-mode schemas of every
// tool (chat_completions layout), one tool a line in json.dumps form; the
// Python adapter's strict_schema must give the same
// (adapters/python/tests/test_strict.py).
func TestGoldenStrictSchemas(t *testing.T) {
	e := newEnv(t)
	schemas, err := e.reg.OpenAISchemas(registry.ModeChatCompletions, nil, registry.Strict())
	require.NoError(t, err)
	lines := make([]string, len(schemas))
	for i, s := range schemas {
		lines[i], err = pyjson.MarshalString(s)
		require.NoError(t, err)
	}
	got := "[\n" + strings.Join(lines, ",\n") + "\n]\n"
	path := filepath.Join("testdata", "schemas_strict.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), got)
}

// TestGoldenPayloads pins the exact bytes of representative results on a
// fixed workbook, success and error alike.
func TestGoldenPayloads(t *testing.T) {
	e := newEnv(t)
	e.workbook("g.xlsx", [][]any{{"name", "qty", "price"}, {"pen", 3, 1.5}, {"ink", 10, 0.25}, {"pad", 7, 2.0}})
	calls := []struct{ tool, args string }{
		{"list_sheets", `{"file_path": "g.xlsx"}`},
		{"read_excel", `{"file_path": "g.xlsx", "max_rows": 2}`},
		{"read_excel", `{"file_path": "g.xlsx", "range": "B2:C4", "max_rows": 2, "offset": 1}`},
		{"write_cells", `{"file_path": "g.xlsx", "cell_range": "D1", "values": [["total"], ["=B2*C2"]]}`},
		{"add_conditional_rule", `{"file_path": "g.xlsx", "cell_range": "B2:B4", "rule_type": "cell_is", "operator": "between", "values": [1, 5]}`},
		{"read_excel", `{"file_path": "../g.xlsx"}`},
		{"read_excel", `{"file_path": "g.xlsx", "sheet_name": "Nope"}`},
		{"delete_sheet", `{"file_path": "g.xlsx", "sheet_name": "Sheet1"}`},
	}
	var lines []byte
	for _, c := range calls {
		lines = append(lines, e.reg.CallTool(t.Context(), c.tool, []byte(c.args)).Text...)
		lines = append(lines, '\n')
	}
	path := filepath.Join("testdata", "payloads.golden.jsonl")
	if *update {
		require.NoError(t, os.WriteFile(path, lines, 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), string(lines))
}
