package splicepath

import (
	"sort"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
)

// What the recalc splice's calculator must read (recalc.go): the
// areas the written formulas read, known before the scan, and the upstream
// closure of the formulas to compute, with the cycles that send a write to
// the excelize path.

// earlyAreas returns, by sheet name as the workbook lists it, the areas the
// formulas of w (written into sheet) read: the scan copies their cells, so
// a write whose formulas read nothing else computes without a second pass.
func (sb *Book) earlyAreas(sheet string, w *cellWrites) map[string]*earlyCopy {
	by := map[string][]cellarea.Area{}
	for _, cc := range w.cells {
		if cc.kind != 'f' {
			continue
		}
		deps, wide := formuladeps.ScanSheet(cc.formula, sheet)
		if wide {
			return nil // a name or a spill reference, resolved after the scan (or the excelize path): nothing is copied early
		}
		for _, d := range deps {
			if name, _, ok := sb.resolveSheet(d.Sheet); ok {
				d.Sheet = name
				by[name] = append(by[name], d)
			}
		}
	}
	out := map[string]*earlyCopy{}
	for name, areas := range by {
		if len(areas) > maxAreasPerSheet {
			areas = []cellarea.Area{boundingBox(areas)}
		}
		out[name] = &earlyCopy{in: newAreaSet(areas)}
	}
	return out
}

// formulaIndex finds the formulas of a list sorted by sheet (in workbook
// order), row and column that lie in an area, by binary search over rows.
type formulaIndex struct {
	all   []calcFormula
	spans map[string][2]int // lower-case sheet name -> [from, to) in all
}

// newFormulaIndex indexes all, which must be sorted as recalcPlan sorts it.
func newFormulaIndex(all []calcFormula) formulaIndex {
	x := formulaIndex{all: all, spans: map[string][2]int{}}
	for i := 0; i < len(all); {
		j := i
		for j < len(all) && all[j].at.Sheet == all[i].at.Sheet {
			j++
		}
		x.spans[strings.ToLower(all[i].at.Sheet)] = [2]int{i, j}
		i = j
	}
	return x
}

// each calls fn with the index of every formula whose cell lies in a, in
// order, until fn returns false; it returns how many formulas it looked at.
func (x formulaIndex) each(a cellarea.Area, fn func(i int) bool) int {
	span, ok := x.spans[strings.ToLower(a.Sheet)]
	if !ok {
		return 0
	}
	from := span[0] + sort.Search(span[1]-span[0], func(k int) bool { return x.all[span[0]+k].at.R1 >= a.R1 })
	looked := 0
	for i := from; i < span[1] && x.all[i].at.R1 <= a.R2; i++ {
		looked++
		if c := x.all[i].at.C1; c >= a.C1 && c <= a.C2 && !fn(i) {
			break
		}
	}
	return looked
}

// upstream returns the areas the calculator reads to compute the formulas
// marked in compute: what they read and, in turn, what every formula in
// there reads (it is recomputed too), each formula's own cell included.
// engine.ErrNoSplice when one of those formulas may read anything, when they read
// each other in a cycle (a circular reference: what excelize computes
// then depends on the order it meets cells and on their old values), or
// when the chain is too long to follow.
func upstream(all []calcFormula, compute []bool) ([]cellarea.Area, error) {
	idx := newFormulaIndex(all)
	in := append([]bool(nil), compute...)
	var need, frontier []cellarea.Area
	for i, f := range all {
		if in[i] {
			need = append(need, f.at)
			frontier = append(frontier, f.deps...)
		}
	}
	checks, wide := 0, ""
	for len(frontier) > 0 {
		need = append(need, frontier...)
		var next []cellarea.Area
		for _, a := range frontier {
			checks += 1 + idx.each(a, func(i int) bool {
				if in[i] {
					return true
				}
				if all[i].wide || (all[i].array && !all[i].fresh && !all[i].dynamic) || all[i].table {
					// It may read anything, or cannot be computed here.
					wide = "a formula the recomputed ones read is a legacy array formula"
					if all[i].wide || all[i].table {
						wide = engine.WideReason(all[i].text, "a formula the recomputed ones read")
					}
					return false
				}
				in[i] = true
				next = append(next, all[i].deps...)
				return true
			})
			if wide != "" {
				return nil, engine.NoSplice(wide)
			}
			if checks > recalc.MaxDepChecks {
				return nil, engine.NoSplice("the formulas to recompute read too long a chain")
			}
		}
		frontier = next
	}
	if cyclic(idx, in) {
		return nil, engine.NoSplice("the formulas to recompute read each other in a cycle")
	}
	return need, nil
}

// cyclic reports whether the formulas marked in read each other in a
// cycle (one reading its own cell included); a graph too big to check
// counts as cyclic.
func cyclic(idx formulaIndex, in []bool) bool {
	all := idx.all
	reads := make([][]int, len(all)) // formula -> the marked formulas whose cell it reads
	checks := 0
	for i := range all {
		if !in[i] {
			continue
		}
		for _, d := range all[i].deps {
			checks += 1 + idx.each(d, func(j int) bool {
				if in[j] {
					reads[i] = append(reads[i], j)
				}
				return true
			})
			if checks > recalc.MaxDepChecks {
				return true
			}
		}
	}
	const (
		unseen = iota
		open
		done
	)
	state := make([]uint8, len(all))
	var visit func(i int) bool
	visit = func(i int) bool {
		state[i] = open
		for _, j := range reads[i] {
			if state[j] == open || state[j] == unseen && visit(j) {
				return true
			}
		}
		state[i] = done
		return false
	}
	for i := range all {
		if in[i] && state[i] == unseen && visit(i) {
			return true
		}
	}
	return false
}
