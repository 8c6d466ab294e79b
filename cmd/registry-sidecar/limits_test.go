package main

import (
	"archive/zip"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tidwall/gjson"

	"github.com/registry-sidecar/registry-sidecar/excelops"
)

func TestParseByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
	}{
		{"1048576", 1 << 20},
		{"1", 1},
		{"7B", 7},
		{"1KiB", 1 << 10},
		{"512MiB", 512 << 20},
		{"512m", 512 << 20},
		{"4 GiB", 4 << 30},
		{"2gb", 2_000_000_000},
		{"3KB", 3000},
		{"1TiB", 1 << 40},
	} {
		t.Run(tc.in, func(t *testing.T) {
			got, err := parseByteSize(tc.in)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	for _, bad := range []string{"", "0", "0MiB", "-1", "-5KiB", "abc", "1.5MiB", "MiB", "12 parsecs", "9999999TiB", "99999999999999999999"} {
		t.Run("bad "+bad, func(t *testing.T) {
			_, err := parseByteSize(bad)
			assert.Error(t, err)
		})
	}
}

// TestByteSizeString: --help shows sizes in the largest exact binary unit,
// and what it shows parses back to the same size.
func TestByteSizeString(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{
		{excelops.DefaultMaxFileSize, "512MiB"},
		{excelops.DefaultUnzipSizeLimit, "4GiB"},
		{1536, "1536"}, // 1.5 KiB: no exact binary unit
		{2048, "2KiB"},
		{1500, "1500"},
		{3 << 40, "3TiB"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			b := byteSize(tc.n)
			assert.Equal(t, tc.want, b.String())
			back, err := parseByteSize(b.String())
			require.NoError(t, err)
			assert.Equal(t, tc.n, back)
		})
	}
}

// TestLimitFlagsReachExcelops: every limit flag lands in the field of
// excelops.Limits it names; without flags the defaults stay.
func TestLimitFlagsReachExcelops(t *testing.T) {
	var l sheetLimits
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	l.limitFlags(fs)
	require.NoError(t, parse(fs, nil, io.Discard, io.Discard))
	assert.Equal(t, excelops.DefaultLimits(), l.excelopsLimits())

	require.NoError(t, fs.Parse([]string{
		"--max-file-size", "3MiB", "--unzip-size-limit", "5MiB", "--unzip-xml-size-limit", "1MiB",
		"--max-cells", "11", "--max-read-cells", "12", "--max-write-cells", "13",
		"--call-memory-budget", "300MiB", "--max-cell-text", "64KiB",
	}))
	want := excelops.DefaultLimits()
	want.CallMemoryBudget, want.MaxCellTextBytes = 300<<20, 64<<10
	want.MaxFileSize, want.UnzipSizeLimit, want.UnzipXMLSizeLimit = 3<<20, 5<<20, 1<<20
	want.MaxCells, want.MaxReadCells, want.MaxWriteCells = 11, 12, 13
	assert.Equal(t, want, l.excelopsLimits())

	var none sheetLimits
	assert.Equal(t, excelops.DefaultLimits(), none.excelopsLimits(), "subcommands without limit flags keep the defaults")
}

// TestCacheBudgetFlag: the workbook cache budget defaults to excelops',
// takes a size, and 0 turns the cache off.
func TestCacheBudgetFlag(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want int64
	}{
		{nil, excelops.DefaultCacheBudget},
		{[]string{"--cache-budget", "0"}, 0},
		{[]string{"--cache-budget", "1GiB"}, 1 << 30},
		{[]string{"--cache-budget", "64m"}, 64 << 20},
	} {
		t.Run(fmt.Sprint(tc.args), func(t *testing.T) {
			var l sheetLimits
			fs := flag.NewFlagSet("t", flag.ContinueOnError)
			l.limitFlags(fs)
			require.NoError(t, fs.Parse(tc.args))
			assert.Equal(t, tc.want, int64(l.cacheBudget))
			assert.Len(t, l.excelopsOptions(), 2, "limits and the cache budget")
		})
	}
	var none sheetLimits
	assert.Len(t, none.excelopsOptions(), 1, "subcommands without limit flags keep excelops' cache default")
}

