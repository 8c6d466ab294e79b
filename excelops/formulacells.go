package excelops

import (
	"errors"
	"fmt"
	"reflect"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// formulaAt is one cell holding a formula; arrayRef is the range of an
// array (CSE) formula anchored there, "" for any other formula.
type formulaAt struct {
	ref, arrayRef string
}

// formulaCells lists the cells of sheet that hold a formula (a shared
// formula's followers included), in sheet order.
//
// excelize has no public way to list them, so this reads the parsed
// worksheet it keeps in File.Sheet (an exported map) through reflection,
// read-only, as writeKeepingSheets does: the worksheet's exported
// SheetData.Row[].C[] with each cell's R and F fields, found under the part
// name excelize maps the sheet to. If a future excelize changes that shape
// the call fails with an internal error instead of silently skipping
// formulas; TestFormulaCellsSeesEveryFormula pins it.
func (b *book) formulaCells(sheet string) ([]formulaAt, error) {
	// Reading a cell parses the sheet into File.Sheet if it is not yet.
	if _, err := b.f.GetCellValue(sheet, "A1"); err != nil {
		return nil, newError(KindDamaged, fmt.Sprintf("file is damaged: sheet %q cannot be parsed: %v", sheet, err), err)
	}
	ws, ok := parsedSheet(b.f, sheet)
	if !ok {
		return nil, fmt.Errorf("cannot list the formulas of sheet %q: this excelize version keeps worksheets in an unexpected shape", sheet)
	}
	rows := ws.FieldByName("SheetData")
	if rows.IsValid() {
		rows = rows.FieldByName("Row")
	}
	if !rows.IsValid() || rows.Kind() != reflect.Slice {
		return nil, errors.New("cannot list formulas: unexpected worksheet shape")
	}
	var out []formulaAt
	for i := 0; i < rows.Len(); i++ {
		cells := rows.Index(i).FieldByName("C")
		if !cells.IsValid() || cells.Kind() != reflect.Slice {
			return nil, errors.New("cannot list formulas: unexpected row shape")
		}
		for j := 0; j < cells.Len(); j++ {
			c := cells.Index(j)
			f, r := c.FieldByName("F"), c.FieldByName("R")
			if !f.IsValid() || f.Kind() != reflect.Pointer || r.Kind() != reflect.String {
				return nil, errors.New("cannot list formulas: unexpected cell shape")
			}
			if !f.IsNil() {
				fc := formulaAt{ref: r.String()}
				if t, ref := f.Elem().FieldByName("T"), f.Elem().FieldByName("Ref"); t.Kind() == reflect.String && t.String() == excelize.STCellFormulaTypeArray && ref.Kind() == reflect.String {
					fc.arrayRef = ref.String()
				}
				out = append(out, fc)
			}
		}
	}
	return out, nil
}

// parsedSheet returns the parsed worksheet struct excelize holds for sheet
// (File.Sheet is keyed by part name; File.sheetMap maps names to parts and
// is read, never written, through reflection).
func parsedSheet(f *excelize.File, sheet string) (reflect.Value, bool) {
	m := reflect.ValueOf(f).Elem().FieldByName("sheetMap")
	if !m.IsValid() || m.Kind() != reflect.Map || m.Type().Key().Kind() != reflect.String {
		return reflect.Value{}, false
	}
	part := m.MapIndex(reflect.ValueOf(sheet))
	if !part.IsValid() || part.Kind() != reflect.String {
		return reflect.Value{}, false
	}
	ws, ok := f.Sheet.Load(part.String())
	if !ok || ws == nil {
		return reflect.Value{}, false
	}
	v := reflect.ValueOf(ws)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, false
	}
	return v.Elem(), true
}
