package tools

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spillBook writes the workbook the spill tests start from: A1:A5 3, 1, 3,
// 2, 1; B1:B3 pens, pads, ink.
func spillBook(e *env) string {
	return e.workbook("s.xlsx", [][]any{{3, "pens"}, {1, "pads"}, {3, "ink"}, {2}, {1}})
}

// TestWriteCellsSpills writes spilling formulas and checks every cell of
// the spill range (the anchor's cached value included), the anchor's XML
// as Excel 365 writes it, and the cells left empty around it.
func TestWriteCellsSpills(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name, cell, formula, anchorXML string
		want                           map[string]string // cell -> value ("" must be empty)
	}{
		{"sequence column", "D1", "=SEQUENCE(3)",
			`<c r="D1" cm="1"><f t="array" ref="D1:D3">_xlfn.SEQUENCE(3)</f><v>1</v></c>`,
			map[string]string{"D1": "1", "D2": "2", "D3": "3", "D4": "", "E1": ""}},
		{"sequence block", "D2", "=SEQUENCE(2,3,10,-2.5)",
			`<c r="D2" cm="1"><f t="array" ref="D2:F3">_xlfn.SEQUENCE(2,3,10,-2.5)</f><v>10</v></c>`,
			map[string]string{"D2": "10", "E2": "7.5", "F2": "5", "D3": "2.5", "E3": "0", "F3": "-2.5", "G2": "", "D4": ""}},
		{"unique", "D1", "=UNIQUE(A1:A5)",
			`<c r="D1" cm="1"><f t="array" ref="D1:D3">_xlfn.UNIQUE(A1:A5)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "D2": "1", "D3": "2", "D4": ""}},
		{"transpose of text", "D1", "=TRANSPOSE(B1:B3)",
			`<c r="D1" t="str" cm="1"><f t="array" ref="D1:F1">TRANSPOSE(B1:B3)</f><v>pens</v></c>`,
			map[string]string{"D1": "pens", "E1": "pads", "F1": "ink", "G1": ""}},
		{"take", "D1", "=TAKE(A1:B5,-2,1)",
			`<c r="D1" cm="1"><f t="array" ref="D1:D2">_xlfn.TAKE(A1:B5,-2,1)</f><v>2</v></c>`,
			map[string]string{"D1": "2", "D2": "1", "E1": ""}},
		{"filter", "D1", "=FILTER(B1:B3,{1;0;1})",
			`<c r="D1" t="str" cm="1"><f t="array" ref="D1:D2">_xlfn._xlws.FILTER(B1:B3,{1;0;1})</f><v>pens</v></c>`,
			map[string]string{"D1": "pens", "D2": "ink", "D3": ""}},
		{"filter with a comparison", "D1", "=FILTER(A1:A3,A1:A3>2,A1:A3)",
			`<c r="D1" cm="1"><f t="array" ref="D1:D2">_xlfn._xlws.FILTER(A1:A3,A1:A3&gt;2,A1:A3)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "D2": "3", "D3": ""}},
		{"operator on a range", "D1", "=A1:A5*10",
			`<c r="D1" cm="1"><f t="array" ref="D1:D5">A1:A5*10</f><v>30</v></c>`,
			map[string]string{"D1": "30", "D2": "10", "D3": "30", "D4": "20", "D5": "10", "D6": ""}},
		{"array constants broadcast", "D1", "={1,2}+{10;20}",
			`<c r="D1" cm="1"><f t="array" ref="D1:E2">{1,2}+{10;20}</f><v>11</v></c>`,
			map[string]string{"D1": "11", "E1": "12", "D2": "21", "E2": "22", "F1": "", "D3": ""}},
		// One value, but a plain formula would intersect the ranges: an
		// array formula over its own cell, as Excel 365 stores it.
		{"sum of products", "D1", "=SUM(A1:A5*A1:A5)",
			`<c r="D1" cm="1"><f t="array" ref="D1">SUM(A1:A5*A1:A5)</f><v>24</v></c>`,
			map[string]string{"D1": "24", "D2": ""}},
		// An omitted argument takes its default (sort by the first column).
		{"sort with an omitted argument", "D1", "=SORT(A1:B5,,-1)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E5">_xlfn._xlws.SORT(A1:B5,,-1)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "E1": "pens", "D2": "3", "E2": "ink", "D3": "2", "D5": "1", "D6": ""}},
		// A blank cell of the result shows 0, as in Excel and LibreOffice.
		{"sort", "D1", "=SORT(A1:B5,1,-1)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E5">_xlfn._xlws.SORT(A1:B5,1,-1)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "E1": "pens", "D2": "3", "E2": "ink", "D3": "2", "E3": "0", "D5": "1", "E5": "0", "D6": ""}},
		{"textsplit", "D1", `=TEXTSPLIT("a,b;c",",",";")`,
			`<c r="D1" t="str" cm="1"><f t="array" ref="D1:E2">_xlfn.TEXTSPLIT(`,
			map[string]string{"D1": "a", "E1": "b", "D2": "c", "E2": "#N/A", "F1": "", "D3": ""}},
		{"wraprows", "D1", "=WRAPROWS(A1:A5,2)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E3">_xlfn.WRAPROWS(A1:A5,2)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "E1": "1", "D2": "3", "E2": "2", "D3": "1", "E3": "#N/A", "D4": ""}},
		{"trimrange", "D1", "=TRIMRANGE(A1:B9)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E5">_xlfn.TRIMRANGE(A1:B9)</f><v>3</v></c>`,
			map[string]string{"D1": "3", "E1": "pens", "E3": "ink", "E4": "0", "D5": "1", "E5": "0", "D6": "", "F1": ""}},
		{"map", "D1", "=MAP(A1:A3,LAMBDA(x,x*2))",
			`<c r="D1" cm="1"><f t="array" ref="D1:D3">_xlfn.MAP(A1:A3,_xlfn.LAMBDA(_xlpm.x,_xlpm.x*2))</f><v>6</v></c>`,
			map[string]string{"D1": "6", "D2": "2", "D3": "6", "D4": ""}},
		{"scan", "D1", "=SCAN(0,A1:A5,LAMBDA(a,v,a+v))",
			`<c r="D1" cm="1"><f t="array" ref="D1:D5">_xlfn.SCAN(0,A1:A5,_xlfn.LAMBDA(_xlpm.a,_xlpm.v,_xlpm.a+_xlpm.v))</f><v>3</v></c>`,
			map[string]string{"D1": "3", "D2": "4", "D3": "7", "D4": "9", "D5": "10", "D6": ""}},
		{"makearray", "D1", "=MAKEARRAY(2,3,LAMBDA(r,c,r*10+c))",
			`<c r="D1" cm="1"><f t="array" ref="D1:F2">_xlfn.MAKEARRAY(2,3,_xlfn.LAMBDA(_xlpm.r,_xlpm.c,_xlpm.r*10+_xlpm.c))</f><v>11</v></c>`,
			map[string]string{"D1": "11", "E1": "12", "F1": "13", "D2": "21", "F2": "23", "G1": "", "D3": ""}},
		{"bycol of a let", "D1", "=LET(m,A1:B5,BYCOL(m,LAMBDA(c,COUNTA(c))))",
			`<c r="D1" cm="1"><f t="array" ref="D1:E1">_xlfn.LET(_xlpm.m,A1:B5,_xlfn.BYCOL(_xlpm.m,_xlfn.LAMBDA(_xlpm.c,COUNTA(_xlpm.c))))</f><v>5</v></c>`,
			map[string]string{"D1": "5", "E1": "3", "F1": ""}},
		{"reduce to one value does not spill", "D1", "=REDUCE(1,A1:A5,LAMBDA(a,v,a*v))",
			`<c r="D1"><f>_xlfn.REDUCE(1,A1:A5,_xlfn.LAMBDA(_xlpm.a,_xlpm.v,_xlpm.a*_xlpm.v))</f><v>18</v></c>`,
			map[string]string{"D1": "18", "D2": ""}},
		// A function named bare is stored as Excel stores it: _xleta.COUNT.
		// A1:A5 holds 3, 1, 3, 2, 1: two 1s, one 2, two 3s, five in all.
		{"groupby with an eta lambda", "D1", "=GROUPBY(A1:A5,A1:A5,COUNT)",
			`<c r="D1" cm="1"><f t="array" ref="D1:E4">_xlfn.GROUPBY(A1:A5,A1:A5,_xleta.COUNT)</f><v>1</v></c>`,
			map[string]string{"D1": "1", "E1": "2", "D2": "2", "E2": "1", "D3": "3", "E3": "2", "D4": "Total", "E4": "5", "D5": ""}},
		{"filterxml nodes", "D1", `=FILTERXML("<a><b>x</b><b>y</b></a>","//b")`,
			`<c r="D1" t="str" cm="1"><f t="array" ref="D1:D2">_xlfn.FILTERXML(`,
			map[string]string{"D1": "x", "D2": "y", "D3": ""}},
		{"one value does not spill", "D1", "=SUM(SEQUENCE(4))",
			`<c r="D1"><f>SUM(_xlfn.SEQUENCE(4))</f><v>10</v></c>`,
			map[string]string{"D1": "10", "D2": ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			spillBook(e)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": tc.cell, "value": tc.formula})
			assert.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), tc.anchorXML)
			f := e.open("s.xlsx")
			for cell, want := range tc.want {
				got, err := f.GetCellValue("Sheet1", cell)
				require.NoError(t, err)
				assert.Equal(t, want, got, cell)
			}
		})
	}
}

// TestWriteCellsSpillMetadata checks the workbook a spill leaves: the
// metadata part with the dynamic array record, referenced once by the
// workbook's relationships and the content types however many anchors;
// and that openpyxl-free readers (read_excel) see the spilled values.
func TestWriteCellsSpillMetadata(t *testing.T) {
	e := newEnv(t)
	spillBook(e)
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(2)"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell_range": "F1", "values": [][]any{{"=SEQUENCE(1,2)"}}})
	path := e.path("s.xlsx")
	md := part(t, path, "xl/metadata.xml")
	assert.Contains(t, md, `<metadataType name="XLDAPR"`)
	assert.Contains(t, md, `<xda:dynamicArrayProperties fDynamic="1" fCollapsed="0"/>`)
	assert.Contains(t, md, `<cellMetadata count="1"><bk><rc t="1" v="0"/></bk></cellMetadata>`)
	rels := part(t, path, "xl/_rels/workbook.xml.rels")
	assert.Equal(t, 1, strings.Count(rels, `Target="metadata.xml" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sheetMetadata"`), rels)
	types := part(t, path, "[Content_Types].xml")
	assert.Equal(t, 1, strings.Count(types, `<Override PartName="/xl/metadata.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheetMetadata+xml">`), types)
	assert.Contains(t, part(t, path, "xl/worksheets/sheet1.xml"), `<c r="F1" cm="1"><f t="array" ref="F1:G1">`)

	got := e.ok("read_excel", map[string]any{"file_path": "s.xlsx", "cell_range": "D1:G2"})
	assert.Equal(t, []any{[]any{1.0, nil, 1.0, 2.0}, []any{2.0, nil, nil, nil}}, got["values"], got)
}

// TestWriteCellsSpillBlocked checks #SPILL!: a cell of the spill range
// holding a value, a formula, one written in the same call, a merged range
// over it, or the sheet's edge leaves the anchor #SPILL! (an error value)
// with ref the anchor alone, and writes nothing around it; a later write
// elsewhere keeps the #SPILL!.
func TestWriteCellsSpillBlocked(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name  string
		setup func(e *env)
		write map[string]any
		empty []string // cells that must stay empty
	}{
		{"value below", func(e *env) {
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D3", "value": "x"})
		}, map[string]any{"cell": "D1", "value": "=SEQUENCE(3)"}, []string{"D2"}},
		{"formula below", func(e *env) {
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D2", "value": "=A1"})
		}, map[string]any{"cell": "D1", "value": "=SEQUENCE(3)"}, []string{"D3"}},
		{"written in the same call", nil,
			map[string]any{"cell_range": "D1", "values": [][]any{{"=SEQUENCE(3)"}, {nil}, {7}}}, []string{"D2"}},
		{"merged range", func(e *env) {
			e.ok("merge_cells", map[string]any{"file_path": "s.xlsx", "cell_range": "E2:F2"})
		}, map[string]any{"cell": "D1", "value": "=SEQUENCE(3,3)"}, []string{"D2", "E1", "D3"}},
		{"past the sheet's edge", nil,
			map[string]any{"cell": "D1048575", "value": "=SEQUENCE(3)"}, []string{"D1048576"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t)
			spillBook(e)
			if tc.setup != nil {
				tc.setup(e)
			}
			args := map[string]any{"file_path": "s.xlsx"}
			for k, v := range tc.write {
				args[k] = v
			}
			e.ok("write_cells", args)
			anchor := "D1"
			if c, ok := tc.write["cell"].(string); ok {
				anchor = c
			}
			re := regexp.MustCompile(`<c r="` + anchor + `" t="e" cm="1"><f t="array" ref="` + anchor + `">_xlfn.SEQUENCE\([0-9,]+\)</f><v>#SPILL!</v></c>`)
			assert.Regexp(t, re, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"))
			for _, c := range tc.empty {
				assert.Equal(t, "", e.value("s.xlsx", "Sheet1", c), c)
			}
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "A1", "value": 9})
			assert.Regexp(t, re, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), "a later write keeps #SPILL!")
		})
	}
}

