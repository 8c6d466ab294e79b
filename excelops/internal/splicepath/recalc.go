package splicepath

import (
	"archive/zip"
	"cmp"
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// The recalc splice: write_cells of formulas, and value writes into cells
// that formulas read, keep every formula's cached value true on the splice
// path.
//
// 1. scanFormulas streams every worksheet once and collects its formula
//    cells (a shared formula's members translated from their master) and
//    extent.
// 2. recalcPlan applies the write to that list (overwritten formulas
//    leave it, written ones join it) and marks, as refreshFormulaValues
//    does on the excelize path, the formulas to compute: those the write
//    may change (dirtyFormulas, transitively) and those without a cached
//    value.
// 3. It closes that set upstream: every cell those formulas read, and
//    the cells the formulas among them read, and so on, since excelize's
//    calculator recomputes every formula it meets.
// 4. calcWorkbook copies exactly those cells (and the write) into a small
//    workbook with the same sheet names, and the same extents where a
//    whole-row or whole-column reference is clamped to them, and computes
//    each formula there with recalc.ComputeFormula, the excelize path's own
//    function: the calculator sees what it would see in the whole
//    workbook, so both paths store the same cached values.
// 5. spliceOnce rewrites the edited sheet with the write and the new
//    cached values, and every other sheet holding a recomputed formula
//    with its new cached values alone (splice.SetCached).
//
// Dynamic arrays are computed on the way, before step 4: the written
// formulas that spill (spill.go) and the anchors of the written
// sheet to spill again (respill.go); their values become cells of
// the write; an anchor on another sheet keeping its range takes its new
// values in place, as in step 5 (respill_other.go).
//
// Whatever the calculator cannot be given exactly takes the excelize path:
// data tables anywhere, a legacy array formula to compute, read or
// overwritten, a dynamic array to spill again on another sheet whose range
// would change, that shows #SPILL! or whose range lacks a cell element,
// a formula to compute that may read anything (a defined name, INDIRECT,
// a 3-D or structured reference),
// a shared formula's master overwritten, typed dates (t="d") among the
// copied cells, more than maxScanFormulas formulas in the workbook,
// recalc.MaxRecalcFormulas to compute or maxScratchCells
// copied cells, and a calculation chain (calcChain.xml) that cannot be
// read or would be left empty when a value replaces a formula it lists
// (its entry is dropped, as excelize drops it).

// MaxSkippedRow bounds the bytes of a row the recalc splice's passes skip
// without tokenizing (sheetxml.Walker.SkipRow).
const MaxSkippedRow = 1 << 20

// maxScanFormulas bounds the formula cells the recalc splice lists (a few
// hundred bytes each); a workbook with more takes the excelize path.
const maxScanFormulas = 200_000

// maxScratchCells bounds the cells the recalc splice copies into its
// calculator workbook; past it the write takes the excelize path.
const maxScratchCells = 200_000

// maxScratchBytes bounds the bytes of those cells' elements (shared
// strings copied in): 200,000 ordinary cells take a few MiB, long texts
// repeated in many cells take the excelize path.
const maxScratchBytes = 8 << 20

// calcFormula is one formula cell of the workbook as the recalc splice
// sees it.
type calcFormula struct {
	at      cellarea.Area   // the cell
	part    string          // its worksheet part
	text    string          // the formula, unescaped (a shared member's translated)
	cached  bool            // it holds a cached value
	master  bool            // it defines a shared formula other cells use
	array   bool            // an array formula (its results fill a range): never computed here
	deps    []cellarea.Area // what it reads
	wide    bool            // it may read anything
	table   bool            // it reads a table, resolved to cells: never computed here (the calculator holds no tables)
	ref     string          // an array formula's range
	dynamic bool            // a dynamic array anchor (its cell points at cell metadata)
	fresh   bool            // an anchor spillWritten or respillAnchors wrote (or left): its value is set
	stuck   bool            // a dynamic array anchor showing #SPILL!
}

// calcSheet is one worksheet as the scan saw it.
type calcSheet struct {
	name, part     string
	maxRow, maxCol int // the highest row (<row> elements included) and column
}

// walkPart streams the worksheet entry zf through a sheetxml.Walker,
// calling fn on every event. A sheet that does not read to its end is
// engine.ErrNoSplice: the excelize path reports the damage.
func walkPart(ctx context.Context, zf *zip.File, fn func(ev sheetxml.Event, w *sheetxml.Walker) error) error {
	rc, err := zf.Open()
	if err != nil {
		return engine.NoSplice("a worksheet part cannot be opened")
	}
	defer rc.Close()
	w := sheetxml.NewWalker(readerWithContext(ctx, sheetread.FailingReader{Reader: rc}))
	for {
		ev, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return engine.NoSplice("a worksheet does not read to its end")
		}
		if err := fn(ev, w); err != nil {
			return err
		}
	}
	if !w.Closed {
		return engine.NoSplice("a worksheet does not read to its end")
	}
	return nil
}

