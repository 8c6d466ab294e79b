package recalc

import "github.com/registry-sidecar/registry-sidecar/third_party/excelize"

// formulaCell is one formula cell of a parsed worksheet, with write access
// to its cached value (<v>) and type (t).
type formulaCell struct {
	Ref  string            // A1 reference
	cell *excelize.XMLCell // the cell in the parsed worksheet
}

// setCached stores the cached result of the cell: t is the cell type ("" for
// a number, "b", "e" or "str") and v its text; v == "" drops the value,
// except with t "str": an empty text, which the formula element marks so
// that excelize writes an empty <v> (it omits an empty value otherwise).
func (c formulaCell) setCached(t, v string) {
	empty := t == "str" && v == ""
	if v == "" && !empty {
		t = ""
	}
	if c.cell.F != nil {
		c.cell.F.SetEmptyTextResult(empty)
	} else if empty {
		t = ""
	}
	c.cell.T = t
	c.cell.V = v
}

// cachedValue returns the cell's current cached text.
func (c formulaCell) cachedValue() string { return c.cell.V }

// worksheetFormulaCells returns the formula cells of a parsed worksheet (a
// value of File.Sheet).
//
// excelize (v2.11) has no API to store a formula's cached value with its
// type: SetCellFormula marks every formula cell t="str" and SetCellValue
// drops the formula. So this reaches the cells of the parsed worksheet
// (SheetData.Row[].C[] with R, T, V, F); ok is false when ws is not one,
// and the caller then drops cached values through the public API instead
// (never wrong, only less helpful). TestFormulaValuesCached pins it.
func worksheetFormulaCells(ws any) (cells []formulaCell, ok bool) {
	sheet, ok := ws.(*excelize.XMLWorksheet)
	if !ok || sheet == nil {
		return nil, false
	}
	for i := range sheet.SheetData.Row {
		row := &sheet.SheetData.Row[i]
		for j := range row.C {
			if row.C[j].F != nil {
				cells = append(cells, formulaCell{Ref: row.C[j].R, cell: &row.C[j]})
			}
		}
	}
	return cells, true
}