// TestWriteCellsSpillRewrite checks writes over an anchor: a new spilling
// formula replaces the old spill (no #SPILL! from the values it left), a
// value clears the spilled cells and the cell metadata; formulas reading
// the spill range are recomputed.
func TestWriteCellsSpillRewrite(t *testing.T) {
	e := newEnv(t)
	spillBook(e)
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "F1", "value": "=SUM(D1:D4)"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(4)"})
	assert.Equal(t, "10", e.value("s.xlsx", "Sheet1", "F1"), "a formula reading the spill range is recomputed")
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "F2", "value": "=D3*10"})
	assert.Equal(t, "30", e.value("s.xlsx", "Sheet1", "F2"), "a spilled cell reads as its value")

	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(2,1,5)"})
	sheet := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="D1" cm="1"><f t="array" ref="D1:D2">_xlfn.SEQUENCE(2,1,5)</f><v>5</v></c>`)
	for cell, want := range map[string]string{"D2": "6", "D3": "", "D4": "", "F1": "11", "F2": "0"} {
		assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cell), cell)
	}

	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": 42})
	sheet = part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="D1"><v>42</v></c>`)
	assert.NotContains(t, sheet, `cm="1"`)
	assert.Equal(t, "", e.value("s.xlsx", "Sheet1", "D2"))
	assert.Equal(t, "42", e.value("s.xlsx", "Sheet1", "F1"))
}