// scanFormulas returns every worksheet of the workbook and all their
// formula cells (see above); engine.ErrNoSplice when one is of a kind the recalc
// splice does not compute. On the way it copies the cells of the early
// areas of each sheet for the calculator, but not the written cells of the
// worksheet part (the write replaces them).
func (sb *Book) scanFormulas(ctx context.Context, early map[string]*earlyCopy, part string, written map[[2]int]cellContent) ([]calcSheet, []calcFormula, error) {
	cp := &cellCopier{sb: sb}
	var sheets []calcSheet
	var all []calcFormula
	for _, ps := range sb.index.Sheets {
		if ps.Part == "" || ps.Kind != opc.Worksheet {
			continue
		}
		zf := opc.FindPart(sb.zr, ps.Part)
		if zf == nil {
			continue
		}
		cs := calcSheet{name: ps.Name, part: zf.Name}
		type master struct {
			text     string
			row, col int
			idx      int
		}
		masters := map[int]master{}
		ec := early[ps.Name]
		take := func(c *sheetxml.Cell, formula string) error {
			if ec == nil || !ec.in.has(c.Row, c.Col) {
				return nil
			}
			if _, ok := written[[2]int{c.Row, c.Col}]; ok && zf.Name == part {
				return nil
			}
			cell, err := cp.copy(c, formula)
			ec.cells = append(ec.cells, cell)
			return err
		}
		err := walkPart(ctx, zf, func(ev sheetxml.Event, w *sheetxml.Walker) error {
			if ev == sheetxml.RowStart {
				cs.maxRow = max(cs.maxRow, w.Row)
				if ec != nil && w.Row >= ec.in.box.R1 && w.Row <= ec.in.box.R2 {
					return nil // a row to copy from: walked
				}
				if _, last, ok := w.SkipRow(MaxSkippedRow); ok {
					cs.maxCol = max(cs.maxCol, last) // a row without formulas, passed over by its bytes
				}
				return nil
			}
			if ev != sheetxml.CellDone {
				return nil
			}
			c := &w.Cell
			cs.maxRow, cs.maxCol = max(cs.maxRow, c.Row), max(cs.maxCol, c.Col)
			if !c.Formula {
				return take(c, "")
			}
			if string(c.FormulaType) == "dataTable" {
				return engine.NoSplice("a sheet holds a data table formula")
			}
			f := calcFormula{at: cellarea.Area{Sheet: ps.Name, C1: c.Col, R1: c.Row, C2: c.Col, R2: c.Row}, part: zf.Name, cached: len(c.Value) > 0, array: string(c.FormulaType) == "array"}
			f.dynamic, f.ref = f.array && c.Meta, string(c.FormulaRef)
			if f.array && string(c.Type) == "e" && string(c.Value) == recalc.SpillError {
				if !c.Meta && zf.Name == part {
					return engine.NoSplice("a legacy array formula on the sheet shows #SPILL!")
				}
				f.stuck = c.Meta // the write may clear its way (respillAnchors looks), or declines on another sheet
			}
			if f.array && !c.Meta && zf.Name == part && arrayRangeMeets(c.FormulaRef, written) {
				// A write into the cells a legacy array formula fills (a
				// dynamic array's spill is spilled again: respillAnchors).
				return engine.NoSplice("the write lands in the range of an array formula")
			}
			switch {
			case len(c.FormulaText) == 0 && c.SharedIndex >= 0:
				m, ok := masters[c.SharedIndex]
				if !ok {
					return engine.NoSplice("a shared formula member comes before its master")
				}
				f.text, _ = formularef.Translate(m.text, c.Row-m.row, c.Col-m.col)
				all[m.idx].master = true
			case len(c.FormulaText) == 0:
				return engine.NoSplice("a formula cell holds no formula text")
			default:
				f.text = string(sheetxml.Unescape(c.FormulaText))
				if string(c.FormulaType) == "shared" && c.SharedIndex >= 0 {
					masters[c.SharedIndex] = master{f.text, c.Row, c.Col, len(all)}
				}
			}
			f.deps, f.wide, f.table = sb.formulaDepsOf(f.text, f.at)
			if all = append(all, f); len(all) > maxScanFormulas {
				return engine.NoSplice("the workbook holds more formulas than the recalc splice scans")
			}
			return take(c, f.text)
		})
		if err != nil {
			return nil, nil, err
		}
		sheets = append(sheets, cs)
	}
	return sheets, all, nil
}

