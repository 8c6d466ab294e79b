package excelops

import (
	"archive/zip"
	"cmp"
	"context"
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// The recalc splice: write_cells of formulas, and value writes into cells
// that formulas read, keep issue 9's cached values on the splice path.
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
//    each formula there with computeFormula, the excelize path's own
//    function: the calculator sees what it would see in the whole
//    workbook, so both paths store the same cached values.
// 5. spliceOnce rewrites the edited sheet with the write and the new
//    cached values, and every other sheet holding a recomputed formula
//    with its new cached values alone (splice.SetCached).
//
// Whatever the calculator cannot be given exactly takes the excelize path:
// array formulas and data tables anywhere, a formula to compute that may
// read anything (a defined name, INDIRECT, a 3-D or structured reference),
// a shared formula's master overwritten, typed dates (t="d") among the
// copied cells, more than maxRecalcFormulas formulas or maxScratchCells
// copied cells, and a workbook with a calculation chain whose formula a
// value replaces.

// maxSkippedRow bounds the bytes of a row the recalc splice's passes skip
// without tokenizing (sheetxml.Walker.SkipRow).
const maxSkippedRow = 1 << 20

// maxScratchCells bounds the cells the recalc splice copies into its
// calculator workbook; past it the write takes the excelize path.
const maxScratchCells = 200_000

// calcFormula is one formula cell of the workbook as the recalc splice
// sees it.
type calcFormula struct {
	at     sheetArea   // the cell
	part   string      // its worksheet part
	text   string      // the formula, unescaped (a shared member's translated)
	cached bool        // it holds a cached value
	master bool        // it defines a shared formula other cells use
	deps   []sheetArea // what it reads
	wide   bool        // it may read anything
}

// calcSheet is one worksheet as the scan saw it.
type calcSheet struct {
	name, part     string
	maxRow, maxCol int // the highest row (<row> elements included) and column
}

// spliceWrites is what a write_cells plan writes, for the recalc splice:
// its block (the edit area, as on the excelize path) and each cell's
// content, shared with the plan's Cell function, which writes the cached
// values recalcPlan stores here.
type spliceWrites struct {
	area  sheetArea
	cells map[[2]int]cellContent // (row, col) -> content
}

// hasFormulas reports whether the write holds a formula.
func (w *spliceWrites) hasFormulas() bool {
	for _, cc := range w.cells {
		if cc.kind == 'f' {
			return true
		}
	}
	return false
}

// cachedResult is a computed cached value: t and v as computeFormula
// returns them (v == "" for none).
type cachedResult struct{ t, v string }

// walkPart streams the worksheet entry zf through a sheetxml.Walker,
// calling fn on every event. A sheet that does not read to its end is
// errNoSplice: the excelize path reports the damage.
func walkPart(ctx context.Context, zf *zip.File, fn func(ev sheetxml.Event, w *sheetxml.Walker) error) error {
	rc, err := zf.Open()
	if err != nil {
		return errNoSplice
	}
	defer rc.Close()
	w := sheetxml.NewWalker(readerWithContext(ctx, failingReader{rc}))
	for {
		ev, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errNoSplice
		}
		if err := fn(ev, w); err != nil {
			return err
		}
	}
	if !w.Closed {
		return errNoSplice
	}
	return nil
}

