package recalc

import "github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"

// maxOrderedSpills bounds the anchors SpillOrder orders; past it they
// spill again in sheet, row and column order.
const maxOrderedSpills = 256

// SpillOrder returns the dynamic array anchors to spill again, cand
// (indices into cells, in sheet, row and column order; spills[k] is the
// range cand[k] spills over now, its anchor included), in the order to
// spill them: each one after every other one whose spill it reads (a
// spill reference, or a range over spilled cells), so that it computes
// from their new values rather than from the old; those that read each
// other in a cycle, and the rest past maxOrderedSpills, keep their order.
func SpillOrder(cand []int, cells []DepCell, spills []cellarea.Area) []int {
	if len(cand) < 2 || len(cand) > maxOrderedSpills {
		return cand
	}
	reads := func(k, j int) bool {
		for _, d := range cells[cand[k]].Deps {
			if d.Overlaps(spills[j]) {
				return true
			}
		}
		return false
	}
	done := make([]bool, len(cand))
	out := make([]int, 0, len(cand))
	for len(out) < len(cand) {
		next := -1
		for k := range cand {
			if done[k] {
				continue
			}
			ready := true
			for j := range cand {
				if j != k && !done[j] && reads(k, j) {
					ready = false
					break
				}
			}
			if ready {
				next = k
				break
			}
		}
		if next < 0 { // a cycle: the rest as they come
			for k := range cand {
				if !done[k] {
					out = append(out, cand[k])
				}
			}
			return out
		}
		done[next] = true
		out = append(out, cand[next])
	}
	return out
}
