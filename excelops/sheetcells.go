package excelops

import (
	"reflect"
	"sort"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
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

// shiftCells moves the cell elements of the zone: those of the deleted
// range go, the others move into their place with everything they hold
// (value, type, style, formula, cached result).
func (b *book) shiftCells(sheet string, band formularef.Band) (moved, deleted int, err error) {
	rows, err := b.sheetData(sheet)
	if err != nil {
		return 0, 0, err
	}
	zone := bandZone(band)
	carry := map[int][]reflect.Value{} // target row -> cells
	for i := 0; i < rows.Len(); i++ {
		cells := rows.Index(i).FieldByName("C")
		kept := reflect.MakeSlice(cells.Type(), 0, cells.Len())
		changed := false
		for j := 0; j < cells.Len(); j++ {
			c := cells.Index(j)
			info, ok := cellInfo(c)
			if !ok {
				return 0, 0, errUnexpectedShape("worksheet cell")
			}
			if !zone.has(info.col, info.row) {
				kept = reflect.Append(kept, c)
				continue
			}
			changed = true
			col, row, ok := bandTarget(band, info.col, info.row)
			if !ok {
				deleted++
				continue
			}
			cp := reflect.New(c.Type()).Elem()
			cp.Set(c)
			cp.FieldByName("R").SetString(cellName(col, row))
			carry[row] = append(carry[row], cp)
			moved++
		}
		if changed {
			cells.Set(kept)
			clearSpans(rows.Index(i))
		}
	}
	if len(carry) == 0 {
		return moved, deleted, nil
	}
	for i := 0; i < rows.Len(); i++ {
		row := rows.Index(i)
		n := int(row.FieldByName("R").Int())
		if add, ok := carry[n]; ok {
			insertCells(row, add)
			delete(carry, n)
		}
	}
	for n, add := range carry {
		row := reflect.New(rows.Type().Elem()).Elem()
		row.FieldByName("R").SetInt(int64(n))
		insertCells(row, add)
		rows.Set(reflect.Append(rows, row))
	}
	swap := reflect.Swapper(rows.Interface())
	sort.Sort(byRowNumber{rows, swap})
	return moved, deleted, nil
}

// byRowNumber sorts a worksheet's rows by their number.
type byRowNumber struct {
	rows reflect.Value
	swap func(i, j int)
}

func (s byRowNumber) Len() int      { return s.rows.Len() }
func (s byRowNumber) Swap(i, j int) { s.swap(i, j) }
func (s byRowNumber) Less(i, j int) bool {
	return s.rows.Index(i).FieldByName("R").Int() < s.rows.Index(j).FieldByName("R").Int()
}

// insertCells adds cells to a row, keeping its cells in column order.
func insertCells(row reflect.Value, add []reflect.Value) {
	cells := row.FieldByName("C")
	for _, c := range add {
		cells.Set(reflect.Append(cells, c))
	}
	col := func(i int) int {
		n, _, _ := excelize.CellNameToCoordinates(cells.Index(i).FieldByName("R").String())
		return n
	}
	swap := reflect.Swapper(cells.Interface())
	sort.Sort(byColumn{cells.Len(), col, swap})
	clearSpans(row)
}

// byColumn sorts a row's cells by column.
type byColumn struct {
	n    int
	col  func(i int) int
	swap func(i, j int)
}

func (s byColumn) Len() int           { return s.n }
func (s byColumn) Swap(i, j int)      { s.swap(i, j) }
func (s byColumn) Less(i, j int) bool { return s.col(i) < s.col(j) }

// clearSpans drops a row's spans hint, which no longer matches its cells.
func clearSpans(row reflect.Value) {
	if sp := row.FieldByName("Spans"); sp.Kind() == reflect.String && sp.CanSet() {
		sp.SetString("")
	}
}