// TestWriteCellsSpillNoStringTable checks a spill into a workbook without a
// shared string table: the workbook's relationships and content types,
// written anew for the metadata part, name exactly the parts the package
// holds (excelize makes an empty string table up when it reads cells; it
// is saved with them).
func TestWriteCellsSpillNoStringTable(t *testing.T) {
	e := newEnv(t)
	e.workbook("n.xlsx", [][]any{{3}, {1}})
	require.NotContains(t, part(t, e.path("n.xlsx"), "[Content_Types].xml"), "sharedStrings")
	e.ok("write_cells", map[string]any{"file_path": "n.xlsx", "cell": "C1", "value": "=SEQUENCE(2)"})
	path := e.path("n.xlsx")
	assert.Contains(t, part(t, path, "xl/_rels/workbook.xml.rels"), "metadata.xml")
	// The content types and relationships name every part the zip holds
	// (an empty shared string table excelize made up included) and no
	// other: openpyxl refuses a relationship to a missing part.
	assertPackageNamesEveryPart(t, readFile(t, path))
	assert.Equal(t, "2", e.value("n.xlsx", "Sheet1", "C2"))
}

// TestWriteCellsSpillLimit checks a spill counts against MaxWriteCells like
// a block of values: past it the call fails (MemoryError) and nothing is
// written; within it, the whole spill is written.
func TestWriteCellsSpillLimit(t *testing.T) {
	e := newEnv(t, WithLimits(limits.Limits{MaxWriteCells: 100}))
	spillBook(e)
	before := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
	got := e.fail("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(101)"})
	assert.Equal(t, "MemoryError", got["exception"], got)
	assert.Contains(t, got["message"], "spills over 101 cells, more than the limit of 100")
	assert.Equal(t, before, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"))
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(10,10)"})
	assert.Equal(t, "100", e.value("s.xlsx", "Sheet1", "M10"))
}

