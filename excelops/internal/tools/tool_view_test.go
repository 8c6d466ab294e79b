package tools

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hiddenRows lists the hidden rows 1..n of Sheet1.
func hiddenRows(t *testing.T, f *excelize.File, n int) []int {
	t.Helper()
	var out []int
	for r := 1; r <= n; r++ {
		v, err := f.GetRowVisible("Sheet1", r)
		require.NoError(t, err)
		if !v {
			out = append(out, r)
		}
	}
	return out
}

// filterNames counts the _xlnm._FilterDatabase names of a workbook.
func filterNames(f *excelize.File) int {
	n := 0
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm._FilterDatabase" {
			n++
		}
	}
	return n
}

func TestSetAutofilterHidesWhatDoesNotMatch(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name    string
		filters []any
		hidden  []int
	}{
		{"no criteria", nil, nil},
		{"greater than", []any{map[string]any{"column": "B", "operator": "greaterThan", "value": 25}}, []int{3, 5}},
		{"number given as text", []any{map[string]any{"column": "B", "operator": "lessThanOrEqual", "value": "20"}}, []int{2, 4, 6}},
		{"text equal ignores case", []any{map[string]any{"column": "A", "operator": "equal", "value": "SOUTH"}}, []int{2, 4, 5, 6}},
		{"contains", []any{map[string]any{"column": "A", "operator": "contains", "value": "th"}}, []int{4, 5, 6}},
		{"begins with and a number", []any{
			map[string]any{"column": "A", "operator": "notContains", "value": "e"},
			map[string]any{"column": "C", "operator": "lessThan", "value": 2},
		}, []int{3, 4, 5, 6}},
		{"blanks", []any{map[string]any{"column": "D", "operator": "blanks"}}, []int{4}},
		{"non-blanks", []any{map[string]any{"column": "D", "operator": "nonBlanks"}}, []int{2, 3, 5, 6}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t)
			analystBook(e)
			f := e.open("s.xlsx")
			require.NoError(t, f.SetCellValue("Sheet1", "D1", "note"))
			require.NoError(t, f.SetCellValue("Sheet1", "D4", "check this"))
			require.NoError(t, f.SetSheetProps("Sheet1", &excelize.SheetPropsOptions{TabColorRGB: strPtr("FF0000"), FitToPage: boolPtr(true)}))
			require.NoError(t, f.Save())
			args := map[string]any{"file_path": "s.xlsx", "cell_range": "A1:D6"}
			if c.filters != nil {
				args["filters"] = c.filters
			}
			got := e.ok("set_autofilter", args)
			assert.Equal(t, float64(len(c.hidden)), got["rows_hidden"])
			f = e.open("s.xlsx")
			assert.Equal(t, c.hidden, hiddenRows(t, f, 8))
			assert.Equal(t, 1, filterNames(f))
			props, err := f.GetSheetProps("Sheet1")
			require.NoError(t, err)
			assert.Equal(t, "FF0000", *props.TabColorRGB, "excelize's AutoFilter drops sheetPr: kept")
			assert.True(t, *props.FitToPage)
		})
	}
}

func TestSetAutofilterReplaceAndRemove(t *testing.T) {
	e := newEnv(t)
	analystBook(e)
	e.ok("set_autofilter", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6",
		"filters": []any{map[string]any{"column": "B", "operator": "greaterThan", "value": 35}}})
	assert.Equal(t, []int{2, 3, 5}, hiddenRows(t, e.open("s.xlsx"), 8))

	got := e.ok("set_autofilter", map[string]any{"file_path": "s.xlsx", "cell_range": "A1:C6",
		"filters": []any{map[string]any{"column": "A", "operator": "beginsWith", "value": "we"}}})
	assert.Equal(t, "A1:C6", got["replaced_range"])
	assert.Equal(t, []int{2, 3, 4, 6}, hiddenRows(t, e.open("s.xlsx"), 8), "the old filter's rows are shown again")

	got = e.ok("set_autofilter", map[string]any{"file_path": "s.xlsx", "remove": true})
	assert.Equal(t, "A1:C6", got["removed_range"])
	assert.Equal(t, float64(4), got["rows_shown"], got)
	f := e.open("s.xlsx")
	assert.Empty(t, hiddenRows(t, f, 8))
	assert.Equal(t, 0, filterNames(f))

	got = e.fail("set_autofilter", map[string]any{"file_path": "s.xlsx", "remove": true})
	assert.Contains(t, got["message"], "has no autofilter to remove")
}

func TestSetAutofilterErrors(t *testing.T) {
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "give cell_range"},
		{map[string]any{"remove": true, "cell_range": "A1:C6"}, "takes no cell_range"},
		{map[string]any{"cell_range": "A1:C6", "filters": []any{map[string]any{"column": "E", "operator": "equal", "value": 1}}}, "column E is outside A1:C6"},
		{map[string]any{"cell_range": "A1:C6", "filters": []any{
			map[string]any{"column": "B", "operator": "equal", "value": 1},
			map[string]any{"column": "b", "operator": "lessThan", "value": 9}}}, "column B has a criterion already"},
		{map[string]any{"cell_range": "A1:C6", "filters": []any{map[string]any{"column": "B", "operator": "equal"}}}, "needs a value"},
		{map[string]any{"cell_range": "A1:C6", "filters": []any{map[string]any{"column": "B", "operator": "blanks", "value": 1}}}, "takes no value"},
		{map[string]any{"cell_range": "E1:F6"}, "overlaps the table \"T\""},
	}
	for _, c := range cases {
		t.Run(c.want, func(t *testing.T) {
			e := newEnv(t)
			analystBook(e)
			f := e.open("s.xlsx")
			require.NoError(t, f.SetSheetRow("Sheet1", "F1", &[]any{"a", "b"}))
			require.NoError(t, f.AddTable("Sheet1", &excelize.Table{Range: "F1:G3", Name: "T"}))
			require.NoError(t, f.Save())
			before := fileHash(t, e, "s.xlsx")
			c.args["file_path"] = "s.xlsx"
			got := e.fail("set_autofilter", c.args)
			assert.Equal(t, "ValueError", got["exception"], got)
			assert.Contains(t, got["message"], c.want)
			assert.Equal(t, before, fileHash(t, e, "s.xlsx"))
		})
	}
}

// strPtr and boolPtr point at a value.
func strPtr(s string) *string { return &s }
func boolPtr(b bool) *bool    { return &b }
