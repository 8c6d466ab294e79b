package tools

import (
	"fmt"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// column reads cells col+from..col+to of Sheet1 as displayed.
func column(t *testing.T, f *excelize.File, col string, from, to int) []string {
	t.Helper()
	var out []string
	for r := from; r <= to; r++ {
		v, err := f.GetCellValue("Sheet1", fmt.Sprintf("%s%d", col, r))
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

// formulas reads the formulas of cells col+from..col+to of Sheet1.
func formulas(t *testing.T, f *excelize.File, col string, from, to int) []string {
	t.Helper()
	var out []string
	for r := from; r <= to; r++ {
		v, err := f.GetCellFormula("Sheet1", fmt.Sprintf("%s%d", col, r))
		require.NoError(t, err)
		out = append(out, v)
	}
	return out
}

func TestSortRangeOrdersAsExcel(t *testing.T) {
	// Numbers, then text ignoring case ("10" stored as text is text), then
	// FALSE, TRUE; blanks last in both orders; equal keys keep their order.
	rows := [][]any{{3, "a"}, {"b", "b"}, {nil, "c"}, {true, "d"}, {"A", "e"}, {1, "f"}, {false, "g"}, {"10", "h"}, {3, "i"}}
	cases := []struct {
		order string
		want  []string
	}{
		{"ascending", []string{"f", "a", "i", "h", "e", "b", "g", "d", "c"}},
		{"descending", []string{"d", "g", "b", "e", "h", "a", "i", "f", "c"}},
	}
	for _, c := range cases {
		t.Run(c.order, func(t *testing.T) {
			e := newEnv(t)
			e.workbook("o.xlsx", rows)
			got := e.ok("sort_range", map[string]any{"file_path": "o.xlsx", "cell_range": "A1:B9", "sort_by": []any{map[string]any{"column": "A", "order": c.order}}})
			assert.Equal(t, float64(9), got["rows_sorted"])
			f := e.open("o.xlsx")
			assert.Equal(t, c.want, column(t, f, "B", 1, 9))
			typ, err := f.GetCellType("Sheet1", fmt.Sprintf("A%d", 1+indexOf(c.want, "h")))
			require.NoError(t, err)
			assert.Equal(t, excelize.CellTypeSharedString, typ, "text that looks like a number stays text")
		})
	}
}

// indexOf is the position of s in list.
func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func TestSortRangeSeveralKeysAndHeader(t *testing.T) {
	e := newEnv(t)
	e.workbook("k.xlsx", [][]any{{"dept", "name", "pay"}, {"ops", "x", 10}, {"dev", "y", 30}, {"ops", "z", 20}, {"dev", "w", 30}, {"dev", "v", 5}})
	got := e.ok("sort_range", map[string]any{"file_path": "k.xlsx", "cell_range": "A1:C6", "header": true,
		"sort_by": []any{map[string]any{"column": "Dept"}, map[string]any{"column": "pay", "order": "descending"}}})
	assert.Equal(t, []any{map[string]any{"column": "A", "order": "ascending"}, map[string]any{"column": "C", "order": "descending"}}, got["sort_by"])
	assert.Equal(t, float64(5), got["rows_sorted"])
	f := e.open("k.xlsx")
	assert.Equal(t, []string{"name", "y", "w", "v", "z", "x"}, column(t, f, "B", 1, 6))
}

// TestSortRangeMovesFormulasLikeExcel: a formula moves with its row and its
// relative references follow (as a copy of the row would), absolute ones
// stay, and formulas outside the range keep pointing at the same cells;
// cached values are recomputed.
func TestSortRangeMovesFormulasLikeExcel(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	f := e.open("s.xlsx")
	shared, ref := excelize.STCellFormulaTypeShared, "D2:D6"
	require.NoError(t, f.SetCellFormula("Sheet1", "D2", "B2*C2", excelize.FormulaOpts{Type: &shared, Ref: &ref}))
	for r := 2; r <= 6; r++ {
		require.NoError(t, f.SetCellFormula("Sheet1", fmt.Sprintf("E%d", r), fmt.Sprintf("B%d*$G$1", r)))
	}
	require.NoError(t, f.SetCellValue("Sheet1", "G1", 2))
	require.NoError(t, f.SetCellFormula("Sheet1", "H1", "B2"))
	bold, err := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true}})
	require.NoError(t, err)
	require.NoError(t, f.SetCellStyle("Sheet1", "A4", "A4", bold))
	require.NoError(t, f.AddComment("Sheet1", excelize.Comment{Cell: "A4", Author: "me", Text: "biggest"}))
	require.NoError(t, f.SetCellHyperLink("Sheet1", "A3", "https://example.com/south", "External"))
	require.NoError(t, f.Save())

	got := e.ok("sort_range", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:E6", "header": true, "sort_by": []any{map[string]any{"column": "qty"}}})
	assert.Equal(t, float64(5), got["rows_sorted"])
	assert.Equal(t, float64(5), got["rows_moved"])
	f = e.open("s.xlsx")
	assert.Equal(t, []string{"South", "west", "north", "Centre", "east"}, column(t, f, "A", 2, 6))
	assert.Equal(t, []string{"B2*C2", "B3*C3", "B4*C4", "B5*C5", "B6*C6"}, formulas(t, f, "D", 2, 6))
	assert.Equal(t, []string{"B2*$G$1", "B3*$G$1", "B4*$G$1", "B5*$G$1", "B6*$G$1"}, formulas(t, f, "E", 2, 6))
	assert.Equal(t, []string{"B2"}, formulas(t, f, "H", 1, 1), "a reference from outside is left as Excel leaves it")
	assert.Equal(t, []string{"SUM(B2:B6)"}, formulas(t, f, "B", 8, 8))

	read := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "range": "A2:H6"})
	assert.Equal(t, []any{"South", float64(10), 2.5, float64(25), float64(20), nil, nil, nil}, read["values"].([]any)[0])
	assert.Equal(t, []any{"east", float64(50), 0.5, float64(25), float64(100), nil, nil, nil}, read["values"].([]any)[4])
	h1 := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "range": "H1"})
	assert.Equal(t, []any{[]any{float64(10)}}, h1["values"], "H1 = B2 shows the new B2")

	style, err := f.GetCellStyle("Sheet1", "A6")
	require.NoError(t, err)
	assert.Equal(t, bold, style, "east's style moved to row 6")
	comments, err := f.GetComments("Sheet1")
	require.NoError(t, err)
	require.Len(t, comments, 1)
	assert.Equal(t, "A6", comments[0].Cell)
	assert.Equal(t, "biggest", commentText(comments[0]))
	ok, target, err := f.GetCellHyperLink("Sheet1", "A2")
	require.NoError(t, err)
	assert.True(t, ok, "South's link moved to row 2")
	assert.Equal(t, "https://example.com/south", target)
}

