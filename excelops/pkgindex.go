package excelops

import (
	"archive/zip"
	"encoding/xml"
	"io"
	"path"
	"strings"
)

// pkgSheet is one sheet as workbook.xml lists it.
type pkgSheet struct {
	name, part string
	hidden     bool
	id         int    // sheetId
	kind       string // kindWorksheet, kindChartsheet... (see sheetKind)
}

// pkgIndex is what the workbook-level parts say about the sheets.
type pkgIndex struct {
	sheets    []pkgSheet // in workbook order
	activeTab int
	styles    string    // the styles part, from the workbook's relationships
	workbook  string    // the workbook part (xl/workbook.xml as a rule)
	date1904  bool      // workbookPr date1904: the 1904 date system
	names     []pkgName // the defined names, in workbook order
	links     []string  // the external workbooks linked ([1], [2]...), as the links store them
}

// pkgName is one defined name as workbook.xml lists it.
type pkgName struct {
	name   string
	local  int    // localSheetId: the index of the sheet it is local to, -1 for the workbook
	refers string // what it refers to, as workbook.xml holds it
}

// sheetParts reads workbook.xml and its relationships: the sheets in order,
// the zip part of each, and the active tab.
func sheetParts(zr *zip.Reader) (*pkgIndex, error) {
	wbPath := "xl/workbook.xml"
	if data, err := readPart(zr, "_rels/.rels"); err == nil {
		for _, rel := range parseRels(data) {
			if strings.HasSuffix(rel.Type, "/officeDocument") {
				wbPath = strings.TrimPrefix(rel.Target, "/")
			}
		}
	}
	wbData, err := readPart(zr, wbPath)
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
		return nil, newError(KindDamaged, "file is damaged: workbook.xml: "+err.Error(), err)
	}
	relsPath := path.Join(path.Dir(wbPath), "_rels", path.Base(wbPath)+".rels")
	relData, err := readPart(zr, relsPath)
	if err != nil {
		return nil, err
	}
	targets := map[string]string{}
	rels := map[string]string{}
	styles := ""
	for _, rel := range parseRels(relData) {
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
	idx := &pkgIndex{styles: styles, workbook: wbPath, date1904: d != "" && d != "false" && d != "f" && d != "0"}
	if len(wb.Views) > 0 {
		idx.activeTab = wb.Views[0].ActiveTab
	}
	for _, n := range wb.Names {
		pn := pkgName{name: n.Name, local: -1, refers: n.Text}
		if n.Local != nil {
			pn.local = *n.Local
		}
		idx.names = append(idx.names, pn)
	}
	for _, l := range wb.Links {
		for _, a := range l.Attrs {
			if a.Name.Local == "id" && a.Name.Space != "" {
				idx.links = append(idx.links, linkedWorkbook(zr, targets[a.Value]))
			}
		}
	}
	types := partContentTypes(zr)
	for _, s := range wb.Sheets {
		ps := pkgSheet{name: s.Name, id: s.ID, hidden: s.State == "hidden" || s.State == "veryHidden"}
		for _, a := range s.Attrs {
			if a.Name.Local == "id" && a.Name.Space != "" {
				ps.part = targets[a.Value]
				ps.kind = sheetKind(rels[a.Value], ps.part)
				if k := contentKind(types[strings.ToLower(ps.part)]); k != "" {
					ps.kind = k // the content type has the last word
				}
			}
		}
		if ps.kind == "" {
			ps.kind = kindWorksheet
		}
		idx.sheets = append(idx.sheets, ps)
	}
	if idx.activeTab < 0 || idx.activeTab >= len(idx.sheets) {
		idx.activeTab = 0
	}
	if len(idx.sheets) == 0 {
		return nil, newError(KindDamaged, "file is damaged: the workbook lists no sheets", nil)
	}
	return idx, nil
}

// relationship is one entry of a .rels part.
type relationship struct {
	ID     string `xml:"Id,attr"`
	Type   string `xml:"Type,attr"`
	Target string `xml:"Target,attr"`
}

// parseRels decodes a .rels part; a damaged one yields no relationships.
func parseRels(data []byte) []relationship {
	var rels struct {
		Rel []relationship `xml:"Relationship"`
	}
	_ = xml.Unmarshal(data, &rels)
	return rels.Rel
}

// maxSmallPart caps the workbook-level parts sheetParts reads into memory.
const maxSmallPart = 64 << 20

// readPart reads a small part of the package.
func readPart(zr *zip.Reader, name string) ([]byte, error) {
	f := findPart(zr, name)
	if f == nil {
		return nil, newError(KindDamaged, "file is damaged: part "+name+" is missing", nil)
	}
	if f.UncompressedSize64 > maxSmallPart {
		return nil, limitErr("part " + name + " is too large")
	}
	rc, err := f.Open()
	if err != nil {
		return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	data, err := io.ReadAll(io.LimitReader(rc, maxSmallPart))
	if err != nil {
		return nil, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	return data, nil
}

// findPart looks a part up by name, case-insensitively as Excel does.
func findPart(zr *zip.Reader, name string) *zip.File {
	for _, f := range zr.File {
		if strings.EqualFold(strings.ReplaceAll(f.Name, "\\", "/"), name) {
			return f
		}
	}
	return nil
}

// linkedWorkbook is the workbook an external link part names (its
// relationship's target, "file:///" dropped), "" when the part or its
// relationship is missing.
func linkedWorkbook(zr *zip.Reader, part string) string {
	if part == "" {
		return ""
	}
	data, err := readPart(zr, path.Join(path.Dir(part), "_rels", path.Base(part)+".rels"))
	if err != nil {
		return ""
	}
	for _, rel := range parseRels(data) {
		return strings.TrimPrefix(rel.Target, "file:///")
	}
	return ""
}
