package excelops

import (
	"reflect"

	"github.com/xuri/excelize/v2"
)

// The cells a worksheet holds, read and rearranged through the parsed
// worksheet excelize keeps (SheetData.Row[].C[], exported fields reached by
// reflection as formulaCells does): excelize has no public way to list the
// cells that exist in a range, to move a cell with everything it holds
// (type, style, cached value, rich text), or to turn a shared formula into
// ordinary ones without dropping its followers. TestSheetCellsShape pins
// the shape.

// existingCell is one cell element of a worksheet.
type existingCell struct {
	ref      string
	col, row int
	formula  bool   // holds a formula
	arrayRef string // the range of an array formula anchored here
	value    bool   // holds a value (or a formula)
}

// sheetData returns the worksheet's Row slice (settable).
func (b *book) sheetData(sheet string) (reflect.Value, error) {
	if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
		return reflect.Value{}, newError(KindDamaged, "file is damaged: sheet "+sheet+" cannot be parsed: "+err.Error(), err)
	}
	ws, ok := parsedSheet(b.f, sheet)
	if !ok {
		return reflect.Value{}, errUnexpectedShape("worksheet")
	}
	rows := ws.FieldByName("SheetData")
	if rows.IsValid() {
		rows = rows.FieldByName("Row")
	}
	if !rows.IsValid() || rows.Kind() != reflect.Slice || !rows.CanSet() {
		return reflect.Value{}, errUnexpectedShape("worksheet")
	}
	return rows, nil
}

// cellInfo reads one cell element.
func cellInfo(c reflect.Value) (existingCell, bool) {
	r, f, v, is, t := c.FieldByName("R"), c.FieldByName("F"), c.FieldByName("V"), c.FieldByName("IS"), c.FieldByName("T")
	if r.Kind() != reflect.String || f.Kind() != reflect.Pointer || v.Kind() != reflect.String || is.Kind() != reflect.Pointer || t.Kind() != reflect.String {
		return existingCell{}, false
	}
	col, row, err := excelize.CellNameToCoordinates(r.String())
	if err != nil {
		return existingCell{}, false
	}
	e := existingCell{ref: r.String(), col: col, row: row, formula: !f.IsNil(), value: !f.IsNil() || v.String() != "" || !is.IsNil()}
	if !f.IsNil() {
		ft, ref := f.Elem().FieldByName("T"), f.Elem().FieldByName("Ref")
		if ft.Kind() == reflect.String && ft.String() == excelize.STCellFormulaTypeArray && ref.Kind() == reflect.String {
			e.arrayRef = ref.String()
		}
	}
	return e, true
}

// existingCells lists the cell elements of sheet inside rng, in sheet order.
func (b *book) existingCells(sheet string, rng cellRange) ([]existingCell, error) {
	rows, err := b.sheetData(sheet)
	if err != nil {
		return nil, err
	}
	var out []existingCell
	for i := 0; i < rows.Len(); i++ {
		cells := rows.Index(i).FieldByName("C")
		if cells.Kind() != reflect.Slice {
			return nil, errUnexpectedShape("worksheet row")
		}
		for j := 0; j < cells.Len(); j++ {
			e, ok := cellInfo(cells.Index(j))
			if !ok {
				return nil, errUnexpectedShape("worksheet cell")
			}
			if rng.has(e.col, e.row) {
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// unshareFormulas turns every shared formula of sheet into ordinary
// formulas with the same text, cached values kept, so cells can then be
// cleared or moved one by one: excelize drops every follower of a shared
// formula whose anchor is cleared, and reads a follower relative to its
// anchor's place.
func (b *book) unshareFormulas(sheet string) error {
	rows, err := b.sheetData(sheet)
	if err != nil {
		return err
	}
	type shared struct {
		f    reflect.Value // the *xlsxF
		text string
	}
	var found []shared
	for i := 0; i < rows.Len(); i++ {
		cells := rows.Index(i).FieldByName("C")
		for j := 0; j < cells.Len(); j++ {
			c := cells.Index(j)
			f := c.FieldByName("F")
			if f.Kind() != reflect.Pointer || f.IsNil() {
				continue
			}
			if t := f.Elem().FieldByName("T"); t.Kind() != reflect.String || t.String() != excelize.STCellFormulaTypeShared {
				continue
			}
			text, err := b.f.GetCellFormula(sheet, c.FieldByName("R").String())
			if err != nil {
				return newError(KindDamaged, "file is damaged: "+err.Error(), err)
			}
			found = append(found, shared{f, text})
		}
	}
	// Every text is read before any is changed: followers read their
	// anchor.
	for _, s := range found {
		fe := s.f.Elem()
		content, t, ref, si := fe.FieldByName("Content"), fe.FieldByName("T"), fe.FieldByName("Ref"), fe.FieldByName("Si")
		if content.Kind() != reflect.String || !content.CanSet() || ref.Kind() != reflect.String || si.Kind() != reflect.Pointer {
			return errUnexpectedShape("shared formula")
		}
		content.SetString(s.text)
		t.SetString("")
		ref.SetString("")
		si.Set(reflect.Zero(si.Type()))
	}
	return nil
}

// refreshExtent sets ext to the cells sheet holds, after an edit that
// moved or deleted some.
func (b *book) refreshExtent(sheet string, ext *sheetExtent) error {
	all, err := b.existingCells(sheet, cellRange{1, 1, excelize.MaxColumns, excelize.TotalRows})
	if err != nil {
		return err
	}
	*ext = sheetExtent{closed: true}
	for _, c := range all {
		ext.widen(c.row, c.col)
	}
	return nil
}
