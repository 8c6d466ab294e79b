package tools

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// styledBook writes name: a header (id, v, w) and rows {1, x, 10}, {2, y,
// 20}, {3, z, 30} in that order or, reversed, the other way up; then edit
// styles it (and may change values).
func styledBook(t *testing.T, e *env, name string, reversed bool, edit func(f *excelize.File)) {
	t.Helper()
	rows := [][]any{{1, "x", 10}, {2, "y", 20}, {3, "z", 30}}
	if reversed {
		rows[0], rows[2] = rows[2], rows[0]
	}
	f := excelize.NewFile()
	defer f.Close()
	require.NoError(t, f.SetSheetRow("Sheet1", "A1", &[]any{"id", "v", "w"}))
	for i, r := range rows {
		require.NoError(t, f.SetSheetRow("Sheet1", grid.CellName(1, i+2), &r))
	}
	if edit != nil {
		edit(f)
	}
	require.NoError(t, f.SaveAs(e.path(name)))
}

// setStyle gives cells the style st (a new id, or the existing one when
// excelize already holds an equal style).
func setStyle(t *testing.T, f *excelize.File, st *excelize.Style, cells ...string) int {
	t.Helper()
	id, err := f.NewStyle(st)
	require.NoError(t, err)
	for _, c := range cells {
		require.NoError(t, f.SetCellStyle("Sheet1", c, c, id))
	}
	return id
}

// attr is one expected style difference.
func attr(name string, old, new any) map[string]any {
	return map[string]any{"attribute": name, "old": old, "new": new}
}

