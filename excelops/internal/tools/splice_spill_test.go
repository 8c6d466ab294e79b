package tools

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spillSeed writes a workbook for the spill cases at path: numbers in
// A1:A5, texts in B1:B3, a value in C2 (in the way of a spill from C1), a
// formula in D1 reading E1:F10 (where spills land), and, unless bare, an
// anchor in J1 spilling over J1:J4, a merged range L1:M1, an anchor in H1
// filtering A1:A5 over H1:H3 (a value in H5), a formula in I1 reading its
// spill, an anchor in N1 showing #SPILL! (a value in N2), all written
// through the excelize path (so the file holds the dynamic array metadata
// Excel writes).
func spillSeed(t *testing.T, path string, bare bool) {
	t.Helper()
	e := newEnvOf(t, filepath.Dir(path), []string{"write_cells", "merge_cells"}, WithSplice(false))
	name := filepath.Base(path)
	e.workbook(name, [][]any{{3, "b", nil, "=SUM(E1:F10)"}, {1, "a", "in the way"}, {4, "b"}, {1}, {5}})
	if bare {
		return
	}
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "J1", "value": "=SEQUENCE(4)"})
	e.ok("merge_cells", map[string]any{"file_path": name, "cell_range": "L1:M1"})
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "H5", "value": "stop"})
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "H1", "value": "=FILTER(A1:A5,A1:A5>2)"})
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "I1", "value": "=SUM(H1:H4)"})
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "N2", "value": "block"})
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "N1", "value": "=SEQUENCE(2)"})
}

// anchorRefs lists the dynamic array anchors of the sheet's first rows and
// columns as "cell ref" strings.
func anchorRefs(t *testing.T, f *excelize.File, sheet string, rows, cols int) []string {
	t.Helper()
	ws, err := f.Worksheet(sheet)
	require.NoError(t, err)
	var out []string
	for r := 1; r <= rows; r++ {
		for c := 1; c <= cols; c++ {
			if spill, ok := recalc.DynamicAnchor(recalc.SheetCell(ws, c, r)); ok {
				out = append(out, grid.CellName(c, r)+" "+spill.String())
			}
		}
	}
	return out
}

