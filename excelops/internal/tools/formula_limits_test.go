package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Bounds the formula bombs (SECURITY.md, "Formulas") are held to: before the patched
// calculator, =REPT(REPT("a",32767),32767) took 18 s and 4.2 GB.
const (
	// bombAllocBudget caps what one bomb's write_cells call may allocate
	// (runtime.MemStats.TotalAlloc, the whole call: open, compute, save).
	bombAllocBudget = 200 << 20
	// bombTimeBound is a generous bound on its wall time, far below the
	// 18 s it took; the test proves memory, not speed.
	bombTimeBound = 8 * time.Second
	// bombRSSBudget caps the peak RSS of a fresh process answering the
	// REPT bomb (TestFormulaReptBombPeakRSS).
	bombRSSBudget = 200 << 20
	// bigRows is how many cells of column A hold bigText in the bombs'
	// workbook: 327 MB of text if a formula joined them all. (Parsing a
	// sheet of 100,000 rows alone costs about 400 MB of allocations.)
	bigRows = 10_000
)

// bigText is a cell's worth of text: Excel's 32,767 characters.
var bigText = strings.Repeat("a", grid.MaxCellChars)

// measure runs fn and returns its wall time and what the process
// allocated meanwhile.
func measure(fn func()) (time.Duration, uint64) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	fn()
	took := time.Since(start)
	runtime.ReadMemStats(&after)
	return took, after.TotalAlloc - before.TotalAlloc
}

// bombWorkbook writes name with bigText in A1:A{rows} (one shared string).
func bombWorkbook(t *testing.T, e *env, name string, rows int) {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	for r := 1; r <= rows; r++ {
		require.NoError(t, f.SetCellStr("Sheet1", fmt.Sprintf("A%d", r), bigText))
	}
	require.NoError(t, f.SaveAs(e.path(name)))
}

// readCell returns what read_excel answers for one cell of Sheet1.
func readCell(t *testing.T, e *env, name, cell string) any {
	t.Helper()
	got := e.ok("read_excel", map[string]any{"file_path": name, "range": cell, "formulas": "values"})
	values, ok := got["values"].([]any)
	require.True(t, ok && len(values) == 1, "%v", got)
	row, ok := values[0].([]any)
	require.True(t, ok && len(row) == 1, "%v", got)
	return row[0]
}

// stillWorks checks the workbook every tool still reads and edits after a
// bomb: read it, write another cell, read again.
func stillWorks(t *testing.T, e *env, name string) {
	t.Helper()
	e.ok("read_excel", map[string]any{"file_path": name, "range": "A1:C3"})
	e.ok("write_cells", map[string]any{"file_path": name, "cell": "AZ1", "value": "after"})
	e.ok("read_excel", map[string]any{"file_path": name, "range": "AX1:AZ3"})
	e.ok("read_excel", map[string]any{"file_path": name})
	assert.Equal(t, "after", e.value(name, "Sheet1", "AZ1"))
}

func TestFormulaTextBombsAnswerVALUE(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name, formula string
	}{
		{"REPT nested", `=REPT(REPT("a",32767),32767)`},
		{"REPT of a 32,767-character cell", `=REPT(A1,32767)`},
		{"REPT one past the limit", `=REPT("ab",16384)`},
		{"REPT of astral characters, which count twice", `=REPT("😀",16384)`},
		{"SUBSTITUTE every instance", `=SUBSTITUTE(A1,"a",A1)`},
		{"SUBSTITUTE one instance", `=SUBSTITUTE(A1,"a","bb",1)`},
		{"TEXTJOIN over a range", `=TEXTJOIN(",",TRUE,A1:A100000)`},
		{"CONCAT over a range", `=CONCAT(A1:A100000)`},
		{"CONCATENATE", `=CONCATENATE(A1,A1)`},
		{"& chain", `=A1&A1&A1&A1&A1&A1&A1&A1`},
		{"& of one more character", `=A1&"b"`},
		{"ARRAYTOTEXT over a range", `=ARRAYTOTEXT(A1:A100000)`},
		{"TEXT repeating a text by its format", `=TEXT(A1,"@@")`},
	}
	e := newEnv(t)
	bombWorkbook(t, e, "bomb.xlsx", bigRows)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			before, err := os.Stat(e.path("bomb.xlsx"))
			require.NoError(t, err)
			took, alloc := measure(func() {
				e.ok("write_cells", map[string]any{"file_path": "bomb.xlsx", "cell": "B1", "value": c.formula})
			})
			t.Logf("%s: %v, %d MB allocated", c.formula, took, alloc>>20)
			assert.Less(t, took, bombTimeBound)
			assert.Less(t, alloc, uint64(bombAllocBudget))
			after, err := os.Stat(e.path("bomb.xlsx"))
			require.NoError(t, err)
			assert.Less(t, after.Size(), before.Size()+1<<20, "no giant value saved")
			f := e.open("bomb.xlsx")
			v, err := f.GetCellValue("Sheet1", "B1")
			require.NoError(t, err)
			assert.Equal(t, "#VALUE!", v, "Excel's answer for text over 32,767 characters")
			typ, err := f.GetCellType("Sheet1", "B1")
			require.NoError(t, err)
			assert.Equal(t, excelize.CellTypeError, typ)
			assert.Equal(t, "#VALUE!", readCell(t, e, "bomb.xlsx", "B1"))
			stillWorks(t, e, "bomb.xlsx")
		})
	}
}

