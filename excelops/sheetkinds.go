package excelops

import (
	"archive/zip"
	"encoding/xml"
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
// that points to it, else by where its part lives (sheetParts then lets
// the part's content type, when it names a kind, decide: see contentKind).
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

// contentKind classifies a sheet part by its content type, "" when the
// type names no kind of sheet.
func contentKind(contentType string) string {
	t := strings.ToLower(contentType)
	switch {
	case strings.Contains(t, "macrosheet"):
		return kindMacrosheet
	case strings.Contains(t, "dialogsheet"):
		return kindDialogsheet
	case strings.Contains(t, "chartsheet"):
		return kindChartsheet
	case strings.Contains(t, "worksheet"):
		return kindWorksheet
	}
	return ""
}

// partContentTypes returns the content types [Content_Types].xml gives
// parts by name (lower case, without the leading slash); a missing or
// damaged part gives none.
func partContentTypes(zr *zip.Reader) map[string]string {
	out := map[string]string{}
	data, err := readPart(zr, "[Content_Types].xml")
	if err != nil {
		return out
	}
	var ct struct {
		Overrides []struct {
			PartName    string `xml:"PartName,attr"`
			ContentType string `xml:"ContentType,attr"`
		} `xml:"Override"`
	}
	_ = xml.Unmarshal(data, &ct)
	for _, o := range ct.Overrides {
		out[strings.ToLower(strings.TrimPrefix(o.PartName, "/"))] = o.ContentType
	}
	return out
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
