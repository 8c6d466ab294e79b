package tools

import (
	"archive/zip"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splicepath"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpliceWritesIntoMergedRanges: excelize writes a value aimed at a
// hidden cell of a merged range into the range's top-left cell, so the
// splice path declines such a write (Plan.OutsideMerges) and both paths
// agree; the top-left cell itself, and cells beside the range, splice.
func TestSpliceWritesIntoMergedRanges(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	f := excelize.NewFile()
	require.NoError(t, f.SetCellValue("Sheet1", "F1", "merged"))
	require.NoError(t, f.SetCellFormula("Sheet1", "A1", "F1&\"!\""))
	require.NoError(t, f.MergeCell("Sheet1", "F1", "G2"))
	require.NoError(t, f.SaveAs(seed))
	require.NoError(t, f.Close())
	for _, c := range []struct {
		args   map[string]any
		splice bool
	}{
		{map[string]any{"cell": "G2", "value": 5}, false},
		{map[string]any{"cell_range": "E2", "values": [][]any{{1, 2}}}, false},
		{map[string]any{"cell": "F1", "value": "=1+2"}, true},
		{map[string]any{"cell_range": "H1", "values": [][]any{{1}, {2}}}, true},
	} {
		assert.Equal(t, c.splice, writeBothWays(t, seed, c.args, []string{"Sheet1"}), "%v took the splice path", c.args)
	}
}

// TestSpliceKeepsTheCalcChainTrue: a workbook saved by Excel lists its
// formula cells in xl/calcChain.xml. A formula written over a formula, or
// beside, keeps that list true; a value written over a formula drops the
// cell's entry (else Excel offers to repair the file), as the excelize
// path drops it: both paths leave the same chain. A chain left empty
// would have to go: that write takes the excelize path.
func TestSpliceKeepsTheCalcChainTrue(t *testing.T) {
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	formulaBook(t, seed, "")
	addChain(t, seed, `<c r="B1" i="1"/><c r="E1"/><c r="E2"/><c r="E3"/><c r="A1" i="2"/>`)
	sheets := []string{"Sheet1", "Other"}
	for _, c := range []struct {
		args   map[string]any
		splice bool
		chain  string // the chain the splice leaves (sheetId!cell)
	}{
		{map[string]any{"cell": "B1", "value": "=A1*10"}, true, "1!B1 1!E1 1!E2 1!E3 2!A1"},
		{map[string]any{"cell": "A2", "value": 9}, true, "1!B1 1!E1 1!E2 1!E3 2!A1"},
		{map[string]any{"cell": "B1", "value": 0}, true, "1!E1 1!E2 1!E3 2!A1"},
		{map[string]any{"cell_range": "E1", "values": [][]any{{"x"}, {nil}}}, false, ""}, // a shared master
		{map[string]any{"cell_range": "E2", "values": [][]any{{"x"}, {nil}}}, true, "1!B1 1!E1 2!A1"},
	} {
		var chains []string
		spliced := writeBothWaysThen(t, seed, c.args, sheets, func(path string) {
			chains = append(chains, chainEntries(t, path))
		})
		assert.Equal(t, c.splice, spliced, "%v took the splice path", c.args)
		if c.splice {
			// excelize drops the same entries, but leaves the sheet of the
			// entry after a dropped one to inherit from nothing.
			assert.Equal(t, c.chain, chains[0], "%v: the calculation chain", c.args)
			assert.Equal(t, strings.ReplaceAll(" "+c.chain, " 1!", " !"), strings.ReplaceAll(" "+chains[1], " 1!", " !"), "%v: the excelize path's chain", c.args)
		}
	}
	// A value over the only formula of a chain: the part would go.
	one := filepath.Join(t.TempDir(), "one.xlsx")
	f := excelize.NewFile()
	require.NoError(t, f.SetCellFormula("Sheet1", "A1", "1+1"))
	require.NoError(t, f.SaveAs(one))
	require.NoError(t, f.Close())
	addChain(t, one, `<c r="A1" i="1"/>`)
	assert.False(t, writeBothWays(t, one, map[string]any{"cell": "A1", "value": 3}, []string{"Sheet1"}))
}

// addChain adds a calculation chain holding entries to the workbook at
// path, as Excel saves one.
func addChain(t *testing.T, path, entries string) {
	t.Helper()
	rewriteZip(t, path, func(zw *zip.Writer, name string) (bool, error) {
		var body string
		switch name {
		case "[Content_Types].xml":
			body = strings.Replace(string(readZipEntry(t, path, name)), "</Types>",
				`<Override PartName="/xl/calcChain.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.calcChain+xml"/></Types>`, 1)
		case "xl/_rels/workbook.xml.rels":
			body = strings.Replace(string(readZipEntry(t, path, name)), "</Relationships>",
				`<Relationship Id="rIdCalc" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/calcChain" Target="calcChain.xml"/></Relationships>`, 1)
		case "xl/workbook.xml":
			w, err := zw.Create("xl/calcChain.xml")
			if err != nil {
				return true, err
			}
			_, err = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?><calcChain xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` + entries + `</calcChain>`))
			return false, err
		default:
			return false, nil
		}
		w, err := zw.Create(name)
		if err != nil {
			return true, err
		}
		_, err = w.Write([]byte(body))
		return true, err
	})
}

// chainEntries lists the calculation chain of the workbook at path, each
// entry as sheetId!ref with the inherited sheet made explicit ("" without
// a chain).
func chainEntries(t *testing.T, path string) string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	data, err := opc.ReadPart(&zr.Reader, "xl/calcChain.xml")
	if err != nil {
		return ""
	}
	return strings.Join(parseChain(t, data), " ")
}

// parseChain lists the entries of a calculation chain as sheetId!ref, the
// inherited sheet made explicit.
func parseChain(t *testing.T, data []byte) []string {
	t.Helper()
	var chain struct {
		C []struct {
			R string `xml:"r,attr"`
			I string `xml:"i,attr"`
		} `xml:"c"`
	}
	require.NoError(t, xml.Unmarshal(data, &chain), "%s", data)
	var out []string
	cur := ""
	for _, c := range chain.C {
		if c.I != "" {
			cur = c.I
		}
		out = append(out, cur+"!"+c.R)
	}
	return out
}

// readZipEntry returns the content of the entry name of the package at path.
func readZipEntry(t *testing.T, path, name string) []byte {
	t.Helper()
	zr, err := zip.OpenReader(path)
	require.NoError(t, err)
	defer zr.Close()
	data, err := opc.ReadPart(&zr.Reader, name)
	require.NoError(t, err)
	return data
}

// FuzzWithoutChainCells: any calculation chain is trimmed without a panic;
// a well-formed one stays well formed, loses exactly the entries of B1 on
// sheet 1, and keeps every other entry on its sheet.
func FuzzWithoutChainCells(f *testing.F) {
	f.Add(`<calcChain><c r="B1" i="1"/><c r="E1"/><c r="A1" i="2"/></calcChain>`)
	f.Add(`<calcChain><c r="B1" i="1" l="1"></c><c r="B1" i="2"/></calcChain>`)
	f.Add(`<calcChain><c r="A1"/></calcChain>`)
	f.Fuzz(func(t *testing.T, chain string) {
		out, ok := splicepath.WithoutChainCells([]byte(chain), 1, map[[2]int]bool{{1, 2}: true})
		if !ok || !oneElement(chain) {
			return
		}
		var want []string
		for _, e := range parseChain(t, []byte(chain)) {
			if _, r, _ := strings.Cut(e, "!"); r != "B1" || sheetxml.Uint([]byte(strings.Split(e, "!")[0])) != 1 {
				want = append(want, e)
			}
		}
		assert.Equal(t, want, parseChain(t, out))
	})
}

// oneElement reports whether doc is one well-formed XML element (with
// nothing but white space, comments or processing instructions around it).
func oneElement(doc string) bool {
	d := xml.NewDecoder(strings.NewReader(doc))
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			return depth == 0 && roots == 1
		}
		if err != nil {
			return false
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
		case xml.EndElement:
			depth--
		case xml.CharData:
			if depth == 0 && strings.TrimSpace(string(t)) != "" {
				return false
			}
		}
	}
}

// TestRecalcSpliceStaysWithinTheMemoryBudget: the calculator workbook is
// estimated before excelize parses it; over the per-call budget the write
// goes to the excelize path, whose bigger parse gets the MemoryError,
// while a formula reading a few cells computes within it.
func TestRecalcSpliceStaysWithinTheMemoryBudget(t *testing.T) {
	e := newEnv(t, WithLimits(limits.Limits{CallMemoryBudget: 200 << 10}))
	rows := make([][]any, 3000)
	for i := range rows {
		rows[i] = []any{i, "some text to make the sheet larger", i * 2}
	}
	e.workbook("b.xlsx", rows)
	got := e.ok("write_cells", map[string]any{"file_path": "b.xlsx", "cell": "D1", "value": "=A3+C3"})
	assert.EqualValues(t, 1, got["cells_written"])
	v, err := e.open("b.xlsx").GetCellValue("Sheet1", "D1")
	require.NoError(t, err)
	assert.Equal(t, "6", v, "computed within the budget")
	p := e.fail("write_cells", map[string]any{"file_path": "b.xlsx", "cell": "D2", "value": "=SUM(A1:C3000)"})
	assert.Equal(t, "MemoryError", p["exception"])
	assert.Contains(t, p["message"], "per-call memory budget of 200.0 KiB")
}

// TestRecalcSpliceMatchesExcelizeOnRandomWrites: random sequences of
// writes leave the workbook the same through the splice path and through
// the excelize path after every write (value, formula and type of every
// cell), and most of them splice. Values (numbers, text, booleans, dates,
// clears) land in A1:F6; formulas land in column H (reading that block,
// whole columns and the other sheet's formulas) and column I (reading
// column H too), so chains form but no cycle does: circular references
// take the excelize path, where the result depends on what was parsed
// before.
func TestRecalcSpliceMatchesExcelizeOnRandomWrites(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	values := []any{1, -2.5, 0, "text", "7", true, false, nil, "2024-01-31", "'007"}
	hFormulas := []any{"=A1+1", "=SUM(A1:C3)", "=B2*2+Other!A1", `=A1&"x"`, "=1/0", `=IF(B1>2,B2,"no")`,
		"=COUNT(A:A)", "=MAX(A1:F1)", "=AVERAGE(B1:B6)", "=ISERROR(C3)", "=Other!B2&Sheet1!A2",
		`=TEXT(A1,"0.0")`, "=ROUND(B3/3,2)", "=LEN(D1)", "=SUMPRODUCT(A1:A3,B1:B3)", "=SUM(E:E)"}
	iFormulas := []any{"=H1+H2", "=SUM(H1:H8)", `=H3&"-"&A1`, "=IFERROR(H4,0)", "=COUNTIF(H:H,\">1\")", "=H5*A2"}
	seeds := 6
	if testing.Short() {
		seeds = 2
	}
	spliced, total := 0, 0
	for seed := range seeds {
		rng := rand.New(rand.NewPCG(uint64(seed), 42))
		saves := newSavesLog()
		envs := map[bool]*env{true: newEnv(t, WithSplice(true), WithLogger(saves.log)), false: newEnv(t, WithSplice(false))}
		for _, e := range envs {
			e.workbook("r.xlsx", [][]any{{1, 2, 3}, {4, 5, 6}})
			e.ok("write_cells", map[string]any{"file_path": "r.xlsx", "sheet_name": "Other", "create": true, "cell_range": "A1", "values": [][]any{{10, "=A1*2"}, {"b", "=B1+A1"}}})
		}
		pick := func(pool []any) any { return pool[rng.IntN(len(pool))] }
		for step := range 14 {
			var args map[string]any
			switch k := rng.IntN(3); k {
			case 0: // a block of values
				rows := make([][]any, 1+rng.IntN(3))
				for r := range rows {
					rows[r] = make([]any, 1+rng.IntN(3))
					for c := range rows[r] {
						rows[r][c] = pick(values)
					}
				}
				args = map[string]any{"cell_range": grid.CellName(1+rng.IntN(4), 1+rng.IntN(4)), "values": rows}
			default: // formulas down column H, or I
				col, pool := "H", hFormulas
				if k == 2 {
					col, pool = "I", iFormulas
				}
				rows := make([][]any, 1+rng.IntN(3))
				for r := range rows {
					rows[r] = []any{pick(pool)}
				}
				args = map[string]any{"cell_range": col + strconv.Itoa(1+rng.IntN(6)), "values": rows}
			}
			args["file_path"] = "r.xlsx"
			saves.spliced()
			for _, e := range envs {
				e.ok("write_cells", args)
			}
			total++
			spliced += saves.spliced()
			requireSameCells(t, envs[true].open("r.xlsx"), envs[false].open("r.xlsx"), []string{"Sheet1", "Other"}, 9, 9, false,
				fmt.Sprintf("seed %d step %d %v", seed, step, args))
		}
	}
	t.Logf("%d of %d spliced", spliced, total)
	assert.Greater(t, spliced*4, total*3, "%d of %d writes spliced", spliced, total)
}

// TestRecalcSpliceOnAComputedColumn: a table whose every row computes a
// column (21,000 formulas, more than one call recomputes) still splices a
// value its row's formula reads: only that formula is recomputed, as on
// the excelize path.
func TestRecalcSpliceOnAComputedColumn(t *testing.T) {
	skipUnderRace(t)
	t.Parallel()
	seed := filepath.Join(t.TempDir(), "seed.xlsx")
	f := excelize.NewFile()
	sw, err := f.NewStreamWriter("Sheet1")
	require.NoError(t, err)
	for r := 1; r <= 21_000; r++ {
		require.NoError(t, sw.SetRow(grid.CellName(1, r), []any{r, 2 * r, excelize.Cell{Formula: fmt.Sprintf("A%d*B%d", r, r), Value: 2 * r * r}}))
	}
	require.NoError(t, sw.Flush())
	require.NoError(t, f.SaveAs(seed))
	require.NoError(t, f.Close())
	assert.True(t, writeBothWays(t, seed, map[string]any{"cell": "A5", "value": 100}, []string{"Sheet1"}), "took the splice path")
	assert.True(t, writeBothWays(t, seed, map[string]any{"cell": "D2", "value": "=SUM(C1:C21000)"}, []string{"Sheet1"}), "took the splice path")
}
