package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
)

// Dynamic arrays through copy_range_between_sheets. Excel pastes a dynamic
// array anchor as its formula, which spills again at the destination (or
// shows #SPILL! when a cell there is in the way); the cells it spilled over
// hold no formula of their own: those the copy takes with their anchor are
// pasted empty (the anchor fills them again), those it takes without their
// anchor are pasted as the values they show. A values-only copy pastes what
// every cell shows.

// SourceSpills is what a copy knows of the dynamic arrays of its source
// range: which of its cells are anchors, and which spilled cells it takes
// with their anchor; cells are (col, row) of the source sheet.
type SourceSpills struct {
	anchors map[[2]int]bool
	owned   map[[2]int]bool
}

// spillsIn reads the dynamic array anchors of sheet inside rng, and the
// cells of rng they spilled over.
func spillsIn(b *Book, sheet string, rng cellarea.Range) (SourceSpills, error) {
	s := SourceSpills{anchors: map[[2]int]bool{}, owned: map[[2]int]bool{}}
	ws, err := sheetData(b, sheet)
	if err != nil {
		return s, err
	}
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		if row.R < rng.R1 || row.R > rng.R2 {
			continue
		}
		for j := range row.C {
			spill, ok := recalc.DynamicAnchor(&row.C[j])
			if !ok || !rng.Has(spill.C1, spill.R1) {
				continue
			}
			s.anchors[[2]int{spill.C1, spill.R1}] = true
			for r := max(spill.R1, rng.R1); r <= min(spill.R2, rng.R2); r++ {
				for c := max(spill.C1, rng.C1); c <= min(spill.C2, rng.C2); c++ {
					if c != spill.C1 || r != spill.R1 {
						s.owned[[2]int{c, r}] = true
					}
				}
			}
		}
	}
	return s, nil
}

// PasteSpills reads the dynamic arrays of sheet in rng (spillsIn) and
// makes cells (read from rng) what a paste of them writes: a spilled cell
// taken with its anchor is empty.
func PasteSpills(b *Book, sheet string, rng cellarea.Range, cells [][]CopiedCell) (SourceSpills, error) {
	s, err := spillsIn(b, sheet, rng)
	if err != nil {
		return s, err
	}
	for i, row := range cells {
		for j := range row {
			if s.owned[[2]int{rng.C1 + j, rng.R1 + i}] {
				row[j] = CopiedCell{}
			}
		}
	}
	return s, nil
}

// CopyPlan lists the cells a copy writes at dst, as write_cells' plan
// lists its cells (anchorsUnder reads what they overwrite), and the
// indexes in it of the anchors the copy takes: the caller sets their
// formula once written, and spillWrites spills them and clears the spills
// of the anchors the copy overwrote.
func (s SourceSpills) CopyPlan(src, dst cellarea.Range) (plan []CellWrite, anchors []int) {
	plan = make([]CellWrite, 0, dst.Cells())
	for r := dst.R1; r <= dst.R2; r++ {
		for c := dst.C1; c <= dst.C2; c++ {
			if s.anchors[[2]int{src.C1 + c - dst.C1, src.R1 + r - dst.R1}] {
				anchors = append(anchors, len(plan))
			}
			plan = append(plan, CellWrite{Col: c, Row: r})
		}
	}
	return plan, anchors
}

// SpillCopy spills the anchors a copy wrote at dst on sh (plan and
// anchors from copyPlan, old from anchorsUnder before the writes), widens
// the sheet's extent over their spills and, on a sheet the call did not
// create, sets the edit set of the copy: the destination and every spill
// range changed, the anchors spilled already.
func SpillCopy(b *Book, sh SheetRef, dst cellarea.Range, plan []CellWrite, anchors []int, old []recalc.OldAnchor) error {
	for _, i := range anchors {
		formula, err := b.f.GetCellFormula(sh.Name, grid.CellName(plan[i].Col, plan[i].Row))
		if err != nil {
			return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
		}
		plan[i].Formula = formula
	}
	return b.SpillBlock(sh, dst, plan, old)
}

// CopiedCell is one source cell of copy_range_between_sheets.
type CopiedCell struct {
	Value   any
	Formula string
}