// callTool runs `call` and returns the exit code and the payload.
func callTool(t *testing.T, ws string, flags []string, tool, args string) (int, gjson.Result) {
	t.Helper()
	var out bytes.Buffer
	argv := append([]string{"call", "--workspace", ws, "--log-level", "error"}, flags...)
	err := run(context.Background(), append(argv, tool, args), &out, io.Discard)
	return exitCode(err, io.Discard), gjson.Parse(out.String())
}

// TestCallSizeLimits: a workbook over a lowered limit is refused with a
// MemoryError payload naming the limit, at the limit it is read; the env
// var works and the flag wins over it.
func TestCallSizeLimits(t *testing.T) {
	ws := t.TempDir()
	code, res := callTool(t, ws, nil, "write_cells", `{"file_path":"book.xlsx","cell_range":"A1","values":[["x","y"],[1,2],[3,4]]}`)
	require.Equal(t, exitOK, code, res.Raw)
	st, err := os.Stat(filepath.Join(ws, "book.xlsx"))
	require.NoError(t, err)
	size := st.Size()
	zr, err := zip.OpenReader(filepath.Join(ws, "book.xlsx"))
	require.NoError(t, err)
	var inflated int64
	for _, f := range zr.File {
		inflated += int64(f.UncompressedSize64)
	}
	require.NoError(t, zr.Close())
	require.Greater(t, inflated, size, "a zip inflates")
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }

	const readArgs = `{"file_path":"book.xlsx"}`
	for _, tc := range []struct {
		name  string
		flags []string
		env   map[string]string
		// refusal is a substring of the message, or "" when the call
		// succeeds.
		refusal string
	}{
		{"file size at the limit", []string{"--max-file-size", itoa(size)}, nil, ""},
		{"file size over the limit", []string{"--max-file-size", itoa(size - 1)}, nil, "the file is " + itoa(size) + " bytes, more than the limit of " + itoa(size-1)},
		{"file size from env", nil, map[string]string{"REGISTRY_SIDECAR_MAX_FILE_SIZE": itoa(size - 1)}, "more than the limit of " + itoa(size-1)},
		{"flag wins over env", []string{"--max-file-size", "1MiB"}, map[string]string{"REGISTRY_SIDECAR_MAX_FILE_SIZE": "1"}, ""},
		{"unzip at the limit", []string{"--unzip-size-limit", itoa(inflated)}, nil, ""},
		{"unzip over the limit", []string{"--unzip-size-limit", itoa(inflated - 1)}, nil, "inflate to " + itoa(inflated) + " bytes, more than the unzip limit of " + itoa(inflated-1)},
		{"unzip from env", nil, map[string]string{"REGISTRY_SIDECAR_UNZIP_SIZE_LIMIT": itoa(inflated - 1)}, "unzip limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			code, res := callTool(t, ws, tc.flags, "list_sheets", readArgs)
			if tc.refusal == "" {
				assert.Equal(t, exitOK, code, res.Raw)
				assert.Equal(t, "success", res.Get("status").String(), res.Raw)
				return
			}
			assert.Equal(t, exitToolError, code, res.Raw)
			assert.Equal(t, "TOOL_EXECUTION_ERROR", res.Get("error_code").String(), res.Raw)
			assert.Equal(t, "MemoryError", res.Get("exception").String(), res.Raw)
			assert.Contains(t, res.Get("message").String(), "workbook too large: ")
			assert.Contains(t, res.Get("message").String(), tc.refusal)
		})
	}

	t.Run("write cells", func(t *testing.T) {
		const block = `{"file_path":"book.xlsx","cell_range":"D1","values":[[1,2],[3,4]]}`
		code, res := callTool(t, ws, []string{"--max-write-cells", "3"}, "write_cells", block)
		assert.Equal(t, exitToolError, code, res.Raw)
		assert.Contains(t, res.Get("message").String(), "4 cells in one call, more than the limit of 3")
		code, res = callTool(t, ws, []string{"--max-write-cells", "4"}, "write_cells", block)
		assert.Equal(t, exitOK, code, res.Raw)
	})
}