func TestSortRangeWholeTable(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	e.ok("create_table", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6"})
	e.ok("sort_range", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6", "header": true, "sort_by": []any{map[string]any{"column": "A", "order": "descending"}}})
	assert.Equal(t, []string{"region", "west", "South", "north", "east", "Centre"}, column(t, e.open("s.xlsx"), "A", 1, 6))
	e.ok("sort_range", map[string]any{"file_path": "s.xlsx", "cell_range": "A2:C6", "sort_by": []any{map[string]any{"column": "B"}}})
	assert.Equal(t, []string{"10", "20", "30", "40", "50"}, column(t, e.open("s.xlsx"), "B", 2, 6))
}

func TestSortRangeErrors(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name string
		prep func(t *testing.T, f *excelize.File)
		args map[string]any
		want string
	}{
		{"column outside", nil, map[string]any{"cell_range": "A1:C6", "sort_by": []any{map[string]any{"column": "D"}}}, "column D is outside A1:C6"},
		{"unknown header", nil, map[string]any{"cell_range": "A1:C6", "header": true, "sort_by": []any{map[string]any{"column": "qtty"}}}, `neither a header of A1:C6 (region, qty, price) nor a column letter inside it. Did you mean "qty"?`},
		{"header only", nil, map[string]any{"cell_range": "A1:C1", "header": true, "sort_by": []any{map[string]any{"column": "A"}}}, "only its header row"},
		{"merged cells", func(t *testing.T, f *excelize.File) {
			require.NoError(t, f.MergeCell("Sheet1", "A3", "B3"))
		}, map[string]any{"cell_range": "A1:C6", "sort_by": []any{map[string]any{"column": "B"}}}, "overlaps the merged cells A3:B3"},
		{"part of a table", func(t *testing.T, f *excelize.File) {
			require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "A1:C6", Name: "T"}))
		}, map[string]any{"cell_range": "A2:B6", "sort_by": []any{map[string]any{"column": "B"}}}, `covers only part of the table "T" (A1:C6)`},
		{"array formula", func(t *testing.T, f *excelize.File) {
			array, ref := excelize.STCellFormulaTypeArray, "D2:D3"
			require.NoError(t, f.SetCellFormula("Sheet1", "D2", "B2:B3*2", excelize.FormulaOpts{Type: &array, Ref: &ref}))
		}, map[string]any{"cell_range": "A2:D6", "sort_by": []any{map[string]any{"column": "B"}}}, "holds the array formula at D2 (D2:D3)"},
		{"error constant", func(t *testing.T, f *excelize.File) {
			require.NoError(t, f.SetCellValue("Sheet1", "C4", "x"))
			setErrorCell(t, f, "Sheet1", "C4", "#N/A")
		}, map[string]any{"cell_range": "A2:C6", "sort_by": []any{map[string]any{"column": "B"}}}, "holds the error value #N/A as a constant"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			analystBook(e)
			if c.prep != nil {
				f := e.open("s.xlsx")
				c.prep(t, f)
				require.NoError(t, f.Save())
			}
			before := fileHash(t, e, "s.xlsx")
			c.args["file_path"] = "s.xlsx"
			got := e.fail("sort_range", c.args)
			assert.Equal(t, "ValueError", got["exception"], got)
			assert.Contains(t, got["message"], c.want)
			assert.Equal(t, before, fileHash(t, e, "s.xlsx"))
		})
	}
}