func TestCompareExcelStyles(t *testing.T) {
	bold := &excelize.Style{Font: &excelize.Font{Bold: true, Family: "Calibri", Size: 11}}
	yellow := &excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FFFF00"}}}
	red := &excelize.Style{Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"FF0000"}}}
	twoPlaces, threePlaces := "0.00", "0.000"
	cases := []struct {
		name     string
		a, b     func(t *testing.T, f *excelize.File)
		reversed bool // b's rows in the other order (matched by key)
		keys     []any
		want     []any // the style_changed differences
		values   int   // row_changed differences
	}{
		{name: "same style, another id in the other workbook",
			a: func(t *testing.T, f *excelize.File) { setStyle(t, f, bold, "B2") },
			b: func(t *testing.T, f *excelize.File) {
				italic := setStyle(t, f, &excelize.Style{Font: &excelize.Font{Italic: true, Family: "Calibri", Size: 11}})
				require.NotEqual(t, italic, setStyle(t, f, bold, "B2"))
			}},
		{name: "bold added",
			b: func(t *testing.T, f *excelize.File) { setStyle(t, f, bold, "B3") },
			want: []any{map[string]any{"type": "style_changed", "row_a": 3.0, "row_b": 3.0, "changes": []any{
				map[string]any{"column": "v", "cell_a": "B3", "cell_b": "B3", "attributes": []any{attr("font.bold", false, true)}}}}}},
		{name: "fill colour changed, rows matched by key",
			a:        func(t *testing.T, f *excelize.File) { setStyle(t, f, yellow, "C2") },
			b:        func(t *testing.T, f *excelize.File) { setStyle(t, f, red, "C4") },
			reversed: true, keys: []any{"id"},
			want: []any{map[string]any{"type": "style_changed", "key": map[string]any{"id": 1.0}, "row_a": 2.0, "row_b": 4.0, "changes": []any{
				map[string]any{"column": "w", "cell_a": "C2", "cell_b": "C4", "attributes": []any{attr("fill.color", "FFFF00", "FF0000")}}}}}},
		{name: "number format changed",
			a: func(t *testing.T, f *excelize.File) { setStyle(t, f, &excelize.Style{CustomNumFmt: &twoPlaces}, "C4") },
			b: func(t *testing.T, f *excelize.File) {
				setStyle(t, f, &excelize.Style{CustomNumFmt: &threePlaces}, "C4")
			},
			want: []any{map[string]any{"type": "style_changed", "row_a": 4.0, "row_b": 4.0, "changes": []any{
				map[string]any{"column": "w", "cell_a": "C4", "cell_b": "C4", "attributes": []any{attr("number_format", "0.00", "0.000")}}}}}},
		{name: "value and style of one cell changed",
			b: func(t *testing.T, f *excelize.File) {
				require.NoError(t, f.SetCellValue("Sheet1", "B2", "X"))
				setStyle(t, f, &excelize.Style{Font: &excelize.Font{Bold: true, Italic: true, Family: "Calibri", Size: 11}, Alignment: &excelize.Alignment{Horizontal: "center"}}, "B2")
			},
			values: 1,
			want: []any{map[string]any{"type": "style_changed", "row_a": 2.0, "row_b": 2.0, "changes": []any{
				map[string]any{"column": "v", "cell_a": "B2", "cell_b": "B2", "attributes": []any{
					attr("font.bold", false, true), attr("font.italic", false, true), attr("alignment.horizontal", nil, "center")}}}}}},
		{name: "header border and an empty styled cell",
			b: func(t *testing.T, f *excelize.File) {
				setStyle(t, f, &excelize.Style{Border: []excelize.Border{{Type: "left", Color: "000000", Style: 1}}}, "A1")
				require.NoError(t, f.SetCellValue("Sheet1", "C3", nil))
				setStyle(t, f, red, "C3")
			},
			values: 1,
			want: []any{
				map[string]any{"type": "style_changed", "header": true, "row_a": 1.0, "row_b": 1.0, "changes": []any{
					map[string]any{"column": "id", "cell_a": "A1", "cell_b": "A1", "attributes": []any{attr("border.left", nil, "thin")}}}},
				map[string]any{"type": "style_changed", "row_a": 3.0, "row_b": 3.0, "changes": []any{
					map[string]any{"column": "w", "cell_a": "C3", "cell_b": "C3", "attributes": []any{attr("fill.color", nil, "FF0000")}}}}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			edit := func(fn func(*testing.T, *excelize.File)) func(*excelize.File) {
				if fn == nil {
					return nil
				}
				return func(f *excelize.File) { fn(t, f) }
			}
			styledBook(t, e, "a.xlsx", false, edit(c.a))
			styledBook(t, e, "b.xlsx", c.reversed, edit(c.b))
			args := map[string]any{"file_a": "a.xlsx", "file_b": "b.xlsx", "ignore_style": false}
			if c.keys != nil {
				args["key_columns"] = c.keys
			}
			got := e.ok("compare_excel", args)
			var styled, values []any
			cells := 0
			for _, d := range got["diffs"].([]any) {
				switch d.(map[string]any)["type"] {
				case "style_changed":
					styled = append(styled, d)
					cells += len(d.(map[string]any)["changes"].([]any))
				case "row_changed":
					values = append(values, d)
				}
			}
			assert.Equal(t, c.want, styled)
			assert.Len(t, values, c.values)
			s := got["summary"].(map[string]any)
			assert.Equal(t, []any{float64(len(c.want)), float64(cells)}, []any{s["rows_style_changed"], s["cells_style_changed"]})
			assert.Equal(t, len(c.want)+c.values == 0, got["identical"])

			delete(args, "ignore_style")
			plain := e.ok("compare_excel", args)
			assert.Len(t, plain["diffs"], c.values, "values only by default")
			assert.NotContains(t, plain["summary"], "rows_style_changed")
		})
	}
}

func TestCompareExcelStylesOneWorkbook(t *testing.T) {
	e := newEnv(t)
	styledBook(t, e, "a.xlsx", false, func(f *excelize.File) {
		_, err := f.NewSheet("Copy")
		require.NoError(t, err)
		require.NoError(t, f.SetSheetRow("Copy", "A1", &[]any{"id", "v", "w"}))
		require.NoError(t, f.SetSheetRow("Copy", "A2", &[]any{1, "x", 10}))
		bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Family: "Calibri", Size: 11}})
		require.NoError(t, err)
		require.NoError(t, f.SetCellStyle("Sheet1", "A2", "C2", bold))
		require.NoError(t, f.SetCellStyle("Copy", "A2", "B2", bold))
	})
	got := e.ok("compare_excel", map[string]any{"file_a": "a.xlsx", "file_b": "a.xlsx", "sheet_a": "Sheet1", "sheet_b": "Copy", "ignore_style": false})
	diffs := got["diffs"].([]any)
	require.NotEmpty(t, diffs)
	assert.Equal(t, map[string]any{"type": "style_changed", "row_a": 2.0, "row_b": 2.0, "changes": []any{
		map[string]any{"column": "w", "cell_a": "C2", "cell_b": "C2", "attributes": []any{attr("font.bold", true, false)}}}}, diffs[0])
	assert.Equal(t, 1.0, got["summary"].(map[string]any)["cells_style_changed"])
}