func TestFormulaTextAtTheLimitIsComputed(t *testing.T) {
	e := newEnv(t)
	bombWorkbook(t, e, "edge.xlsx", 1)
	e.ok("write_cells", map[string]any{"file_path": "edge.xlsx", "cell": "C1", "value": `=IFERROR(REPT(A1,2),"too long")`})
	assert.Equal(t, "too long", e.value("edge.xlsx", "Sheet1", "C1"), "the #VALUE! is an error IFERROR catches")
	for _, formula := range []string{`=REPT("a",32767)`, `=A1&""`, `=CONCAT(A1)`, `=TEXTJOIN(",",TRUE,A1:A5)`, `=SUBSTITUTE(A1,"a","b")`, `=REPT("😀",16383)&"a"`} {
		e.ok("write_cells", map[string]any{"file_path": "edge.xlsx", "cell": "B1", "value": formula})
		v := e.value("edge.xlsx", "Sheet1", "B1")
		assert.Equal(t, grid.MaxCellChars, grid.ExcelLen(v), "%s keeps its 32,767 characters", formula)
	}
}

// peakRSSMarker starts the line on which TestFormulaReptBombPeakRSS's
// child reports its peak RSS.
const peakRSSMarker = "peak RSS KiB: "

// TestFormulaReptBombPeakRSS answers the REPT bomb in a fresh process (this
// test binary again) and holds that process's peak RSS to bombRSSBudget.
// The child reads its own VmHWM: the rusage wait4 reports for it may hold
// the parent's peak (Linux records the address space exec replaced, and
// Go starts children with CLONE_VM).
func TestFormulaReptBombPeakRSS(t *testing.T) {
	if dir := os.Getenv("REGISTRY_SIDECAR_REPT_BOMB_DIR"); dir != "" {
		e := newEnvAt(t, dir)
		e.ok("write_cells", map[string]any{"file_path": "rept.xlsx", "cell": "A1", "value": `=REPT(REPT("a",32767),32767)`})
		assert.Equal(t, "#VALUE!", readCell(t, e, "rept.xlsx", "A1"))
		e.ok("write_cells", map[string]any{"file_path": "rept.xlsx", "cell": "B1", "value": "next"})
		assert.Equal(t, "next", readCell(t, e, "rept.xlsx", "B1"))
		status, err := os.ReadFile("/proc/self/status")
		require.NoError(t, err)
		for _, line := range strings.Split(string(status), "\n") {
			if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
				fmt.Println(peakRSSMarker + strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			}
		}
		return
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc/self/status")
	}
	dir := t.TempDir()
	e := newEnvAt(t, dir)
	e.workbook("rept.xlsx", [][]any{{"keep"}})
	cmd := exec.Command(os.Args[0], "-test.run=^TestFormulaReptBombPeakRSS$", "-test.count=1")
	cmd.Env = append(os.Environ(), "REGISTRY_SIDECAR_REPT_BOMB_DIR="+dir)
	start := time.Now()
	out, err := cmd.CombinedOutput()
	took := time.Since(start)
	require.NoError(t, err, string(out))
	_, kib, ok := strings.Cut(string(out), peakRSSMarker)
	require.True(t, ok, string(out))
	kib, _, _ = strings.Cut(kib, "\n")
	peak, err := strconv.ParseInt(kib, 10, 64)
	require.NoError(t, err)
	peak <<= 10
	t.Logf("REPT bomb in a fresh process: %v, peak RSS %d MB", took, peak>>20)
	assert.Less(t, peak, int64(bombRSSBudget))
	assert.Less(t, took, bombTimeBound)
	assert.Equal(t, "#VALUE!", e.value("rept.xlsx", "Sheet1", "A1"))
}