// scanFormulas returns every worksheet of the workbook and all their
// formula cells (see above); errNoSplice when one is of a kind the recalc
// splice does not compute. On the way it copies the cells of the early
// areas of each sheet for the calculator, but not the written cells of the
// worksheet part (the write replaces them).
func (sb *spliceBook) scanFormulas(ctx context.Context, early map[string]*earlyCopy, part string, written map[[2]int]cellContent) ([]calcSheet, []calcFormula, error) {
	cp := &cellCopier{sb: sb}
	var sheets []calcSheet
	var all []calcFormula
	for _, ps := range sb.index.sheets {
		if ps.part == "" || !isWorksheetPart(ps.part) {
			continue
		}
		zf := findPart(sb.zr, ps.part)
		if zf == nil {
			continue
		}
		cs := calcSheet{name: ps.name, part: zf.Name}
		type master struct {
			text     string
			row, col int
			idx      int
		}
		masters := map[int]master{}
		ec := early[ps.name]
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
				if ec != nil && w.Row >= ec.in.box.r1 && w.Row <= ec.in.box.r2 {
					return nil // a row to copy from: walked
				}
				if _, last, ok := w.SkipRow(maxSkippedRow); ok {
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
			if ft := string(c.FormulaType); ft == "array" || ft == "dataTable" {
				return errNoSplice
			}
			f := calcFormula{at: sheetArea{ps.name, c.Col, c.Row, c.Col, c.Row}, part: zf.Name, cached: len(c.Value) > 0}
			switch {
			case len(c.FormulaText) == 0 && c.SharedIndex >= 0:
				m, ok := masters[c.SharedIndex]
				if !ok {
					return errNoSplice
				}
				f.text, _ = formularef.Translate(m.text, c.Row-m.row, c.Col-m.col)
				all[m.idx].master = true
			case len(c.FormulaText) == 0:
				return errNoSplice
			default:
				f.text = string(sheetxml.Unescape(c.FormulaText))
				if string(c.FormulaType) == "shared" && c.SharedIndex >= 0 {
					masters[c.SharedIndex] = master{f.text, c.Row, c.Col, len(all)}
				}
			}
			f.deps, f.wide = formulaDeps(f.text, ps.name)
			if all = append(all, f); len(all) > maxRecalcFormulas {
				return errNoSplice
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

// recalc is what recalcPlan decided.
type recalc struct {
	results   map[string]map[[2]int]cachedResult // part -> (row, col) -> cached value, for formulas the write does not replace
	sheetOf   map[string]string                  // part -> sheet name
	formulas  bool                               // the workbook holds formulas after the write
	overwrote bool                               // a value replaced a formula
}

// recalcPlan applies w (a write into sheet, whose worksheet part is part)
// to the workbook's formulas, computes the cached values that must change
// (see above), stores those of written formulas in w.cells and returns
// the others by part; errNoSplice when the excelize path must do it.
func (sb *spliceBook) recalcPlan(ctx context.Context, sheet, part string, w *spliceWrites) (*recalc, error) {
	early := sb.earlyAreas(sheet, w)
	sheets, all, err := sb.scanFormulas(ctx, early, part, w.cells)
	if err != nil {
		return nil, err
	}
	rc := &recalc{results: map[string]map[[2]int]cachedResult{}, sheetOf: map[string]string{}}
	for _, cs := range sheets {
		rc.sheetOf[cs.part] = cs.name
	}
	kept := all[:0]
	for _, f := range all {
		if f.part == part {
			if cc, ok := w.cells[[2]int{f.at.r1, f.at.c1}]; ok {
				if f.master {
					return nil, errNoSplice // the members lose their formula
				}
				rc.overwrote = rc.overwrote || cc.kind != 'f'
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
		f := calcFormula{at: sheetArea{sheet, key[1], key[0], key[1], key[0]}, part: part, text: cc.formula}
		f.deps, f.wide = formulaDeps(f.text, sheet)
		all = append(all, f)
	}
	if len(all) > maxRecalcFormulas {
		return nil, errNoSplice
	}
	// The excelize path computes in sheet, row and column order; so does
	// this one (order shows only where formulas read each other in a cycle,
	// which takes the excelize path anyway).
	order := map[string]int{}
	for i, cs := range sheets {
		order[cs.name] = i
	}
	slices.SortStableFunc(all, func(a, b calcFormula) int {
		return cmp.Or(cmp.Compare(order[a.at.sheet], order[b.at.sheet]), cmp.Compare(a.at.r1, b.at.r1), cmp.Compare(a.at.c1, b.at.c1))
	})
	rc.formulas = len(all) > 0
	cells := make([]depCell, len(all))
	for i, f := range all {
		cells[i] = depCell{at: f.at, deps: f.deps, wide: f.wide}
	}
	dirty := dirtyFormulas(cells, []sheetArea{w.area})
	compute := make([]bool, len(all))
	n := 0
	for i, f := range all {
		if compute[i] = dirty[i] || !f.cached; compute[i] {
			if f.wide {
				return nil, errNoSplice
			}
			n++
		}
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
		if !compute[i] {
			continue
		}
		res := values[i]
		key := [2]int{f.at.r1, f.at.c1}
		if cc, ok := w.cells[key]; ok && f.part == part {
			cc.cachedType, cc.cachedValue = res.t, res.v
			w.cells[key] = cc
			continue
		}
		if rc.results[f.part] == nil {
			rc.results[f.part] = map[[2]int]cachedResult{}
		}
		rc.results[f.part][key] = res
	}
	return rc, nil
}

// earlyAreas returns, by sheet name as the workbook lists it, the areas the
// formulas of w (written into sheet) read: the scan copies their cells, so
// a write whose formulas read nothing else computes without a second pass.
func (sb *spliceBook) earlyAreas(sheet string, w *spliceWrites) map[string]*earlyCopy {
	by := map[string][]sheetArea{}
	for _, cc := range w.cells {
		if cc.kind != 'f' {
			continue
		}
		deps, wide := formulaDeps(cc.formula, sheet)
		if wide {
			return nil // it takes the excelize path
		}
		for _, d := range deps {
			for _, ps := range sb.index.sheets {
				if strings.EqualFold(ps.name, d.sheet) {
					d.sheet = ps.name
					by[ps.name] = append(by[ps.name], d)
					break
				}
			}
		}
	}
	out := map[string]*earlyCopy{}
	for name, areas := range by {
		if len(areas) > maxAreasPerSheet {
			areas = []sheetArea{boundingBox(areas)}
		}
		out[name] = &earlyCopy{in: newAreaSet(areas)}
	}
	return out
}

// upstream returns the areas the calculator reads to compute the formulas
// marked in compute: what they read and, in turn, what every formula in
// there reads (it is recomputed too), each formula's own cell included.
// errNoSplice when one of those formulas may read anything, when they read
// each other in a cycle (a circular reference: what excelize computes
// then depends on the order it meets cells and on their old values), or
// when the chain is too long to follow.
func upstream(all []calcFormula, compute []bool) ([]sheetArea, error) {
	in := append([]bool(nil), compute...)
	var need, frontier []sheetArea
	for i, f := range all {
		if in[i] {
			need = append(need, f.at)
			frontier = append(frontier, f.deps...)
		}
	}
	checks := 0
	for len(frontier) > 0 {
		need = append(need, frontier...)
		var next []sheetArea
		for i, f := range all {
			if in[i] {
				continue
			}
			for _, a := range frontier {
				if checks++; a.overlaps(f.at) {
					if f.wide {
						return nil, errNoSplice
					}
					in[i] = true
					next = append(next, f.deps...)
					break
				}
			}
		}
		if checks > maxDepChecks {
			return nil, errNoSplice
		}
		frontier = next
	}
	if cyclic(all, in) {
		return nil, errNoSplice
	}
	return need, nil
}

// cyclic reports whether the formulas marked in read each other in a
// cycle (one reading its own cell included); a graph too big to check
// counts as cyclic.
func cyclic(all []calcFormula, in []bool) bool {
	var nodes []int
	for i := range all {
		if in[i] {
			nodes = append(nodes, i)
		}
	}
	if len(nodes)*len(nodes) > maxDepChecks {
		return true
	}
	reads := make([][]int, len(nodes)) // node -> the nodes whose cell it reads
	for a, i := range nodes {
		for b, j := range nodes {
			for _, d := range all[i].deps {
				if d.overlaps(all[j].at) {
					reads[a] = append(reads[a], b)
					break
				}
			}
		}
	}
	const (
		unseen = iota
		open
		done
	)
	state := make([]int, len(nodes))
	var visit func(a int) bool
	visit = func(a int) bool {
		state[a] = open
		for _, b := range reads[a] {
			if state[b] == open || state[b] == unseen && visit(b) {
				return true
			}
		}
		state[a] = done
		return false
	}
	for a := range nodes {
		if state[a] == unseen && visit(a) {
			return true
		}
	}
	return false
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