// calcRun is what recalcPlan decided.
type calcRun struct {
	results  map[string]map[[2]int]cachedResult // part -> (row, col) -> cached value, for formulas the write does not replace
	sheetOf  map[string]string                  // part -> sheet name
	computed bool                               // some formula's value was computed: mark the workbook to recalculate on open
	removed  map[[2]int]bool                    // the written cells whose formula a value replaced
}

// recalcPlan applies w (a write into sheet, whose worksheet part is part)
// to the workbook's formulas, computes the cached values that must change
// (see above), stores those of written formulas in w.cells and returns
// the others by part; engine.ErrNoSplice when the excelize path must do it.
func (sb *Book) recalcPlan(ctx context.Context, sheet, part string, w *cellWrites) (*calcRun, error) {
	early := sb.earlyAreas(sheet, w)
	sheets, all, err := sb.scanFormulas(ctx, early, part, w.cells)
	if err != nil {
		return nil, err
	}
	sb.resolveSpillReads(all, w)
	rc := &calcRun{results: map[string]map[[2]int]cachedResult{}, sheetOf: map[string]string{}, removed: map[[2]int]bool{}}
	for _, cs := range sheets {
		rc.sheetOf[cs.part] = cs.name
	}
	kept := all[:0]
	var old []calcFormula // the dynamic array anchors the write overwrites
	for _, f := range all {
		if f.part == part {
			if cc, ok := w.cells[[2]int{f.at.R1, f.at.C1}]; ok {
				if f.master {
					return nil, engine.NoSplice("the write replaces the master cell of a shared formula") // the members lose their formula
				}
				if f.array && !f.dynamic {
					return nil, engine.NoSplice("the write replaces a cell of an array formula") // the array loses its anchor
				}
				if f.dynamic {
					old = append(old, f)
				}
				if cc.kind != 'f' {
					rc.removed[[2]int{f.at.R1, f.at.C1}] = true
				}
				continue
			}
		}
		kept = append(kept, f)
	}
	all = kept
	for key, cc := range w.cells {
		if cc.kind != 'f' {
			continue
		}
		f := calcFormula{at: cellarea.Area{Sheet: sheet, C1: key[1], R1: key[0], C2: key[1], R2: key[0]}, part: part, text: cc.formula}
		f.deps, f.wide, f.table = sb.formulaDepsOf(f.text, f.at)
		all = append(all, f)
	}
	if len(all) > maxScanFormulas {
		return nil, engine.NoSplice("the workbook holds more formulas than the recalc splice scans")
	}
	// The excelize path computes in sheet, row and column order; so does
	// this one (order shows only where formulas read each other in a cycle,
	// which takes the excelize path anyway).
	order := map[string]int{}
	for i, cs := range sheets {
		order[cs.name] = i
	}
	slices.SortStableFunc(all, func(a, b calcFormula) int {
		return cmp.Or(cmp.Compare(order[a.at.Sheet], order[b.at.Sheet]), cmp.Compare(a.at.R1, b.at.R1), cmp.Compare(a.at.C1, b.at.C1))
	})
	areas, err := clearOldSpills(all, sheet, part, old, w)
	if err != nil {
		return nil, err
	}
	spills, err := sb.spillWritten(ctx, sheets, all, sheet, part, w, early)
	if err != nil {
		return nil, err
	}
	areas = append(append([]cellarea.Area{w.area}, areas...), spills...)
	cells := make([]recalc.DepCell, len(all))
	for i, f := range all {
		cells[i] = recalc.DepCell{At: f.at, Deps: f.deps, Wide: f.wide}
	}
	dirty, err := sb.respillAnchors(ctx, sheets, all, cells, areas, sheet, part, w, early)
	if err != nil {
		return nil, err
	}
	compute := make([]bool, len(all))
	var blank []int
	n := 0
	for i, f := range all {
		if f.fresh {
			rc.computed = true // spillWritten computed it
			continue
		}
		if !dirty[i] && f.cached {
			continue
		}
		switch {
		case f.wide:
			return nil, engine.NoSplice(engine.WideReason(f.text, "a formula to recompute"))
		case f.array:
			return nil, engine.NoSplice("a formula to recompute is an array formula")
		case f.table:
			// excelize's calculator implements no structured reference:
			// the excelize path leaves such a formula without a value
			// (Excel computes it on open), and so does this one, as long
			// as no formula computed here reads it (upstream declines).
			blank = append(blank, i)
		default:
			compute[i] = true
			n++
		}
	}
	if n == 0 && len(blank) == 0 {
		// No formula's value changes: every cached value Excel saved stays
		// true, and workbook.xml stays as it was.
		return rc, nil
	}
	rc.computed = true
	if n+len(blank) > recalc.MaxRecalcFormulas {
		return nil, engine.NoSplice("more formulas to recompute than the recalc splice computes") // the excelize path computes that many and drops the rest
	}
	for _, i := range blank {
		rc.store(all[i], part, w, cachedResult{})
	}
	if n == 0 {
		return rc, nil
	}
	need, err := upstream(all, compute)
	if err != nil {
		return nil, err
	}
	values, err := sb.calcWorkbook(ctx, sheets, all, need, compute, part, w, early)
	if err != nil {
		return nil, err
	}
	for i, f := range all {
		if compute[i] {
			rc.store(f, part, w, values[i])
		}
	}
	return rc, nil
}

// store keeps res as the cached value of formula f: in w's cells when
// the write holds f (part is the written worksheet part), else in
// rc.results by part.
func (rc *calcRun) store(f calcFormula, part string, w *cellWrites, res cachedResult) {
	key := [2]int{f.at.R1, f.at.C1}
	if cc, ok := w.cells[key]; ok && f.part == part {
		cc.cachedType, cc.cachedValue = res.t, res.v
		w.cells[key] = cc
		return
	}
	if rc.results[f.part] == nil {
		rc.results[f.part] = map[[2]int]cachedResult{}
	}
	rc.results[f.part][key] = res
}

// sheetNamed returns the index of the sheet Excel would resolve name to
// (names compare case-insensitively), or -1.
func sheetNamed(sheets []calcSheet, name string) int {
	for i, s := range sheets {
		if strings.EqualFold(s.name, name) {
			return i
		}
	}
	return -1
}
