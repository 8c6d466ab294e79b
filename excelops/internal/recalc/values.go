package recalc

import (
	"context"
	"strconv"
	"strings"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// MaxRecalcFormulas bounds how many formula cells one call recomputes with
// excelize's calculator; past it the remaining cached values are dropped
// (the workbook recalculates on open anyway), so a call on a workbook full of
// formulas stays bounded.
const MaxRecalcFormulas = 20000

// maxRespillCells bounds the cells one dynamic array spills when an edit
// of what it reads computes it again (DefaultMaxWriteCells).
const maxRespillCells = limits.DefaultMaxWriteCells

// FormulaStats counts what refreshFormulaValues did.
type FormulaStats struct {
	Computed int // cached values stored
	Dropped  int // cached values removed (the engine cannot compute them)
	Changed  int // computed values unlike the value the cell cached
}

// RefreshFormulaValues makes every cached formula value of the workbook true
// after an edit: each formula cell the edit may have changed (see
// dirtyFormulas; every formula when edits is nil, as after moving rows or
// renaming sheets), on every worksheet, gets the value excelize's calculator
// computes, typed (number, boolean, error or text), or loses its cached
// value when the calculator cannot compute it, rather than keep a stale one.
// The first cell of a legacy array formula over several cells gives every
// cell of its range its value (legacy_array.go).
// Formula cells without a cached value are computed too. When a cached
// value changed or was dropped, the workbook is also marked to be fully
// recalculated on open (calcPr fullCalcOnLoad), so Excel and LibreOffice
// show fresh values even where the calculator had none; an edit that
// changes no formula's value leaves workbook.xml as it was.
//
// diskHasFormulas tells, for a sheet excelize has not parsed yet, whether
// its XML holds formulas at all, so sheets without any are never parsed.
// Any write path (excelize's, a splice writer) calls this once per mutation,
// after its edits and before saving. Each formula is computed within lim
// (see ComputeFormula); when ctx ends the refresh fails with ctx's error,
// and the caller saves nothing.
func RefreshFormulaValues(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, diskHasFormulas func(sheet string) (bool, error), edits *EditSet) (FormulaStats, error) {
	return RefreshFormulaValuesUpTo(ctx, f, lim, diskHasFormulas, edits, MaxRecalcFormulas)
}

// sheetFormula is one formula cell and its sheet.
type sheetFormula struct {
	sheet string
	Cell  formulaCell
}

// RefreshFormulaValuesUpTo is refreshFormulaValues computing at most budget
// formula cells; the cached values of the rest it would compute are dropped.
func RefreshFormulaValuesUpTo(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, diskHasFormulas func(sheet string) (bool, error), edits *EditSet, budget int) (FormulaStats, error) {
	var st FormulaStats
	all, ok, err := workbookFormulaCells(f, diskHasFormulas)
	if err != nil {
		return st, err
	}
	if !ok {
		// Unknown excelize shape: drop every cached formula value.
		if err := f.UpdateLinkedValue(); err != nil {
			return st, err
		}
	}
	if !ok || len(all) == 0 {
		return st, markFullCalcOnLoad(f, !ok)
	}
	var dirty []bool
	if edits != nil {
		cells := dependencies(f, all, edits.moved, edits.cut)
		dirty = DirtyFormulas(cells, edits.Areas, !edits.moved)
		unblock(all, dirty, edits.Areas)
		// Dynamic arrays reading the edit spill again, first: the cells
		// they change are edited too (and may add cells to rows).
		if spilled, err := respill(ctx, f, lim, all, cells, dirty, edits.written(), edits.Fresh, maxRespillCells); err != nil {
			return st, err
		} else if len(spilled) > 0 {
			if all, _, err = workbookFormulaCells(f, diskHasFormulas); err != nil {
				return st, err
			}
			areas := append(append([]cellarea.Area(nil), edits.Areas...), spilled...)
			dirty = DirtyFormulas(dependencies(f, all, edits.moved, edits.cut), areas, !edits.moved)
		}
	}
	type cached struct {
		t, v string
		set  bool
		laid [][]CachedCell // a legacy array's range (legacy_array.go)
	}
	results := make([]cached, len(all))
	tainted := readersOfInexactLegacy(f, all)
	for i, sf := range all {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return st, err
			}
		}
		c := sf.Cell
		if dirty != nil && !dirty[i] && c.cachedValue() != "" {
			continue // the edit cannot have changed it
		}
		if c.spillStuck() {
			continue // #SPILL!: its formula alone computes its first value
		}
		if budget <= 0 || (tainted != nil && tainted[i]) {
			results[i] = cached{set: true}
			st.Dropped++
			continue
		}
		budget--
		t, v, laid, err := computeCell(ctx, f, lim, sf.sheet, c)
		if err != nil {
			return st, err
		}
		results[i] = cached{t, v, true, laid}
		none := v == "" && t != "str" // ("str", "") is an empty text
		if none {
			st.Dropped++
		} else {
			st.Computed++
		}
		if !none && (v != c.cachedValue() || CachedKind(t) != CachedKind(c.cell.T)) {
			st.Changed++
		}
	}
	// The calculator may add cells to a row (an array formula's range),
	// which moves the row's cells in memory: store the values on the cells
	// as they are now, found again by sheet and reference.
	now, ok, err := workbookFormulaCells(f, diskHasFormulas)
	if err != nil || !ok {
		return st, err
	}
	at := make(map[[2]string]formulaCell, len(now))
	for _, sf := range now {
		at[[2]string{sf.sheet, sf.Cell.Ref}] = sf.Cell
	}
	var ranges []int // legacy arrays recomputed: their ranges are laid last
	for i, sf := range all {
		if r := results[i]; r.set {
			if c, ok := at[[2]string{sf.sheet, sf.Cell.Ref}]; ok {
				c.setCached(r.t, r.v)
				if _, ok := legacyArrayRange(c.cell); ok {
					ranges = append(ranges, i)
				}
			}
		}
	}
	// Laying a range may add cells to rows, moving the cells found above.
	for _, i := range ranges {
		col, row, _ := excelize.CellNameToCoordinates(all[i].Cell.Ref)
		changed, dropped, err := placeLegacyArray(f, all[i].sheet, col, row, results[i].laid)
		if err != nil {
			return st, err
		}
		st.Changed += changed
		st.Dropped += dropped
	}
	return st, markFullCalcOnLoad(f, st.Changed+st.Dropped > 0)
}

