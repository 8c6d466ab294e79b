package excelops

import (
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// clearDeletedSpills clears, before rows or columns of sheet are deleted,
// the values spilled by each dynamic array anchor the deletion removes: in
// Excel they belong to the anchor and go with it, where excelize would
// keep them as plain values. rows says whether the band [from, to] is of
// rows (else columns). The spills of anchors that stay are put right after
// the move by the refresh (respill).
func clearDeletedSpills(f *excelize.File, sheet string, rows bool, from, to int) error {
	ws, err := f.Worksheet(sheet)
	if err != nil {
		return err
	}
	var gone []oldAnchor
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		for j := range row.C {
			c := &row.C[j]
			spill, ok := dynamicAnchor(c)
			if !ok {
				continue
			}
			col, r, err := excelize.CellNameToCoordinates(c.R)
			if err != nil {
				continue
			}
			at := col
			if rows {
				at = r
			}
			if at >= from && at <= to {
				gone = append(gone, oldAnchor{col, r, spill})
			}
		}
	}
	return clearOldSpills(f, sheet, gone, nil)
}
