package opc

import (
	"archive/zip"
	"encoding/xml"
	"io"
	"path"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
)

// Sheet is one sheet as workbook.xml lists it.
type Sheet struct {
	// Name is the sheet's name; Part the zip part holding it.
	Name, Part string
	// Hidden is true for a hidden or very hidden sheet.
	Hidden bool
	// ID is the sheetId.
	ID int
	// Kind is Worksheet, Chartsheet, Macrosheet or Dialogsheet (see SheetKind).
	Kind string
}

// Index is what the workbook-level parts say about the sheets.
type Index struct {
	// Sheets are in workbook order.
	Sheets []Sheet
	// ActiveTab is the index of the sheet shown first.
	ActiveTab int
	// Styles is the styles part, from the workbook's relationships.
	Styles string
	// Workbook is the workbook part (xl/workbook.xml as a rule).
	Workbook string
	// Date1904 is workbookPr date1904: the 1904 date system.
	Date1904 bool
	// Names are the defined names, in workbook order.
	Names []Name
	// Links are the external workbooks linked ([1], [2]...), as the links store them.
	Links []string
}

// Name is one defined name as workbook.xml lists it.
type Name struct {
	// Name is the defined name.
	Name string
	// Local is localSheetId: the index of the sheet it is local to, -1 for the workbook.
	Local int
	// Refers is what it refers to, as workbook.xml holds it.
	Refers string
}

// ReadIndex reads workbook.xml and its relationships: the sheets in order,
// the zip part of each, and the active tab.
func ReadIndex(zr *zip.Reader) (*Index, error) {
	wbPath := "xl/workbook.xml"
	if data, err := ReadPart(zr, "_rels/.rels"); err == nil {
		for _, rel := range ParseRels(data) {
			if strings.HasSuffix(rel.Type, "/officeDocument") {
				wbPath = strings.TrimPrefix(rel.Target, "/")
			}
		}
	}
	wbData, err := ReadPart(zr, wbPath)
	if err != nil {
		return nil, err
	}
	var wb struct {
		Pr struct {
			Date1904 string `xml:"date1904,attr"`
		} `xml:"workbookPr"`
		Views []struct {
			ActiveTab int `xml:"activeTab,attr"`
		} `xml:"bookViews>workbookView"`
		Sheets []struct {
			Name  string     `xml:"name,attr"`
			ID    int        `xml:"sheetId,attr"`
			State string     `xml:"state,attr"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sheets>sheet"`
		Names []struct {
			Name  string `xml:"name,attr"`
			Local *int   `xml:"localSheetId,attr"`
			Text  string `xml:",chardata"`
		} `xml:"definedNames>definedName"`
		Links []struct {
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"externalReferences>externalReference"`
	}
	if err := xml.Unmarshal(wbData, &wb); err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: workbook.xml: "+err.Error(), err)
	}
	relsPath := path.Join(path.Dir(wbPath), "_rels", path.Base(wbPath)+".rels")
	relData, err := ReadPart(zr, relsPath)
	if err != nil {
		return nil, err
	}
	targets := map[string]string{}
	rels := map[string]string{}
	styles := ""
	for _, rel := range ParseRels(relData) {
		t := rel.Target
		if strings.HasPrefix(t, "/") {
			t = strings.TrimPrefix(t, "/")
		} else {
			t = path.Join(path.Dir(wbPath), t)
		}
		targets[rel.ID] = t
		rels[rel.ID] = rel.Type
		if strings.HasSuffix(rel.Type, "/styles") {
			styles = t
		}
	}
	// openpyxl's Bool: "false", "f", "0" and "" are false, any other text true.
	d := wb.Pr.Date1904
	idx := &Index{Styles: styles, Workbook: wbPath, Date1904: d != "" && d != "false" && d != "f" && d != "0"}
	if len(wb.Views) > 0 {
		idx.ActiveTab = wb.Views[0].ActiveTab
	}
	for _, n := range wb.Names {
		pn := Name{Name: n.Name, Local: -1, Refers: n.Text}
		if n.Local != nil {
			pn.Local = *n.Local
		}
		idx.Names = append(idx.Names, pn)
	}
	for _, l := range wb.Links {
		for _, a := range l.Attrs {
			if a.Name.Local == "id" && a.Name.Space != "" {
				idx.Links = append(idx.Links, linkedWorkbook(zr, targets[a.Value]))
			}
		}
	}
	types := PartContentTypes(zr)
	for _, s := range wb.Sheets {
		ps := Sheet{Name: s.Name, ID: s.ID, Hidden: s.State == "hidden" || s.State == "veryHidden"}
		for _, a := range s.Attrs {
			if a.Name.Local == "id" && a.Name.Space != "" {
				ps.Part = targets[a.Value]
				ps.Kind = SheetKind(rels[a.Value], ps.Part)
				if k := ContentKind(types[strings.ToLower(ps.Part)]); k != "" {
					ps.Kind = k // the content type has the last word
				}
			}
		}
		if ps.Kind == "" {
			ps.Kind = Worksheet
		}
		idx.Sheets = append(idx.Sheets, ps)
	}
	if idx.ActiveTab < 0 || idx.ActiveTab >= len(idx.Sheets) {
		idx.ActiveTab = 0
	}
	if len(idx.Sheets) == 0 {
		return nil, failure.New(failure.KindDamaged, "file is damaged: the workbook lists no sheets", nil)
	}
	return idx, nil
}

// Relationship is one entry of a .rels part.
type Relationship struct {
	ID     string `xml:"Id,attr"`
	Type   string `xml:"Type,attr"`
	Target string `xml:"Target,attr"`
}

// ParseRels decodes a .rels part; a damaged one yields no relationships.
func ParseRels(data []byte) []Relationship {
	var rels struct {
		Rel []Relationship `xml:"Relationship"`
	}
	_ = xml.Unmarshal(data, &rels)
	return rels.Rel
}

// MaxSmallPart caps the workbook-level parts ReadIndex reads into memory.
const MaxSmallPart = 64 << 20

// ReadPart reads a small part of the package.
func ReadPart(zr *zip.Reader, name string) ([]byte, error) {
	f := FindPart(zr, name)
	if f == nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: part "+name+" is missing", nil)
	}
	if f.UncompressedSize64 > MaxSmallPart {
		return nil, budget.TooLarge("part " + name + " is too large")
	}
	rc, err := f.Open()
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, MaxSmallPart))
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	return data, nil
}

// FindPart looks a part up by name, case-insensitively as Excel does.
func FindPart(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if strings.EqualFold(strings.ReplaceAll(f.Name, "\\", "/"), name) {
			return f
		}
	}
	return nil
}

// linkedWorkbook is the workbook an external link part names (its
// Relationship's target, "file:///" dropped), "" when the part or its
// Relationship is missing.
func linkedWorkbook(zr *zip.Reader, part string) string {
	if part == "" {
		return ""
	}
	data, err := ReadPart(zr, path.Join(path.Dir(part), "_rels", path.Base(part)+".rels"))
	if err != nil {
		return ""
	}
	for _, rel := range ParseRels(data) {
		return strings.TrimPrefix(rel.Target, "file:///")
	}
	return ""
}
