package recalc

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// SpillSortRefusal is sort_range's refusal of a range holding any cell of
// a dynamic array's spill (its anchor included): Excel refuses to change
// part of an array, and a sort would scatter the anchor and the values it
// spilled, which only the anchor may place. A spill beside the sorted
// range, reading it, spills again after the sort.
func SpillSortRefusal(rng, spill cellarea.Range, anchor string) error {
	return failure.Invalid("range %s holds cells of the spill %s of the dynamic array formula in %s, which a sort cannot move: Excel does not change part of an array; sort a range that leaves the spill out, or paste the spill as values first (copy_range_between_sheets with values_only)", rng, spill, anchor)
}
