package tools

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// inspectTree writes a.xlsx (Sheet1: header and 5 rows), sub/b.xlsx (Sales,
// then an empty sheet Notes), .hidden/c.xlsx and a link to a.xlsx.
func inspectTree(e *env) {
	e.workbook("a.xlsx", [][]any{{"name", "qty", "price"}, {"a", 1, 1.5}, {"b", 2, 2.5}, {"c", 3, 3.5}, {"d", 4, 4.5}, {"e", 5, 5.5}})
	require.NoError(e.t, os.MkdirAll(e.path("sub"), 0o755))
	require.NoError(e.t, os.MkdirAll(e.path(".hidden"), 0o755))
	e.workbook("sub/b.xlsx", [][]any{nil, {nil, "region", "total"}, {nil, "north", 10}})
	f := e.open("sub/b.xlsx")
	require.NoError(e.t, f.SetSheetName("Sheet1", "Sales"))
	_, err := f.NewSheet("Notes")
	require.NoError(e.t, err)
	require.NoError(e.t, f.Save())
	e.workbook(".hidden/c.xlsx", [][]any{{"x"}})
	require.NoError(e.t, os.Symlink(e.path("a.xlsx"), e.path("link.xlsx")))
}

// paths are the paths of an inspect_excel_files answer's files.
func paths(got map[string]any) []any {
	var out []any
	for _, f := range got["files"].([]any) {
		out = append(out, f.(map[string]any)["path"])
	}
	return out
}

func TestInspectExcelFilesFindsAndFilters(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
		want []any
		next any
	}{
		{"whole workspace, no hidden folders, no links", map[string]any{}, []any{"a.xlsx", "sub/b.xlsx"}, nil},
		{"not recursive", map[string]any{"recursive": false}, []any{"a.xlsx"}, nil},
		{"a folder", map[string]any{"directory": "sub"}, []any{"sub/b.xlsx"}, nil},
		{"search by sheet name, ignoring case", map[string]any{"search": "SALES"}, []any{"sub/b.xlsx"}, nil},
		{"search by path", map[string]any{"search": "a.x"}, []any{"a.xlsx"}, nil},
		{"sheet_name", map[string]any{"sheet_name": "note"}, []any{"sub/b.xlsx"}, nil},
		{"one file a page", map[string]any{"max_files": 1}, []any{"a.xlsx"}, 1.0},
		{"second page", map[string]any{"max_files": 1, "offset": 1}, []any{"sub/b.xlsx"}, nil},
		{"filtered page goes on after what it examined", map[string]any{"max_files": 1, "search": "b"}, []any{"sub/b.xlsx"}, nil},
	}
	e := newEnv(t)
	inspectTree(e)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := e.ok("inspect_excel_files", c.args)
			assert.Equal(t, c.want, paths(got))
			assert.Equal(t, c.next, got["next_offset"])
			assert.Equal(t, c.next != nil, got["has_more"])
			assert.Equal(t, false, got["partial"])
		})
	}
}

func TestInspectExcelFilesSheets(t *testing.T) {
	e := newEnv(t)
	inspectTree(e)
	got := e.ok("inspect_excel_files", map[string]any{"preview_rows": 2, "max_columns": 2})
	files := got["files"].([]any)
	a := files[0].(map[string]any)["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"name": "Sheet1", "used_range": "A1:C6", "used_range_source": "cells", "max_row": 6.0, "max_column": 3.0, "columns_shown": 2.0,
		"header_row": 1.0, "header": []any{"name", "qty"}, "preview": []any{[]any{"a", 1.0}, []any{"b", 2.0}}}, a)
	b := files[1].(map[string]any)
	assert.Equal(t, 2.0, b["sheet_count"])
	sales := b["sheets"].([]any)[0].(map[string]any)
	assert.Equal(t, "B2:C3", sales["used_range"])
	assert.Equal(t, 2.0, sales["header_row"])
	assert.Equal(t, []any{nil, "region"}, sales["header"])
	notes := b["sheets"].([]any)[1].(map[string]any)
	assert.Nil(t, notes["used_range"])
	assert.Equal(t, []any{}, notes["preview"])
}

