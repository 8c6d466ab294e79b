package engine

import (
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// KindDescription names a kind of sheet in messages.
func KindDescription(kind string) string {
	switch kind {
	case opc.Chartsheet:
		return "a chart sheet"
	case opc.Macrosheet:
		return "an Excel 4 macro sheet"
	case opc.Dialogsheet:
		return "a dialog sheet"
	}
	return "a worksheet"
}

// notAWorksheet is the refusal to read or edit the cells of a sheet of
// another kind.
func notAWorksheet(sheet, kind string) error {
	return failure.New(failure.KindInvalidArgument, fmt.Sprintf("sheet %q is %s, not a worksheet: it has no cells to read or edit (list_sheets gives each sheet's kind)", sheet, KindDescription(kind)), nil)
}

// SheetKindOf returns the kind of the sheet named sheet as the package on
// disk lists it; a sheet the package does not list (one this call
// created) is a worksheet.
func (b *Book) SheetKindOf(sheet string) (string, error) {
	if _, err := b.Part(sheet); err != nil {
		return "", err
	}
	if b.Index == nil {
		return opc.Worksheet, nil
	}
	for _, s := range b.Index.Sheets {
		if s.Name == sheet {
			return s.Kind, nil
		}
	}
	return opc.Worksheet, nil
}

// requireWorksheet fails with notAWorksheet unless sheet is a worksheet.
func (b *Book) requireWorksheet(sheet string) error {
	kind, err := b.SheetKindOf(sheet)
	if err != nil {
		return err
	}
	if kind != opc.Worksheet {
		return notAWorksheet(sheet, kind)
	}
	return nil
}