// TestWriteCellsRespill checks a dynamic array spills again when
// write_cells edits the cells it reads: its values are updated, its range
// grows or shrinks (cells it no longer covers are cleared), an obstructed
// new range makes it #SPILL!, and formulas reading the spill follow.
func TestWriteCellsRespill(t *testing.T) {
	skipUnderRace(t)
	e := newEnv(t)
	spillBook(e) // A1:A5 3, 1, 3, 2, 1
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=UNIQUE(A1:A5)"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "F1", "value": "=SUM(D1:D6)"})
	steps := []struct {
		cell  string
		value any
		ref   string
		want  []string // D1:D6
		sum   string
	}{
		{"A2", 7, "D1:D4", []string{"3", "7", "2", "1", "", ""}, "13"},
		{"A4", 3, "D1:D3", []string{"3", "7", "1", "", "", ""}, "11"},
		{"A5", 3, "D1:D2", []string{"3", "7", "", "", "", ""}, "10"},
	}
	for _, s := range steps {
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": s.cell, "value": s.value})
		assert.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), `<f t="array" ref="`+s.ref+`">_xlfn.UNIQUE(A1:A5)</f>`, s.cell)
		for i, want := range s.want {
			cell := grid.CellName(4, i+1)
			assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cell), "%s after %s", cell, s.cell)
		}
		assert.Equal(t, s.sum, e.value("s.xlsx", "Sheet1", "F1"), "after %s", s.cell)
	}
	// A value under the spill, then an edit that needs that cell: #SPILL!.
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D3", "value": "x"})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "A5", "value": 9})
	sheet := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
	assert.Contains(t, sheet, `<c r="D1" t="e" cm="1"><f t="array" ref="D1">_xlfn.UNIQUE(A1:A5)</f><v>#SPILL!</v></c>`)
	assert.Equal(t, "", e.value("s.xlsx", "Sheet1", "D2"), "a blocked spill clears what it spilled")
	assert.Equal(t, "x", e.value("s.xlsx", "Sheet1", "D3"))
	// Cleared, the range takes the spill at the next change of what it reads.
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D3", "value": nil})
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "A4", "value": 4})
	assert.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), `<c r="D1" cm="1"><f t="array" ref="D1:D4">_xlfn.UNIQUE(A1:A5)</f><v>3</v></c>`)
	for i, want := range []string{"3", "7", "4", "9"} {
		assert.Equal(t, want, e.value("s.xlsx", "Sheet1", grid.CellName(4, i+1)))
	}
}

