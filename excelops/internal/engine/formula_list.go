package engine

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// FormulaAt is one cell holding a formula; arrayRef is the range of an
// array (CSE) formula anchored there, "" for any other formula; dynamic
// says the array formula is a dynamic array anchor (its range a spill).
type FormulaAt struct {
	Ref, ArrayRef string
	Dynamic       bool
}

// FormulaCells lists the cells of sheet that hold a formula (a shared
// formula's followers included), in sheet order.
//
// excelize has no public way to list them, so this reads the worksheet it
// has parsed (File.Worksheet), read-only: SheetData.Row[].C[] with each
// cell's R and F. TestFormulaCellsSeesEveryFormula pins it.
func (b *Book) FormulaCells(sheet string) ([]FormulaAt, error) {
	ws, err := b.f.Worksheet(sheet)
	if err != nil {
		return nil, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: sheet %q cannot be parsed: %v", sheet, err), err)
	}
	var out []FormulaAt
	for _, row := range ws.SheetData.Row {
		for _, c := range row.C {
			if c.F == nil {
				continue
			}
			fc := FormulaAt{Ref: c.R}
			if c.F.T == excelize.STCellFormulaTypeArray {
				fc.ArrayRef = c.F.Ref
				_, fc.Dynamic = recalc.DynamicAnchor(&c)
			}
			out = append(out, fc)
		}
	}
	return out, nil
}
