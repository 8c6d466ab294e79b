package tools

import (
	"fmt"
	"sort"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// traceBook writes r.xlsx: Data holds numbers and a table Sales; Calc reads
// Data within and across sheets, through a defined name and the table;
// Report reads Calc.
func traceBook(e *env) {
	e.workbook("r.xlsx", [][]any{{"Qty", "Price"}, {1, 10}, {2, 20}, {3, 30}})
	f := e.open("r.xlsx")
	require.NoError(e.t, f.SetSheetName("Sheet1", "Data"))
	require.NoError(e.t, f.AddTable("Data", &excelize.Table{Range: "A1:B4", Name: "Sales"}))
	for r := 2; r <= 4; r++ {
		require.NoError(e.t, f.SetCellFormula("Data", fmt.Sprint("C", r), fmt.Sprintf("A%d*B%d", r, r)))
	}
	for _, s := range []string{"Calc", "My Report"} {
		_, err := f.NewSheet(s)
		require.NoError(e.t, err)
	}
	require.NoError(e.t, f.SetDefinedName(&excelize.DefinedName{Name: "Prices", RefersTo: "Data!$B$2:$B$4"}))
	require.NoError(e.t, f.SetCellFormula("Calc", "A1", "SUM(Data!A2:A4)"))
	require.NoError(e.t, f.SetCellFormula("Calc", "A2", "SUM(Prices)"))
	require.NoError(e.t, f.SetCellFormula("Calc", "A3", "SUM(Sales[Qty])"))
	require.NoError(e.t, f.SetCellFormula("Calc", "A4", "A1+A2"))
	require.NoError(e.t, f.SetCellFormula("My Report", "B1", "Calc!A4*2"))
	require.NoError(e.t, f.Save())
}

// dependentCells renders a list of dependents as sorted "sheet!cell@depth".
func dependentCells(list any) []string {
	out := []string{}
	for _, d := range list.([]any) {
		m := d.(map[string]any)
		out = append(out, fmt.Sprint(m["sheet"], "!", m["cell"], "@", m["depth"]))
	}
	sort.Strings(out)
	return out
}

func TestImpactAnalysis(t *testing.T) {
	cases := []struct {
		name, target, scope string
		direct, indirect    []string
	}{
		{"cell read within, across sheets, by name and by table", "Data!A3", "all",
			[]string{"Calc!A1@1", "Calc!A3@1", "Data!C3@1"}, []string{"Calc!A4@2", "My Report!B1@3"}},
		{"through a defined name only", "Data!B4", "all",
			[]string{"Calc!A2@1", "Data!C4@1"}, []string{"Calc!A4@2", "My Report!B1@3"}},
		{"direct scope stops at the first level", "Data!B4", "direct",
			[]string{"Calc!A2@1", "Data!C4@1"}, []string{}},
		{"quoted sheet target", "'Calc'!A4", "all", []string{"My Report!B1@1"}, []string{}},
		{"a header cell is read by nothing", "Data!A1", "all", []string{}, []string{}},
		{"a range target", "Data!A2:A4", "direct", []string{"Calc!A1@1", "Calc!A3@1", "Data!C2@1", "Data!C3@1", "Data!C4@1"}, []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			traceBook(e)
			got := e.ok("get_impact_analysis", map[string]any{"file_path": "r.xlsx", "target": tc.target, "scope": tc.scope})
			assert.Equal(t, tc.direct, dependentCells(got["direct_impact"]))
			assert.Equal(t, tc.indirect, dependentCells(got["indirect_impact"]))
			assert.Equal(t, true, got["complete"])
		})
	}
}