// TestSpillUnblocked checks that a #SPILL! anchor spills as soon as an edit
// clears its way, as Excel 365 does, whichever tool clears it and on both
// write paths; an edit that leaves the way blocked leaves the #SPILL!.
func TestSpillUnblocked(t *testing.T) {
	skipUnderRace(t)
	blocked := `<c r="D1" t="e" cm="1"><f t="array" ref="D1">_xlfn.SEQUENCE(3)</f><v>#SPILL!</v></c>`
	cases := []struct {
		name    string
		opts    []Option
		tool    string
		args    map[string]any
		spilled bool
	}{
		{"write_cells null by splice", nil, "write_cells", map[string]any{"cell": "D3", "value": nil}, true},
		{"write_cells null by excelize", []Option{WithSplice(false)}, "write_cells", map[string]any{"cell": "D3", "value": nil}, true},
		{"clear_range", nil, "clear_range", map[string]any{"cell_range": "C3:D3"}, true},
		{"delete_rows", nil, "delete_rows", map[string]any{"row": 3}, true},
		{"still blocked", nil, "write_cells", map[string]any{"cell": "D3", "value": 5}, false},
		{"elsewhere", nil, "write_cells", map[string]any{"cell": "F9", "value": 5}, false},
		{"still blocked by excelize", []Option{WithSplice(false)}, "write_cells", map[string]any{"cell": "D3", "value": 5}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.opts...)
			spillBook(e)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D3", "value": "x"})
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(3)"})
			require.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), blocked)
			args := map[string]any{"file_path": "s.xlsx"}
			for k, v := range tc.args {
				args[k] = v
			}
			e.ok(tc.tool, args)
			sheet := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
			if !tc.spilled {
				assert.Contains(t, sheet, blocked)
				return
			}
			assert.Contains(t, sheet, `<c r="D1" cm="1"><f t="array" ref="D1:D3">_xlfn.SEQUENCE(3)</f><v>1</v></c>`)
			for i, want := range []string{"1", "2", "3"} {
				assert.Equal(t, want, e.value("s.xlsx", "Sheet1", grid.CellName(4, i+1)))
			}
		})
	}
}

// TestSpillIntruded checks that a value written into a spilled cell (not
// the anchor) turns the anchor into #SPILL!, as Excel 365 shows it: the
// other spilled values go, the written value stays; clearing it spills
// again.
func TestSpillIntruded(t *testing.T) {
	for _, opts := range [][]Option{nil, {WithSplice(false)}} {
		e := newEnv(t, opts...)
		spillBook(e)
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=SEQUENCE(3)"})
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D2", "value": "mine"})
		sheet := part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml")
		assert.Contains(t, sheet, `<c r="D1" t="e" cm="1"><f t="array" ref="D1">_xlfn.SEQUENCE(3)</f><v>#SPILL!</v></c>`)
		assert.Equal(t, "mine", e.value("s.xlsx", "Sheet1", "D2"))
		assert.Equal(t, "", e.value("s.xlsx", "Sheet1", "D3"), "the rest of the spill goes")
		e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D2", "value": nil})
		for i, want := range []string{"1", "2", "3"} {
			assert.Equal(t, want, e.value("s.xlsx", "Sheet1", grid.CellName(4, i+1)))
		}
	}
}

