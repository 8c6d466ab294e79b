package excelops

import (
	"fmt"
	"strings"
)

// The kinds of sheet a workbook lists, as list_sheets and
// describe_workbook report them. Only worksheets hold cells the tools read
// or edit; the others are listed and skipped.
const (
	kindWorksheet   = "worksheet"
	kindChartsheet  = "chartsheet"
	kindMacrosheet  = "macrosheet"  // an Excel 4 macro sheet (XLM)
	kindDialogsheet = "dialogsheet" // an Excel 5 dialog sheet
)

// sheetKind classifies a sheet by the type of the workbook relationship
// that points to it, else by where its part lives.
func sheetKind(relType, part string) string {
	t := strings.ToLower(relType)
	switch {
	case strings.HasSuffix(t, "/worksheet"):
		return kindWorksheet
	case strings.HasSuffix(t, "/chartsheet"):
		return kindChartsheet
	case strings.HasSuffix(t, "/dialogsheet"):
		return kindDialogsheet
	case strings.HasSuffix(t, "macrosheet"): // xlMacrosheet, xlIntlMacrosheet
		return kindMacrosheet
	}
	p := strings.ToLower(part)
	switch {
	case strings.Contains(p, "chartsheets/"):
		return kindChartsheet
	case strings.Contains(p, "macrosheets/"):
		return kindMacrosheet
	case strings.Contains(p, "dialogsheets/"):
		return kindDialogsheet
	}
	return kindWorksheet
}

// kindDescription names a kind of sheet in messages.
func kindDescription(kind string) string {
	switch kind {
	case kindChartsheet:
		return "a chart sheet"
	case kindMacrosheet:
		return "an Excel 4 macro sheet"
	case kindDialogsheet:
		return "a dialog sheet"
	}
	return "a worksheet"
}

// notAWorksheet is the refusal to read or edit the cells of a sheet of
// another kind.
func notAWorksheet(sheet, kind string) error {
	return newError(KindInvalidArgument, fmt.Sprintf("sheet %q is %s, not a worksheet: it has no cells to read or edit (list_sheets gives each sheet's kind)", sheet, kindDescription(kind)), nil)
}

// sheetKindOf returns the kind of the sheet named sheet as the package on
// disk lists it; a sheet the package does not list (one this call
// created) is a worksheet.
func (b *book) sheetKindOf(sheet string) (string, error) {
	if _, err := b.part(sheet); err != nil {
		return "", err
	}
	if b.index == nil {
		return kindWorksheet, nil
	}
	for _, s := range b.index.sheets {
		if s.name == sheet {
			return s.kind, nil
		}
	}
	return kindWorksheet, nil
}

// requireWorksheet fails with notAWorksheet unless sheet is a worksheet.
func (b *book) requireWorksheet(sheet string) error {
	kind, err := b.sheetKindOf(sheet)
	if err != nil {
		return err
	}
	if kind != kindWorksheet {
		return notAWorksheet(sheet, kind)
	}
	return nil
}
