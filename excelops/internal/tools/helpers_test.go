package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/registry"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// env is a workspace, a Service over it and a registry with its tools.
type env struct {
	t   *testing.T
	dir string
	svc *Service
	reg *envRegistry
}

// newEnv builds a fresh workspace in t.TempDir().
func newEnv(t *testing.T, opts ...Option) *env {
	t.Helper()
	return newEnvAt(t, t.TempDir(), opts...)
}

// newEnvAt builds a workspace over the existing folder dir.
func newEnvAt(t *testing.T, dir string, opts ...Option) *env {
	t.Helper()
	return newEnvOf(t, dir, nil, opts...)
}

// newEnvOf builds a workspace over the existing folder dir whose registry
// holds only the tools named in tools (every tool when tools is empty, each
// registered when first called: envRegistry).
func newEnvOf(t *testing.T, dir string, tools []string, opts ...Option) *env {
	t.Helper()
	opts = append([]Option{WithTempDir(t.TempDir())}, opts...)
	svc, err := New(dir, opts...)
	require.NoError(t, err)
	t.Cleanup(func() { assert.NoError(t, svc.Close()) })
	reg, err := newEnvRegistry(t, svc, tools, registry.WithMaxResultChars(-1))
	require.NoError(t, err)
	return &env{t: t, dir: svc.Root(), svc: svc, reg: reg}
}

// path returns the absolute path of a workspace file.
func (e *env) path(name string) string { return filepath.Join(e.dir, name) }

// call runs a tool with args (a Go value marshalled to JSON).
func (e *env) call(tool string, args any) registry.Result {
	e.t.Helper()
	raw, err := json.Marshal(args)
	require.NoError(e.t, err)
	return e.reg.CallTool(context.Background(), tool, raw)
}

// ok runs a tool, requires success and returns the decoded payload.
func (e *env) ok(tool string, args any) map[string]any {
	e.t.Helper()
	res := e.call(tool, args)
	require.False(e.t, res.IsError, "%s failed: %s", tool, res.Text)
	var m map[string]any
	require.NoError(e.t, json.Unmarshal([]byte(res.Text), &m))
	require.Equal(e.t, "success", m["status"], res.Text)
	return m
}

// fail runs a tool, requires an error payload and returns it decoded.
func (e *env) fail(tool string, args any) map[string]any {
	e.t.Helper()
	res := e.call(tool, args)
	require.True(e.t, res.IsError, "%s should fail: %s", tool, res.Text)
	var m map[string]any
	require.NoError(e.t, json.Unmarshal([]byte(res.Text), &m))
	return m
}

// workbook writes a workbook with rows into the workspace (sheet "Sheet1").
func (e *env) workbook(name string, rows [][]any) string {
	e.t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		require.NoError(e.t, f.SetSheetRow("Sheet1", cell, &r))
	}
	require.NoError(e.t, f.SaveAs(e.path(name)))
	return name
}

// open opens a workspace workbook for assertions.
func (e *env) open(name string) *excelize.File {
	e.t.Helper()
	f, err := excelize.OpenFile(e.path(name))
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = f.Close() })
	return f
}

// book opens the workbook name of the workspace as the engine opens it,
// closed when the test ends.
func (e *env) book(name string) *engine.Book {
	e.t.Helper()
	b, err := e.svc.engine.OpenBook(e.path(name), false, false)
	require.NoError(e.t, err)
	e.t.Cleanup(func() { _ = b.Close() })
	return b
}

// value reads one cell of Sheet1 (or sheet).
func (e *env) value(name, sheet, cell string) string {
	e.t.Helper()
	v, err := e.open(name).GetCellValue(sheet, cell)
	require.NoError(e.t, err)
	return v
}

// stringsReader is strings.NewReader (kept here so tests share one import set).
func stringsReader(s string) *strings.Reader { return strings.NewReader(s) }

// writeFile writes text to path.
func writeFile(path, text string) error { return os.WriteFile(path, []byte(text), 0o644) }

// parsedRead runs fn on the workbook at path read through excelize (a
// structure read: parsed, from and back into the cache), as no tool of its
// own does.
func (e *env) parsedRead(path string, fn func(*engine.Book) (any, error)) (any, error) {
	acc := access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStructure}}}
	return e.svc.engine.Run(context.Background(), acc, engine.OnBook(path, "", func(b *engine.Book, _ engine.SheetRef) (any, error) { return fn(b) }))
}

// specSchema is the input schema sp registers with on svc.
func specSchema(t *testing.T, svc *Service, sp toolSpec) []byte {
	t.Helper()
	tool, err := svc.register(sp)
	require.NoError(t, err)
	return tool.InputSchema
}

// toolFunc is the registered body of the tool name of svc.
func toolFunc(svc *Service, name string) registry.Func {
	for _, sp := range svc.tools() {
		if sp.name == name {
			t, err := svc.register(sp)
			if err != nil {
				panic(err)
			}
			return t.Func
		}
	}
	panic("no tool " + name)
}