func TestStyleComparerResolvesOnce(t *testing.T) {
	e := newEnv(t)
	styledBook(t, e, "a.xlsx", false, func(f *excelize.File) {
		_, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true, Family: "Calibri", Size: 11}})
		require.NoError(t, err)
	})
	b, err := e.svc.engine.OpenBook(e.path("a.xlsx"), false, true)
	require.NoError(t, err)
	defer b.Close()
	sa, err := engine.BookStyleSide(b)
	require.NoError(t, err)
	sb, err := engine.BookStyleSide(b)
	require.NoError(t, err)
	sc := engine.NewStyleComparer(sa, sb)
	defer sc.Close()
	require.True(t, sc.SameTable)
	d, err := sc.Diff(1, 1)
	require.NoError(t, err)
	assert.Nil(t, d)
	assert.Nil(t, sa.F, "equal ids of one style table are never resolved")
	d, err = sc.Diff(0, 1)
	require.NoError(t, err)
	assert.Equal(t, []any{pyjsonAttr("font.bold", false, true)}, d)
	_, err = sc.Diff(0, 1)
	require.NoError(t, err)
	assert.Len(t, sa.Cache, 1)
	assert.Len(t, sb.Cache, 1)
	assert.Len(t, sc.Pairs, 1)
}

// pyjsonAttr is attr as styleComparer.diff builds it.
func pyjsonAttr(name string, old, new any) pyjson.Object {
	return pyjson.Object{{Key: "attribute", Value: name}, {Key: "old", Value: old}, {Key: "new", Value: new}}
}

// TestGoldenCompareStyles pins compare_excel's answer, byte for byte, for
// a pair of workbooks whose cells differ in every attribute it compares.
func TestGoldenCompareStyles(t *testing.T) {
	e := newEnv(t)
	pct := "0.0%"
	styledBook(t, e, "a.xlsx", false, func(f *excelize.File) {
		setStyle(t, f, &excelize.Style{Font: &excelize.Font{Family: "Calibri", Size: 11, Color: "000000"}, NumFmt: 2}, "B2", "C3")
		setStyle(t, f, &excelize.Style{Alignment: &excelize.Alignment{Vertical: "top"}}, "A4")
	})
	styledBook(t, e, "b.xlsx", false, func(f *excelize.File) {
		setStyle(t, f, &excelize.Style{Font: &excelize.Font{Bold: true}}, "A1", "B1")
		setStyle(t, f, &excelize.Style{
			Font: &excelize.Font{Family: "Arial", Size: 14, Italic: true, Underline: "single", Strike: true, Color: "FF0000"},
			Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"00B050"}}, CustomNumFmt: &pct,
		}, "B2")
		setStyle(t, f, &excelize.Style{Border: []excelize.Border{
			{Type: "left", Color: "000000", Style: 1}, {Type: "right", Color: "000000", Style: 2},
			{Type: "top", Color: "000000", Style: 3}, {Type: "bottom", Color: "000000", Style: 5},
		}}, "C3")
		setStyle(t, f, &excelize.Style{Alignment: &excelize.Alignment{Horizontal: "right", Vertical: "center", WrapText: true}}, "A4")
	})
	res := e.call("compare_excel", map[string]any{"file_a": "a.xlsx", "file_b": "b.xlsx", "ignore_style": false})
	require.False(t, res.IsError, res.Text)
	got := res.Text + "\n"
	path := filepath.Join("testdata", "compare_styles.golden.json")
	if *update {
		require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run with -update to create it")
	assert.Equal(t, string(want), got)
}