// computeCell is ComputeFormula for the formula cell c of sheet, and for
// the first cell of a legacy array formula over several cells, the
// cached values of its whole range (laid, nil when not computed; t and v
// are then its first value).
func computeCell(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, sheet string, c formulaCell) (t, v string, laid [][]CachedCell, err error) {
	if _, ok := legacyArrayRange(c.cell); !ok {
		t, v, err = ComputeFormula(ctx, f, lim, sheet, c.Ref)
		return t, v, nil, err
	}
	if laid, err = LegacyArrayValues(ctx, f, lim, sheet, c.Ref); err != nil || laid == nil {
		return "", "", nil, err
	}
	return laid[0][0].Type, laid[0][0].Value, laid, nil
}

// markFullCalcOnLoad asks Excel and LibreOffice to recalculate the workbook
// when they open it (when on).
func markFullCalcOnLoad(f *excelize.File, on bool) error {
	if !on {
		return nil
	}
	return f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &on})
}

// workbookFormulaCells returns the formula cells of every worksheet that
// holds formulas, parsing the sheets that do; ok is false when excelize's
// worksheet shape is not the one worksheetFormulaCells knows.
func workbookFormulaCells(f *excelize.File, diskHasFormulas func(sheet string) (bool, error)) ([]sheetFormula, bool, error) {
	var all []sheetFormula
	for _, sheet := range f.GetSheetList() {
		p, ok := f.SheetXMLPath(sheet)
		if !ok {
			continue // a chart sheet, or a sheet excelize does not know as a worksheet
		}
		ws, parsed := f.Sheet.Load(p)
		if !parsed {
			has, err := diskHasFormulas(sheet)
			if err != nil {
				return nil, false, err
			}
			if !has {
				continue
			}
			if _, err := f.GetCellValue(sheet, "A1"); err != nil {
				return nil, false, failure.New(failure.KindDamaged, "file is damaged: sheet "+strconv.Quote(sheet)+" cannot be parsed: "+err.Error(), err)
			}
			if ws, parsed = f.Sheet.Load(p); !parsed {
				continue
			}
		}
		cells, ok := worksheetFormulaCells(ws)
		if !ok {
			return nil, false, nil
		}
		for _, c := range cells {
			all = append(all, sheetFormula{sheet: sheet, Cell: c})
		}
	}
	return all, true, nil
}

