package engine

import (
	"sort"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The cells a worksheet holds, read and rearranged through the worksheet
// excelize has parsed (File.Worksheet: SheetData.Row[].C[]): excelize has
// no public way to list the cells that exist in a range, to move a cell
// with everything it holds (type, style, cached value, rich text), or to
// turn a shared formula into ordinary ones without dropping its followers.
// TestSheetCellsShape pins it.

// existingCell is one cell element of a worksheet.
type existingCell struct {
	Ref      string
	col, row int
	Formula  bool   // holds a formula
	ArrayRef string // the range of an array formula anchored here
	Value    bool   // holds a value (or a formula)
}

// sheetData returns the parsed worksheet of sheet, parsing it if needed.
func sheetData(b *Book, sheet string) (*excelize.XMLWorksheet, error) {
	ws, err := b.f.Worksheet(sheet)
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: sheet "+sheet+" cannot be parsed: "+err.Error(), err)
	}
	return ws, nil
}

// cellInfo reads one cell element; ok is false when its reference is not
// one.
func cellInfo(c *excelize.XMLCell) (existingCell, bool) {
	col, row, err := excelize.CellNameToCoordinates(c.R)
	if err != nil {
		return existingCell{}, false
	}
	e := existingCell{Ref: c.R, col: col, row: row, Formula: c.F != nil, Value: c.F != nil || c.V != "" || c.IS != nil}
	if c.F != nil && c.F.T == excelize.STCellFormulaTypeArray {
		e.ArrayRef = c.F.Ref
	}
	return e, true
}

// ExistingCells lists the cell elements of sheet inside rng, in sheet order.
func ExistingCells(b *Book, sheet string, rng cellarea.Range) ([]existingCell, error) {
	ws, err := sheetData(b, sheet)
	if err != nil {
		return nil, err
	}
	var out []existingCell
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		for j := range row.C {
			e, ok := cellInfo(&row.C[j])
			if !ok {
				return nil, ErrUnexpectedShape("worksheet cell")
			}
			if rng.Has(e.col, e.row) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// UnshareFormulas turns every shared formula of sheet into ordinary
// formulas with the same text, cached values kept, so cells can then be
// cleared or moved one by one: excelize drops every follower of a shared
// formula whose anchor is cleared, and reads a follower relative to its
// anchor's place.
func UnshareFormulas(b *Book, sheet string) error {
	ws, err := sheetData(b, sheet)
	if err != nil {
		return err
	}
	type shared struct {
		f    *excelize.XMLFormula
		text string
	}
	var found []shared
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		for j := range row.C {
			c := &row.C[j]
			if c.F == nil || c.F.T != excelize.STCellFormulaTypeShared {
				continue
			}
			text, err := b.f.GetCellFormula(sheet, c.R)
			if err != nil {
				return failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
			}
			found = append(found, shared{c.F, text})
		}
	}
	// Every text is read before any is changed: followers read their
	// anchor.
	for _, s := range found {
		s.f.Content, s.f.T, s.f.Ref, s.f.Si = s.text, "", "", nil
	}
	return nil
}

// RefreshExtent sets ext to the cells sheet holds, after an edit that
// moved or deleted some.
func RefreshExtent(b *Book, sheet string, ext *sheetread.SheetExtent) error {
	all, err := ExistingCells(b, sheet, cellarea.Range{C1: 1, R1: 1, C2: excelize.MaxColumns, R2: excelize.TotalRows})
	if err != nil {
		return err
	}
	*ext = sheetread.SheetExtent{Closed: true}
	for _, c := range all {
		ext.Widen(c.row, c.col)
	}
	return nil
}

// ShiftCells moves the cell elements of the zone: those of the deleted
// range go, the others move into their place with everything they hold
// (value, type, style, formula, cached result).
func ShiftCells(b *Book, sheet string, band formularef.Band) (moved, deleted int, err error) {
	ws, err := sheetData(b, sheet)
	if err != nil {
		return 0, 0, err
	}
	zone := BandZone(band)
	carry := map[int][]excelize.XMLCell{} // target row -> cells
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		kept := make([]excelize.XMLCell, 0, len(row.C))
		changed := false
		for _, c := range row.C {
			info, ok := cellInfo(&c)
			if !ok {
				return 0, 0, ErrUnexpectedShape("worksheet cell")
			}
			if !zone.Has(info.col, info.row) {
				kept = append(kept, c)
				continue
			}
			changed = true
			col, r, ok := BandTarget(band, info.col, info.row)
			if !ok {
				deleted++
				continue
			}
			c.R = grid.CellName(col, r) // c is a copy: the cell as it moves
			if c.F != nil && c.F.T == excelize.STCellFormulaTypeArray && c.F.Ref != "" {
				// The array's range moves whole with its anchor
				// (checkBandShift refused a split): the reference rewrite
				// sets it only where the formula's text changed.
				f := *c.F
				if f.Ref, ok = band.Area(f.Ref); ok {
					c.F = &f
				}
			}
			carry[r] = append(carry[r], c)
			moved++
		}
		if changed {
			row.C = kept
			row.Spans = "" // the spans hint no longer matches the cells
		}
	}
	if len(carry) == 0 {
		return moved, deleted, nil
	}
	for i := range ws.SheetData.Row {
		row := &ws.SheetData.Row[i]
		if add, ok := carry[row.R]; ok {
			insertCells(row, add)
			delete(carry, row.R)
		}
	}
	for n, add := range carry {
		row := excelize.XMLRow{R: n}
		insertCells(&row, add)
		ws.SheetData.Row = append(ws.SheetData.Row, row)
	}
	rows := ws.SheetData.Row
	sort.SliceStable(rows, func(i, j int) bool { return rows[i].R < rows[j].R })
	return moved, deleted, nil
}

// insertCells adds cells to a row, keeping its cells in column order and
// one per column from A, as excelize keeps a parsed row (its setters find
// a cell by position): a column the row lacks before an added cell gets an
// empty cell, which excelize does not save.
func insertCells(row *excelize.XMLRow, add []excelize.XMLCell) {
	row.C = append(row.C, add...)
	col := func(c *excelize.XMLCell) int {
		n, _, _ := excelize.CellNameToCoordinates(c.R)
		return n
	}
	sort.SliceStable(row.C, func(i, j int) bool { return col(&row.C[i]) < col(&row.C[j]) })
	if last := len(row.C); last > 0 && col(&row.C[last-1]) != last {
		padded := make([]excelize.XMLCell, 0, col(&row.C[last-1]))
		for _, c := range row.C {
			for n := len(padded) + 1; n < col(&c); n++ {
				padded = append(padded, excelize.XMLCell{R: grid.CellName(n, row.R)})
			}
			padded = append(padded, c)
		}
		row.C = padded
	}
	row.Spans = "" // the spans hint no longer matches the cells
}