func TestTraceReferencesPrecedents(t *testing.T) {
	cases := []struct {
		name, target string
		depth        int
		want         []string // display@depth type
	}{
		{"direct", "Calc!A4", 1, []string{"A1@1 cell", "A2@1 cell"}},
		{"through names and ranges", "Calc!A4", 2, []string{"A1@1 cell", "A2@1 cell", "Data!A2:A4@2 range", "Prices@2 name"}},
		{"a table reference", "Calc!A3", 1, []string{"Sales[Qty]@1 table"}},
		{"across a quoted sheet", "'My Report'!B1", 1, []string{"Calc!A4@1 cell"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			traceBook(e)
			got := e.ok("trace_references", map[string]any{"file_path": "r.xlsx", "target": tc.target, "direction": "precedents", "depth": tc.depth})
			var out []string
			for _, p := range got["precedents"].([]any) {
				m := p.(map[string]any)
				out = append(out, fmt.Sprint(m["display"], "@", m["depth"], " ", m["type"]))
			}
			sort.Strings(out)
			assert.Equal(t, tc.want, out)
		})
	}
}

func TestTraceReferencesPagesWithoutSkipping(t *testing.T) {
	e := newEnv(t)
	traceBook(e)
	var seen []string
	offset := 0
	for pages := 0; pages < 10; pages++ {
		got := e.ok("trace_references", map[string]any{"file_path": "r.xlsx", "target": "Data!A3", "depth": 3, "offset": offset, "max_items": 2})
		for _, key := range []string{"precedents", "dependents"} {
			for _, d := range got[key].([]any) {
				seen = append(seen, fmt.Sprint(d))
			}
		}
		if got["has_more"] != true {
			break
		}
		offset = int(got["next_offset"].(float64))
	}
	all := e.ok("trace_references", map[string]any{"file_path": "r.xlsx", "target": "Data!A3", "depth": 3})
	assert.Len(t, seen, len(all["dependents"].([]any))+len(all["precedents"].([]any)))
	assert.Equal(t, 5, len(all["dependents"].([]any)))
}

func TestReferenceToolsRefuseBadArguments(t *testing.T) {
	cases := []struct {
		tool      string
		args      map[string]any
		key, kind string
	}{
		{"trace_references", map[string]any{"target": "Nope!A1"}, "exception", "KeyError"},
		{"trace_references", map[string]any{"target": "Data!ZZZZ1"}, "exception", "ValueError"},
		{"trace_references", map[string]any{"target": "Data!A1", "direction": "up"}, "error_code", "TOOL_ARGUMENT_VALIDATION_ERROR"},
		{"get_impact_analysis", map[string]any{"target": "Data!A1", "scope": "some"}, "error_code", "TOOL_ARGUMENT_VALIDATION_ERROR"},
		{"get_reference_map", map[string]any{"detail": "huge"}, "error_code", "TOOL_ARGUMENT_VALIDATION_ERROR"},
	}
	for _, tc := range cases {
		t.Run(tc.tool+fmt.Sprint(tc.args), func(t *testing.T) {
			e := newEnv(t)
			traceBook(e)
			tc.args["file_path"] = "r.xlsx"
			got := e.fail(tc.tool, tc.args)
			assert.Equal(t, tc.kind, got[tc.key], got)
		})
	}
}

func TestReferenceMap(t *testing.T) {
	e := newEnv(t)
	traceBook(e)
	got := e.ok("get_reference_map", map[string]any{"file_path": "r.xlsx", "detail": "full"})
	edges := map[string]float64{}
	for _, x := range got["cross_sheet_edges"].([]any) {
		m := x.(map[string]any)
		edges[fmt.Sprint(m["source_sheet"], ">", m["target_sheet"], " ", m["ref_type"])] = m["ref_count"].(float64)
	}
	assert.Equal(t, map[string]float64{"Calc>Data range": 1, "Calc>Data name": 1, "Calc>Data table": 1, "My Report>Calc cell": 1}, edges)
	assert.Equal(t, float64(8), got["formula_count"])
	assert.Len(t, got["formulas"], 8)
	assert.Len(t, got["named_ranges"], 1)
	assert.Len(t, got["tables"], 1)
}