func TestFormulaCalcLimitsLeaveHeavyFormulasUncomputed(t *testing.T) {
	skipUnderRace(t)
	cases := []struct {
		name, formula string
	}{
		{"a range of almost the whole grid", `=SUM(A1:XFC1048575)`},
		{"a huge unit matrix", `=SUM(MUNIT(30000))`},
		{"an outer product", `=SUM(MMULT(AA1:AA5000,TRANSPOSE(AA1:AA5000)))`},
		{"a cumulative binomial of 10^15 terms", `=BINOMDIST(1E+15,1E+15,0.5,TRUE)`},
		{"a combination of 10^15 factors", `=COMBIN(1E+15,5E+14)`},
		{"a determinant by cofactors of a 14x14 matrix", `=MDETERM(D1:Q14)`},
		{"depreciation over 10^15 periods", `=DDB(1,0,1E+15,1E+15)`},
		{"a number format of 16,000 characters", `=TEXT(1,REPT("0",16000))`},
	}
	lim := limits.DefaultLimits()
	lim.CallMemoryBudget = 256 << 20
	e := newEnv(t, WithLimits(lim))
	f := excelize.NewFile()
	for r := 1; r <= 14; r++ { // D1:Q14, a 14 x 14 matrix
		for c := 4; c <= 17; c++ {
			require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(c, r), r*c+r%c))
		}
	}
	for r := 1; r <= 5000; r++ {
		require.NoError(t, f.SetCellValue("Sheet1", grid.CellName(27, r), r))
	}
	require.NoError(t, f.SaveAs(e.path("heavy.xlsx")))
	require.NoError(t, f.Close())
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			took, alloc := measure(func() {
				e.ok("write_cells", map[string]any{"file_path": "heavy.xlsx", "cell": "Z1", "value": c.formula})
			})
			t.Logf("%s: %v, %d MB allocated", c.formula, took, alloc>>20)
			assert.Less(t, took, bombTimeBound)
			assert.Less(t, alloc, uint64(bombAllocBudget))
			fm, err := e.open("heavy.xlsx").GetCellFormula("Sheet1", "Z1")
			require.NoError(t, err)
			assert.NotEmpty(t, fm, "the formula is saved")
			assert.Equal(t, "", cachedValue(t, e, "heavy.xlsx", "Z1"), "left uncomputed: Excel computes it on open")
			stillWorks(t, e, "heavy.xlsx")
		})
	}
}

// cachedValue is the cached value Sheet1!ref holds in the file (its <v>).
func cachedValue(t *testing.T, e *env, name, ref string) string {
	t.Helper()
	f := e.open(name)
	v, err := f.GetCellValue("Sheet1", ref, excelize.Options{RawCellValue: true})
	require.NoError(t, err)
	return v
}

func TestFormulaCheapLoopsStayComputed(t *testing.T) {
	e := newEnv(t)
	e.workbook("cheap.xlsx", [][]any{{1}})
	for formula, want := range map[string]string{
		`=GCD(1E+15,1)`:             "1",
		`=GCD(12,18)`:               "6",
		`=LCM(4,6)`:                 "12",
		`=FACT(5)`:                  "120",
		`=BINOMDIST(3,10,0.5,TRUE)`: "0.171875",
		`=SUBSTITUTE("abc","","x")`: "abc",
		`=BASE(5,2,8)`:              "00000101",
	} {
		e.ok("write_cells", map[string]any{"file_path": "cheap.xlsx", "cell": "B1", "value": formula})
		assert.Equal(t, want, cachedValue(t, e, "cheap.xlsx", "B1"), formula)
	}
	for _, formula := range []string{`=BASE(5,2,256)`, `=FIXED(1,128)`} {
		e.ok("write_cells", map[string]any{"file_path": "cheap.xlsx", "cell": "B1", "value": formula})
		assert.Contains(t, []string{"#NUM!", "#VALUE!"}, cachedValue(t, e, "cheap.xlsx", "B1"), "%s: past Excel's bound of the argument", formula)
	}
}

func TestFormulaLongChainIsComputedInPieces(t *testing.T) {
	const n = 3 * limits.MaxCalcDepth
	f := excelize.NewFile()
	defer f.Close()
	for r := 1; r < n; r++ {
		require.NoError(t, f.SetCellFormula("Sheet1", fmt.Sprintf("A%d", r), fmt.Sprintf("A%d+1", r+1)))
	}
	require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", n), 1))
	lim := limits.DefaultLimits().Calc()
	v, err := f.CalcCellValueContext(context.Background(), "Sheet1", "A1", lim)
	require.NoError(t, err)
	assert.Equal(t, fmt.Sprint(n), v, "a chain three times maxCalcDepth long, computed on a stack of maxCalcDepth")
}