// dependencies describes each formula cell for dirtyFormulas.
func dependencies(f *excelize.File, all []sheetFormula, moved, cut bool) []DepCell {
	out := make([]DepCell, len(all))
	var scope *formuladeps.Scope // the tables and names, read when a formula first needs them
	for i, sf := range all {
		col, row, err := excelize.CellNameToCoordinates(sf.Cell.Ref)
		out[i].At = cellarea.Area{Sheet: sf.sheet, C1: col, R1: row, C2: col, R2: row}
		if r, ok := legacyArrayRange(sf.Cell.cell); ok {
			out[i].fills = &cellarea.Area{Sheet: sf.sheet, C1: r.C1, R1: r.R1, C2: r.C2, R2: r.R2}
		}
		formula, ferr := f.GetCellFormula(sf.sheet, sf.Cell.Ref)
		if err != nil || ferr != nil {
			out[i].Wide = true
			continue
		}
		if out[i].Deps, out[i].Wide = formuladeps.ScanSheet(formula, sf.sheet); out[i].Wide {
			if scope == nil {
				scope = newDepScope(f)
			}
			out[i].Deps, out[i].Wide = formuladeps.Scan(formula, out[i].At, scope)
		}
		out[i].Wide = out[i].Wide || moved && readsPosition(formula, cut)
	}
	return out
}

// UncomputableFunctions returns the Excel functions (excel_functions.txt)
// excelize's calculator does not implement, probed once: calling one
// answers "not support <NAME> function" whatever its arguments.
var UncomputableFunctions = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	f := excelize.NewFile()
	defer f.Close()
	for name := range ExcelFunctions() {
		if f.SetCellFormula("Sheet1", "A1", name+"()") != nil {
			continue
		}
		if _, err := f.CalcCellValue("Sheet1", "A1"); err != nil && strings.Contains(err.Error(), "not support") {
			out[name] = true
		}
	}
	return out
})

// CallsUncomputable reports whether formula calls a function excelize's
// calculator does not implement, or CELL or PHONETIC in a form it leaves uncomputed.
func CallsUncomputable(formula string) bool {
	un := UncomputableFunctions()
	return formulatok.CallsAny(formula, func(name string) bool { return un[name] }) || formulatext.CallsUncomputedForm(formula)
}

// excelErrors are the error values a formula can result in.
var excelErrors = map[string]bool{
	"#NULL!": true, "#DIV/0!": true, "#VALUE!": true, "#REF!": true, "#NAME?": true, "#NUM!": true,
	"#N/A": true, "#GETTING_DATA": true, "#SPILL!": true, "#CALC!": true,
}

// ComputeFormula returns the cached value of the formula at sheet!ref as
// excelize computes it: the cell type and text (("str", "") is an empty
// text), or ("", "") when the
// calculator cannot compute it (an unsupported function, a formula it
// cannot evaluate, one that would pass lim or take maxFormulaTime). A text
// result longer than a cell holds is #VALUE!, as in Excel (the patched
// calculator never builds one; this is the last line). err is ctx's error
// when ctx ended: the call is over, and nothing may be saved.
func ComputeFormula(ctx context.Context, f *excelize.File, lim excelize.CalcLimits, sheet, ref string) (t, v string, err error) {
	// A calculator panic on some formula must not fail every later edit of
	// the workbook: that formula just gets no cached value.
	defer func() {
		if recover() != nil {
			t, v, err = "", "", nil
		}
	}()
	formula, _ := f.GetCellFormula(sheet, ref)
	if CallsUncomputable(formula) {
		// excelize computes around a function it lacks (LEN(INFO(...)) is
		// the length of its error text, IFERROR(CELL(...),5) is 5): no
		// value beats a wrong one.
		return "", "", nil
	}
	if t, v, ok := cutReferenceValue(formula); ok {
		return t, v, nil
	}
	if inexact(f, sheet, ref, formula) {
		return "", "", nil
	}
	one, cancel := context.WithTimeout(ctx, limits.MaxFormulaTime)
	defer cancel()
	res, cerr := f.CalcCellResultContext(one, sheet, ref, lim, excelize.Options{RawCellValue: true})
	if err := ctx.Err(); err != nil {
		return "", "", err
	}
	if cerr != nil {
		if excelErrors[res.Value] && !uncomputed(cerr) {
			return "e", res.Value, nil
		}
		return "", "", nil
	}
	t, v = typedResult(f, sheet, formula, res)
	if t == "str" && grid.CheckText(ref, v) != nil {
		return "e", "#VALUE!", nil
	}
	if t == "str" {
		v = excelize.EscapeXstring(v) // the file's form: _x0004_ for U+0004
	}
	return t, v, nil
}

// uncomputed tells whether err, which came with an Excel error value from
// the calculator, says the calculator could not compute the formula (a
// function or form it does not support, a reference it could not resolve)
// rather than the value Excel gives: an argument of the wrong type
// (LOG("abc") is #VALUE!, with strconv's message), a number out of a
// function's domain (#NUM!), a lookup that finds nothing (#N/A). Only the
// first kind leaves the cell without a cached value.
func uncomputed(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "not support") || strings.Contains(msg, "invalid reference")
}

// CachedKind is a cached value's type attribute with the default spelt
// out: a number may be stored with t="n" or none.
func CachedKind(t string) string {
	if t == "" {
		return "n"
	}
	return t
}
