package recalc

import (
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// maxTaintChecks bounds the area comparisons readersOfInexactLegacy makes;
// past it every formula not yet cleared counts as a reader, which is never
// wrong, only less helpful.
const maxTaintChecks = 4_000_000

// readersOfInexactLegacy returns, for each formula of all, whether it
// reads, directly or through formulas that do, the range of a legacy array
// formula over several cells the engine cannot compute exactly
// (legacyExact); nil when the workbook holds none. The calculator computes
// such a reader from the array itself, so it would store the engine's
// inexact value (IFERROR around a function the engine lacks): it is left
// without a value instead. A legacy array formula reading one is one too,
// and so are the formulas that may read anything.
func readersOfInexactLegacy(f *excelize.File, all []sheetFormula) []bool {
	out := make([]bool, len(all))
	var bad []cellarea.Area
	for i, sf := range all {
		if r, ok := legacyArrayRange(sf.Cell.cell); ok && !legacyExact(f, sf.sheet, sf.Cell.Ref) {
			out[i] = true
			bad = append(bad, cellarea.Area{Sheet: sf.sheet, C1: r.C1, R1: r.R1, C2: r.C2, R2: r.R2})
		}
	}
	if len(bad) == 0 {
		return nil
	}
	deps := dependencies(f, all, false, false)
	checks := 0
	for len(bad) > 0 {
		var next []cellarea.Area
		for i, d := range deps {
			if out[i] {
				continue
			}
			if checks += len(bad) * max(len(d.Deps), 1); checks > maxTaintChecks || d.Wide || readsAnyOf(d.Deps, bad) {
				out[i] = true
				next = append(next, d.filled())
			}
		}
		bad = next
	}
	return out
}

// readsAnyOf reports whether an area of deps overlaps an area of bad.
func readsAnyOf(deps, bad []cellarea.Area) bool {
	for _, d := range deps {
		for _, b := range bad {
			if d.Overlaps(b) {
				return true
			}
		}
	}
	return false
}

// legacyExact reports whether the engine can compute the legacy array
// formula whose first cell is sheet!ref exactly, as far as its text tells
// (what legacyArrayValues checks before computing it).
func legacyExact(f *excelize.File, sheet, ref string) bool {
	formula, err := f.GetCellFormula(sheet, ref)
	return err == nil && !CallsUncomputable(formula) && !strings.Contains(formula, "#REF!") && !InexactInArrays(f, sheet, formula)
}
