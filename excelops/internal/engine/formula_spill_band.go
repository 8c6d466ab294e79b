package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
)

// Dynamic arrays through delete_range. A legacy array formula holds every
// cell of its range, so a shift that would split it is refused; a dynamic
// array anchor holds only its formula, its spill being values the anchor
// puts there. Excel lets cells be deleted through a spill: the anchor moves
// with its cell (or goes with it), and its spill fills its range again from
// wherever the anchor is, or shows #SPILL! when a cell moved into the way.

// BandSpills returns the dynamic array anchors of sheet whose spill a
// delete_range of band takes apart (bandKeepsWhole is false for the spill
// range): their spilled values must not move as plain values. how names
// the shift for a refusal. An anchor the calculator cannot spill again (its
// formula calls a function it cannot compute, or not exactly) is refused
// when it would stay, as a legacy array formula would be; one the shift
// deletes takes its spill along whatever it computes.
func BandSpills(b *Book, sheet string, band formularef.Band, how string) ([]recalc.OldAnchor, error) {
	anchors, err := anchorsOf(b.f, sheet)
	if err != nil {
		return nil, err
	}
	deleted := cellarea.Range{C1: band.C1, R1: band.R1, C2: band.C2, R2: band.R2}
	var out []recalc.OldAnchor
	for _, a := range anchors {
		if BandKeepsWhole(band, a.Spill) {
			continue
		}
		if !deleted.Has(a.Col, a.Row) && !canSpillAgain(b, sheet, a.Formula) {
			return nil, failure.Invalid("cannot delete %s %s: it would split the spill %s of the dynamic array formula in %s, whose result cannot be computed here to spill again; delete a range that keeps the spill whole, or write the formula again after the edit", deleted, how, a.Spill, grid.CellName(a.Col, a.Row))
		}
		out = append(out, a)
	}
	return out, nil
}

// canSpillAgain reports whether the formula (of an anchor on sheet) is one
// spillFormulas computes and spills.
func canSpillAgain(b *Book, sheet, formula string) bool {
	return formula != "" && formulatext.MaySpill(formula) && !recalc.CallsUncomputable(formula) && !recalc.InexactInArrays(b.f, sheet, formula) // an anchor is an array formula
}

// RespillBand spills again, after the shift of band, the anchors
// bandSpills found (their spill cleared before the shift by recalc.ClearOldSpills,
// which left each a plain formula): each anchor the shift kept, where it
// is now, spills as write_cells spills a formula, or shows #SPILL! when its
// new range is obstructed. It returns the edit set of the delete: the
// band's, with the anchors and their new spill ranges as changed cells
// that the refresh spills no further.
func RespillBand(b *Book, sheet string, band formularef.Band, spills []recalc.OldAnchor) (*recalc.EditSet, error) {
	edits := recalc.DeletedBand(band)
	var plan []CellWrite
	for _, a := range spills {
		col, row := a.Col, a.Row
		if BandZone(band).Has(col, row) {
			var ok bool
			if col, row, ok = BandTarget(band, col, row); !ok {
				continue // deleted with its cell
			}
		}
		formula, err := b.f.GetCellFormula(sheet, grid.CellName(col, row))
		if err != nil || formula == "" {
			continue
		}
		plan = append(plan, CellWrite{Col: col, Row: row, Formula: formula})
	}
	if len(plan) == 0 {
		return edits, nil
	}
	spilled, err := spillFormulas(b.CallContext(), b.f, b.Svc.Limits.Calc(), sheet, plan, b.Svc.Limits.MaxWriteCells)
	if err != nil {
		return nil, err
	}
	anchors := formulaCellsOf(sheet, plan)
	edits.Fresh = anchors
	edits.Areas = append(edits.Areas, anchors...)
	for _, r := range spilled {
		edits.Areas = append(edits.Areas, cellarea.Area{Sheet: sheet, C1: r.C1, R1: r.R1, C2: r.C2, R2: r.R2})
	}
	return edits, nil
}