// TestWriteCellsRandArray checks RANDARRAY spills numbers of its shape and
// bounds, and is volatile: an edit of a cell it does not read draws new
// numbers, spilled again over its range.
func TestWriteCellsRandArray(t *testing.T) {
	e := newEnv(t)
	spillBook(e)
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "D1", "value": "=RANDARRAY(3,2,10,99,TRUE)"})
	draw := func() string {
		assert.Contains(t, part(t, e.path("s.xlsx"), "xl/worksheets/sheet1.xml"), `<f t="array" ref="D1:E3">_xlfn.RANDARRAY(3,2,10,99,TRUE)</f>`)
		var all []string
		for r := 1; r <= 3; r++ {
			for c := 4; c <= 5; c++ {
				v := e.value("s.xlsx", "Sheet1", grid.CellName(c, r))
				n, err := strconv.Atoi(v)
				require.NoError(t, err, "%s is a whole number: %q", grid.CellName(c, r), v)
				assert.True(t, n >= 10 && n <= 99, "%s = %d", grid.CellName(c, r), n)
				all = append(all, v)
			}
		}
		assert.Equal(t, "", e.value("s.xlsx", "Sheet1", "D4"))
		assert.Equal(t, "", e.value("s.xlsx", "Sheet1", "F1"))
		return strings.Join(all, ",")
	}
	first := draw()
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "H9", "value": 1})
	second := draw()
	e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "H9", "value": 2})
	assert.False(t, first == second && second == draw(), "three draws of six numbers in 10..99 are not all equal")
}

// TestSpillsThroughStructuralEdits checks rows and columns inserted or
// deleted around and inside a spill, as Excel 365 shows them: the anchor
// moves, its spill fills its range again from the anchor (an inserted or
// deleted row inside it leaves no gap and no stray value), a deleted anchor
// takes its spilled values along, and a spill reference follows.
func TestSpillsThroughStructuralEdits(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		tool string
		args map[string]any
		want map[string]string // cell -> value ("" empty)
		sum  string            // A1, =SUM(C3#) moved with the anchor
	}{
		{"insert_rows", map[string]any{"row": 4}, map[string]string{"C3": "1", "C4": "2", "C5": "3", "C6": ""}, "6"},
		{"insert_rows", map[string]any{"row": 2}, map[string]string{"C3": "", "C4": "1", "C5": "2", "C6": "3"}, "6"},
		{"insert_rows", map[string]any{"row": 6}, map[string]string{"C3": "1", "C4": "2", "C5": "3", "C6": ""}, "6"},
		{"delete_rows", map[string]any{"row": 4}, map[string]string{"C3": "1", "C4": "2", "C5": "3", "C6": ""}, "6"},
		{"delete_rows", map[string]any{"row": 2}, map[string]string{"C2": "1", "C3": "2", "C4": "3", "C5": ""}, "6"},
		{"delete_rows", map[string]any{"row": 3}, map[string]string{"C3": "", "C4": "", "C5": ""}, "#REF!"},
		{"insert_columns", map[string]any{"column": "C"}, map[string]string{"C3": "", "D3": "1", "D4": "2", "D5": "3"}, "6"},
		{"delete_columns", map[string]any{"column": "C"}, map[string]string{"B3": "", "C3": "", "C4": "", "C5": ""}, "#REF!"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%s %v", tc.tool, tc.args), func(t *testing.T) {
			e := newEnv(t)
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "C3", "value": "=SEQUENCE(3)"})
			e.ok("write_cells", map[string]any{"file_path": "s.xlsx", "cell": "A1", "value": "=SUM(C3#)"})
			args := map[string]any{"file_path": "s.xlsx"}
			for k, v := range tc.args {
				args[k] = v
			}
			e.ok(tc.tool, args)
			for cell, want := range tc.want {
				assert.Equal(t, want, e.value("s.xlsx", "Sheet1", cell), cell)
			}
			assert.Equal(t, tc.sum, e.value("s.xlsx", "Sheet1", "A1"))
		})
	}
}