func TestInspectExcelFilesRefusals(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
	}{
		{"outside the workspace", map[string]any{"directory": "../"}},
		{"missing folder", map[string]any{"directory": "nope"}},
		{"a file", map[string]any{"directory": "a.xlsx"}},
		{"max_files too big", map[string]any{"max_files": 201}},
		{"preview_rows negative", map[string]any{"preview_rows": -1}},
		{"unknown include", map[string]any{"include": []any{"styles"}}},
	}
	e := newEnv(t)
	inspectTree(e)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := e.fail("inspect_excel_files", c.args)
			assert.Equal(t, "error", got["status"])
		})
	}
}

// TestInspectExcelFilesStopsBeforeTheDeadline: with less time left than
// the reserve, the answer is partial, holds no file and goes on at offset.
func TestInspectExcelFilesStopsBeforeTheDeadline(t *testing.T) {
	e := newEnv(t)
	inspectTree(e)
	ctx, cancel := context.WithTimeout(context.Background(), inspectReserve/2)
	defer cancel()
	res, err := e.svc.inspectIn(ctx, inspectExcelFilesArgs{Offset: 1}, inspectOptions{maxFiles: 5, previewRows: 1, maxColumns: 5})
	require.NoError(t, err)
	got := toMap(t, res)
	assert.Equal(t, true, got["partial"])
	assert.Equal(t, 1.0, got["next_offset"])
	assert.Equal(t, []any{}, got["files"])
}

func TestInspectStopAt(t *testing.T) {
	now := time.Now()
	cases := []struct {
		name string
		left time.Duration
		want time.Duration // stop time after now
	}{
		{"a tenth of a long call", 100 * time.Second, 90 * time.Second},
		{"at least the reserve", time.Second, time.Second - inspectReserve},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithDeadline(context.Background(), now.Add(c.left))
			defer cancel()
			assert.Equal(t, now.Add(c.want), inspectStopAt(ctx, now))
		})
	}
	assert.True(t, inspectStopAt(context.Background(), now).IsZero())
}

// toMap is a result object decoded as JSON.
func toMap(t *testing.T, res any) map[string]any {
	t.Helper()
	text, err := pyjson.MarshalString(res)
	require.NoError(t, err)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(text), &m))
	return m
}

// TestInspectExcelFilesDeclaredRange: a sheet's declared dimension is its
// used range (as openpyxl reads it) unless exact_used_range asks for the
// cells, the declaration says only A1, or what was read falls outside it.
func TestInspectExcelFilesDeclaredRange(t *testing.T) {
	rows := `<row r="2"><c r="B2"><v>1</v></c></row><row r="3"><c r="C3"><v>2</v></c></row>`
	cases := []struct {
		name, dimension string
		exact           bool
		want, source    string
	}{
		{"declared", "B2:D9", false, "B2:D9", "dimension"},
		{"cells asked for", "B2:D9", true, "B2:C3", "cells"},
		{"only A1 declared", "A1", false, "B2:C3", "cells"},
		{"preview outside the declaration", "B2:C2", false, "B2:C3", "cells"},
		{"header above the declaration", "B3:C9", false, "B2:C3", "cells"},
		{"declaration that does not parse", "B2:ZZZZ9", false, "B2:C3", "cells"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("d.xlsx", [][]any{{1}})
			withSheetXML(t, e.path("d.xlsx"), sheetXML(c.dimension, rows))
			got := e.ok("inspect_excel_files", map[string]any{"exact_used_range": c.exact})
			sh := got["files"].([]any)[0].(map[string]any)["sheets"].([]any)[0].(map[string]any)
			assert.Equal(t, c.want, sh["used_range"])
			assert.Equal(t, c.source, sh["used_range_source"])
		})
	}
}
