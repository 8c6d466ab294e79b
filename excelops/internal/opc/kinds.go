package opc

import (
	"archive/zip"
	"encoding/xml"
	"strings"
)

// The kinds of sheet a workbook lists, as list_sheets and
// describe_workbook report them. Only worksheets hold cells the tools read
// or edit; the others are listed and skipped.
const (
	Worksheet   = "worksheet"
	Chartsheet  = "chartsheet"
	Macrosheet  = "macrosheet"  // an Excel 4 macro sheet (XLM)
	Dialogsheet = "dialogsheet" // an Excel 5 dialog sheet
)

// SheetKind classifies a sheet by the type of the workbook Relationship
// that points to it, else by where its part lives (ReadIndex then lets
// the part's content type, when it names a kind, decide: see ContentKind).
func SheetKind(relType, part string) string {
	t := strings.ToLower(relType)
	switch {
	case strings.HasSuffix(t, "/worksheet"):
		return Worksheet
	case strings.HasSuffix(t, "/chartsheet"):
		return Chartsheet
	case strings.HasSuffix(t, "/dialogsheet"):
		return Dialogsheet
	case strings.HasSuffix(t, "macrosheet"): // xlMacrosheet, xlIntlMacrosheet
		return Macrosheet
	}
	p := strings.ToLower(part)
	switch {
	case strings.Contains(p, "chartsheets/"):
		return Chartsheet
	case strings.Contains(p, "macrosheets/"):
		return Macrosheet
	case strings.Contains(p, "dialogsheets/"):
		return Dialogsheet
	}
	return Worksheet
}

// ContentKind classifies a sheet part by its content type, "" when the
// type names no kind of sheet.
func ContentKind(contentType string) string {
	t := strings.ToLower(contentType)
	switch {
	case strings.Contains(t, "macrosheet"):
		return Macrosheet
	case strings.Contains(t, "dialogsheet"):
		return Dialogsheet
	case strings.Contains(t, "chartsheet"):
		return Chartsheet
	case strings.Contains(t, "worksheet"):
		return Worksheet
	}
	return ""
}

// PartContentTypes returns the content types [Content_Types].xml gives
// parts by name (lower case, without the leading slash); a missing or
// damaged part gives none.
func PartContentTypes(zr *zip.Reader) map[string]string {
	out := map[string]string{}
	data, err := ReadPart(zr, "[Content_Types].xml")
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
