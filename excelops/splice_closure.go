package excelops

import "strings"

// What the recalc splice's calculator must read (splice_recalc.go): the
// areas the written formulas read, known before the scan, and the upstream
// closure of the formulas to compute, with the cycles that send a write to
// the excelize path.

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