// TestLimitUsageErrors: a bad limit, by flag or env var, is a usage error
// (exit 2) for serve and call alike, naming the flag or variable.
func TestLimitUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
	}{
		{"zero size", []string{"--max-file-size", "0"}, nil},
		{"negative size", []string{"--unzip-size-limit", "-1"}, nil},
		{"not a size", []string{"--max-file-size", "big"}, nil},
		{"fractional size", []string{"--unzip-xml-size-limit", "1.5MiB"}, nil},
		{"overflowing size", []string{"--max-file-size", "99999999TiB"}, nil},
		{"zero cells", []string{"--max-cells", "0"}, nil},
		{"negative cells", []string{"--max-write-cells", "-3"}, nil},
		{"not a count", []string{"--max-read-cells", "many"}, nil},
		{"bad env size", nil, map[string]string{"REGISTRY_SIDECAR_MAX_FILE_SIZE": "lots"}},
		{"bad env unzip", nil, map[string]string{"REGISTRY_SIDECAR_UNZIP_SIZE_LIMIT": "0"}},
		{"negative cache budget", []string{"--cache-budget", "-1"}, nil},
		{"bad env cache budget", nil, map[string]string{"REGISTRY_SIDECAR_CACHE_BUDGET": "half"}},
	} {
		for _, sub := range []string{"serve", "call"} {
			t.Run(sub+" "+tc.name, func(t *testing.T) {
				for k, v := range tc.env {
					t.Setenv(k, v)
				}
				args := append([]string{sub, "--workspace", t.TempDir(), "--log-level", "error"}, tc.args...)
				if sub == "serve" {
					args = append(args, "--listen", "127.0.0.1:0")
				} else {
					args = append(args, "list_sheets", `{"file_path":"a.xlsx"}`)
				}
				var stderr bytes.Buffer
				err := run(context.Background(), args, io.Discard, &stderr)
				require.Error(t, err)
				assert.Equal(t, exitUsage, exitCode(err, io.Discard), "err %v", err)
				for k := range tc.env {
					assert.Contains(t, err.Error(), "$"+k)
				}
				if tc.env == nil {
					assert.Contains(t, err.Error(), tc.args[0][2:], "the message names the flag")
				}
			})
		}
	}
}

// FuzzParseByteSize: any input either is refused or gives a positive size
// that prints and parses back to itself.
func FuzzParseByteSize(f *testing.F) {
	for _, s := range []string{"1", "512MiB", "2gb", "-1", "1.5k", "9223372036854775807", "8TiB", " 3 KB "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n, err := parseByteSize(s)
		if err != nil {
			return
		}
		require.Positive(t, n)
		b := byteSize(n)
		back, err := parseByteSize(b.String())
		require.NoError(t, err)
		assert.Equal(t, n, back)
	})
}

// TestCallMemoryBudgetFlagAndEnv: the per-call memory budget comes from
// --call-memory-budget or $REGISTRY_SIDECAR_CALL_MEMORY_BUDGET, and a call
// over it gets a MemoryError payload naming the budget.
func TestCallMemoryBudgetFlagAndEnv(t *testing.T) {
	ws := t.TempDir()
	code, res := callTool(t, ws, nil, "write_cells", `{"file_path":"book.xlsx","cell_range":"A1","values":[["x","y"],[1,2]]}`)
	require.Equal(t, exitOK, code, res.Raw)
	const format = `{"file_path":"book.xlsx","cell_range":"A1:Z1000","font":{"bold":true}}` // 26,000 cells
	for _, tc := range []struct {
		name  string
		flags []string
		env   string
		want  string
	}{
		{"flag", []string{"--call-memory-budget", "1MiB"}, "", "per-call memory budget of 1.0 MiB"},
		{"env", nil, "2MiB", "per-call memory budget of 2.0 MiB"},
		{"flag wins over env", []string{"--call-memory-budget", "3MiB"}, "1MiB", "per-call memory budget of 3.0 MiB"},
		{"default fits", nil, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.env != "" {
				t.Setenv("REGISTRY_SIDECAR_CALL_MEMORY_BUDGET", tc.env)
			}
			code, res := callTool(t, ws, tc.flags, "format_cells", format)
			if tc.want == "" {
				assert.Equal(t, exitOK, code, res.Raw)
				return
			}
			assert.Equal(t, "MemoryError", res.Get("exception").String(), res.Raw)
			assert.Contains(t, res.Get("message").String(), tc.want)
		})
	}
}