// setErrorCell turns an existing cell into an error constant (t="e"),
// which excelize has no setter for.
func setErrorCell(t *testing.T, f *excelize.File, sheet, ref, errText string) {
	t.Helper()
	ws, ok := engine.ParsedSheet(f, sheet)
	require.True(t, ok)
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		for j := range row.C {
			if c := &row.C[j]; c.R == ref {
				c.T, c.V = "e", errText
				return
			}
		}
	}
	t.Fatalf("no cell %s", ref)
}

// TestCompareSortIsAnOrder: the comparison sort.SliceStable relies on is a
// strict weak order in both directions (antisymmetric and transitive), with
// blanks last either way, over every kind of value.
func TestCompareSortIsAnOrder(t *testing.T) {
	vals := []sortValue{{class: classBlank}, {class: classError}, {class: classBool}, {class: classBool, num: 1},
		{class: classText, text: []byte{}}, {class: classText, text: []byte("a")}, {class: classText, text: []byte("b")}, {class: classText, text: []byte("10")},
		{class: classNumber, num: -1}, {class: classNumber}, {class: classNumber, num: 2.5}, {class: classError}}
	for _, desc := range []bool{false, true} {
		for _, a := range vals {
			assert.Equal(t, 0, compareSort(a, a, desc))
			for _, b := range vals {
				ab, ba := compareSort(a, b, desc), compareSort(b, a, desc)
				assert.Equal(t, sign(ab), -sign(ba), "%v %v desc=%v", a, b, desc)
				if a.class == classBlank && b.class != classBlank {
					assert.Positive(t, ab, "blanks last")
				}
				for _, c := range vals {
					if ab <= 0 && compareSort(b, c, desc) <= 0 {
						assert.LessOrEqual(t, compareSort(a, c, desc), 0, "%v %v %v desc=%v", a, b, c, desc)
					}
				}
			}
		}
	}
}

// sign is -1, 0 or 1.
func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// TestSortRangeMovesRichText: a cell of rich text (runs with their own
// fonts) moves with its row, its runs and fonts whole, as Excel sorts it.
func TestSortRangeMovesRichText(t *testing.T) {
	e := newEnv(t)
	e.workbook("r.xlsx", [][]any{{2, "plain"}, {1, nil}})
	f := e.open("r.xlsx")
	runs := []excelize.RichTextRun{
		{Text: "bold ", Font: &excelize.Font{Bold: true}},
		{Text: "red", Font: &excelize.Font{Color: "FF0000"}},
	}
	require.NoError(t, f.SetCellRichText("Sheet1", "B2", runs))
	require.NoError(t, f.Save())
	e.ok("sort_range", map[string]any{"file_path": "r.xlsx", "cell_range": "A1:B2",
		"sort_by": []any{map[string]any{"column": "A", "order": "ascending"}}})
	got, err := e.open("r.xlsx").GetCellRichText("Sheet1", "B1")
	require.NoError(t, err)
	require.Len(t, got, 2, "the runs moved to row 1 with their key")
	assert.Equal(t, "bold ", got[0].Text)
	require.NotNil(t, got[0].Font)
	assert.True(t, got[0].Font.Bold)
	assert.Equal(t, "red", got[1].Text)
	require.NotNil(t, got[1].Font)
	assert.Equal(t, "FF0000", got[1].Font.Color)
	assert.Equal(t, "plain", e.value("r.xlsx", "Sheet1", "B2"))
}