func TestFormulaCalcStopsWhenTheCallEnds(t *testing.T) {
	// 2,000 formulas each reading 20,000 cells, none with a cached value:
	// the recalculation a write starts takes about a minute (66 s here).
	f := excelize.NewFile()
	for r := 1; r <= 20000; r++ {
		require.NoError(t, f.SetCellValue("Sheet1", fmt.Sprintf("A%d", r), r))
	}
	for r := 1; r <= 2000; r++ {
		require.NoError(t, f.SetCellFormula("Sheet1", fmt.Sprintf("B%d", r), fmt.Sprintf("SUMPRODUCT($A$1:$A$20000,$A$1:$A$20000)*%d", r)))
	}
	e := newEnv(t)
	require.NoError(t, f.SaveAs(e.path("slow.xlsx")))
	require.NoError(t, f.Close())
	before, err := os.ReadFile(e.path("slow.xlsx"))
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	raw, err := json.Marshal(map[string]any{"file_path": "slow.xlsx", "cell": "C1", "value": 1})
	require.NoError(t, err)
	start := time.Now()
	res := e.reg.CallTool(ctx, "write_cells", raw)
	assert.True(t, res.IsError, "the call ended before its recalculation: %s", res.Text)
	// A read waits for the write's lock: it answers once the calculation
	// has stopped, not when the recalculation would have ended.
	e.ok("read_excel", map[string]any{"file_path": "slow.xlsx", "range": "A1:C2"})
	took := time.Since(start)
	t.Logf("the write and a read after it: %v (%s)", took, res.Text)
	assert.Less(t, took, bombTimeBound, "the calculation stopped with the call")
	after, err := os.ReadFile(e.path("slow.xlsx"))
	require.NoError(t, err)
	assert.Equal(t, before, after, "nothing saved, not even half")
}

func TestExcelLimitsNestingIsRefusedAndNothingIsWritten(t *testing.T) {
	nest := func(levels int) string {
		return strings.Repeat("ABS(", levels) + "1" + strings.Repeat(")", levels)
	}
	deep := nest(grid.MaxFunctionNesting + 1)
	e := newEnv(t)
	e.workbook("n.xlsx", [][]any{{"keep"}})
	before, err := os.ReadFile(e.path("n.xlsx"))
	require.NoError(t, err)
	cases := []struct {
		tool string
		args map[string]any
		msg  string
	}{
		{"write_cells", map[string]any{"cell": "C3", "value": "=" + deep},
			"C3: formula nests functions 65 levels deep, more than Excel's limit of 64 levels; nothing was written"},
		{"write_cells", map[string]any{"cell_range": "A1", "values": [][]any{{1, "=" + deep}}},
			"B1: formula nests functions 65 levels deep"},
		{"define_name", map[string]any{"name": "Deep", "refers_to": "=" + deep},
			"refers_to of Deep: formula nests functions 65 levels deep"},
		{"add_conditional_rule", map[string]any{"sheet_name": "Sheet1", "cell_range": "A1:A3", "rule_type": "formula", "formula": "=" + deep},
			"A1:A3 rule: formula nests functions 65 levels deep"},
		{"add_data_validation", map[string]any{"sheet_name": "Sheet1", "cell_range": "A1:A3", "validation_type": "custom", "formula1": "=" + deep},
			"A1:A3 formula1: formula nests functions 65 levels deep"},
		{"define_name", map[string]any{"name": "Long", "refers_to": "=" + strings.Repeat("1+", 4096) + "1"},
			"refers_to of Long: formula of 8,194 characters is longer than Excel's limit of 8,192 characters"},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			args := map[string]any{"file_path": "n.xlsx"}
			for k, v := range c.args {
				args[k] = v
			}
			got := e.fail(c.tool, args)
			assert.Equal(t, "ValueError", got["exception"])
			assert.Contains(t, got["message"], c.msg)
			after, err := os.ReadFile(e.path("n.xlsx"))
			require.NoError(t, err)
			assert.Equal(t, before, after, "the file is untouched")
		})
	}
	// Grouping parentheses and array constants are no level; 64 are fine.
	ok := "=" + nest(grid.MaxFunctionNesting-1) + "+((((((1))))))+SUM({1,2;3,4})"
	e.ok("write_cells", map[string]any{"file_path": "n.xlsx", "cell": "C3", "value": ok})
	fm, err := e.open("n.xlsx").GetCellFormula("Sheet1", "C3")
	require.NoError(t, err)
	assert.Equal(t, ok[1:], fm)
	assert.Equal(t, 2, grid.FunctionNesting("IF(A1,SUM(B1:B2),0)"))
	assert.Equal(t, 1, grid.FunctionNesting("SUM({1,2;3,4})+((1))"))
	assert.Equal(t, grid.MaxFunctionNesting, grid.FunctionNesting(nest(grid.MaxFunctionNesting)))
}