// TestSpliceSpillsAsTheExcelizePathDoes: write_cells of a formula that may
// spill takes the splice path, and leaves the workbook cell for cell as the
// excelize path leaves it (values, formulas, types, the anchors and their
// ranges, the formula reading the spill recomputed), #SPILL! included, an
// overwritten anchor's old spill cleared, an anchor reading the write or
// whose spill the write lands in spilled again, one showing #SPILL! spilled
// once its way is clear; a spill over a merged range is
// the one case left to the excelize path, with its reason.
func TestSpliceSpillsAsTheExcelizePathDoes(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	for _, c := range []struct {
		name   string
		bare   bool
		args   map[string]any
		want   string // the anchor the splice writes, "cell ref"
		reason string // "" when the write splices
	}{
		{"SEQUENCE into an empty column", false, map[string]any{"cell": "E1", "value": "=SEQUENCE(3)"}, "E1 E1:E3", ""},
		{"SEQUENCE in a workbook without metadata", true, map[string]any{"cell": "E1", "value": "=SEQUENCE(3)"}, "E1 E1:E3", ""},
		{"two dimensions", false, map[string]any{"cell": "E2", "value": "=SEQUENCE(2,2,10,5)"}, "E2 E2:F3", ""},
		{"range arithmetic", false, map[string]any{"cell": "F1", "value": "=A1:A5*2"}, "F1 F1:F5", ""},
		{"FILTER", true, map[string]any{"cell": "E1", "value": "=FILTER(A1:A5,A1:A5>2)"}, "E1 E1:E3", ""},
		{"UNIQUE texts", false, map[string]any{"cell": "E1", "value": "=UNIQUE(B1:B3)"}, "E1 E1:E2", ""},
		{"one value of range arithmetic", false, map[string]any{"cell": "E1", "value": "=SUM(A1:A5*2)"}, "E1 E1", ""},
		{"blocked by a value", false, map[string]any{"cell": "C1", "value": "=SEQUENCE(3)"}, "C1 C1", ""},
		{"blocked by the call's own write", false, map[string]any{"cell_range": "E1", "values": [][]any{{"=SEQUENCE(2)"}, {"x"}}}, "E1 E1", ""},
		{"a value over an anchor", false, map[string]any{"cell": "J1", "value": 7}, "", ""},
		{"a shorter spill over an anchor", false, map[string]any{"cell": "J1", "value": "=SEQUENCE(2,1,9)"}, "J1 J1:J2", ""},
		{"a value a dynamic array reads", false, map[string]any{"cell": "A2", "value": 10}, "H1 H1:H4", ""},
		{"a value that shrinks a dynamic array", false, map[string]any{"cell": "A1", "value": 0}, "H1 H1:H2", ""},
		{"a value into a spill", false, map[string]any{"cell": "H2", "value": "x"}, "H1 H1", ""},
		{"a spill grown into a value", false, map[string]any{"cell_range": "A2", "values": [][]any{{10}, {4}, {10}}}, "H1 H1", ""},
		{"a formula over a dynamic array's reads", false, map[string]any{"cell": "A4", "value": "=A5*2"}, "H1 H1:H4", ""},
		{"a value that clears the way of a #SPILL!", false, map[string]any{"cell_range": "N2", "values": [][]any{{nil}}}, "N1 N1:N2", ""},
		{"a value beside a #SPILL!", false, map[string]any{"cell": "E7", "value": 1}, "N1 N1", ""},
		{"a spill and a formula in one write", false, map[string]any{"cell_range": "E1", "values": [][]any{{"=A1:A2*3", "=SUM(A1:A5)+E2"}}}, "E1 E1:E2", ""},
		{"a formula reading a dynamic array", false, map[string]any{"cell": "I2", "value": "=SUM(H1:H3)*2"}, "H1 H1:H3", ""},
		// A spill reference (H1#, ANCHORARRAY) reads its anchor's recorded
		// spill (splice_spill_refs_test.go has more).
		{"a formula reading a spill reference", false, map[string]any{"cell": "I2", "value": "=SUM(H1#)+COUNT(J1#)"}, "H1 H1:H3", ""},
		{"over a merged range", false, map[string]any{"cell": "K1", "value": "=SEQUENCE(1,3)"}, "", "a merged range meets a spill range"},
	} {
		t.Run(c.name, func(t *testing.T) {
			seed := filepath.Join(t.TempDir(), "seed.xlsx")
			spillSeed(t, seed, c.bare)
			books, spliced := writeOnBothPaths(t, seed, c.args, func(on bool, path string) {
				if on && c.reason == "" && c.want != "" {
					assert.Contains(t, part(t, path, "[Content_Types].xml"), excelize.ContentTypeSheetMetadata)
					assert.Contains(t, part(t, path, "xl/_rels/workbook.xml.rels"), excelize.SourceRelationshipSheetMetadata)
				}
			})
			assert.Equal(t, c.reason == "", spliced, "took the splice path")
			requireSameCells(t, books[true], books[false], []string{"Sheet1"}, 12, 14, false, c.name)
			got, want := anchorRefs(t, books[true], "Sheet1", 12, 14), anchorRefs(t, books[false], "Sheet1", 12, 14)
			assert.Equal(t, want, got, "the anchors")
			if c.reason == "" {
				// Values were computed: recalculated on open, as the other
				// recalc splices mark it.
				props, err := books[true].GetCalcProps()
				require.NoError(t, err)
				assert.True(t, props.FullCalcOnLoad != nil && *props.FullCalcOnLoad, "recalculated on open")
			}
			if c.want != "" && c.reason == "" {
				assert.Contains(t, got, c.want)
			}
			assert.Equal(t, c.reason, fallbackOf(t, seed, c.args), "the fallback's reason")
			for _, f := range books {
				require.NoError(t, f.Close())
			}
		})
	}
}

// TestSpliceSpillWritesExcelsAnchor: the anchor the splice path writes is
// the element Excel writes (cm="1", <f t="array" ref=...>), the formula
// with its file prefix and the first value cached.
func TestSpliceSpillWritesExcelsAnchor(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	spillSeed(t, seed, true)
	e := newEnvOf(t, filepath.Dir(seed), []string{"write_cells"})
	e.ok("write_cells", map[string]any{"file_path": "seed.xlsx", "cell": "E1", "value": "=SEQUENCE(3)"})
	sheet := part(t, seed, "xl/worksheets/sheet1.xml")
	assert.True(t, strings.Contains(sheet, `<c r="E1" cm="1"><f t="array" ref="E1:E3">_xlfn.SEQUENCE(3)</f><v>1</v></c>`), sheet)
	assert.Contains(t, part(t, seed, "xl/metadata.xml"), `<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/>`)
}
