package engine

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// ClearDeletedSpills clears, before rows or columns of sheet are deleted,
// the values spilled by each dynamic array anchor the deletion removes: in
// Excel they belong to the anchor and go with it, where excelize would
// keep them as plain values. rows says whether the band [from, to] is of
// rows (else columns). The spills of anchors that stay are put right after
// the move by the refresh (respill).
func (b *Book) ClearDeletedSpills(sheet string, rows bool, from, to int) error {
	anchors, err := anchorsOf(b.f, sheet)
	if err != nil {
		return err
	}
	var gone []recalc.OldAnchor
	for _, a := range anchors {
		at := a.Col
		if rows {
			at = a.Row
		}
		if at >= from && at <= to {
			gone = append(gone, a)
		}
	}
	return recalc.ClearOldSpills(b.f, sheet, gone, nil)
}

// anchorsOf lists the dynamic array anchors of sheet, in row order, each
// at its own cell (an anchor whose cell reference does not parse is left
// out) with its spill range and its formula.
func anchorsOf(f *excelize.File, sheet string) ([]recalc.OldAnchor, error) {
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return nil, err
	}
	var out []recalc.OldAnchor
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		for j := range row.C {
			c := &row.C[j]
			spill, ok := recalc.DynamicAnchor(c)
			if !ok {
				continue
			}
			if col, r, err := excelize.CellNameToCoordinates(c.R); err == nil {
				out = append(out, recalc.OldAnchor{Col: col, Row: r, Spill: spill, Formula: c.F.Content})
			}
		}
	}
	return out, nil
}
