package excelops

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// scanBufferSize is the read buffer of the sheet scanner.
const scanBufferSize = 64 << 10

// sheetExtent is what a fast pass over a worksheet's XML learns without
// parsing it: how far it reaches and how big excelize would make it.
type sheetExtent struct {
	rows           int   // <row> elements
	minRow, maxRow int   // row numbers of the used range (0 when empty)
	minCol, maxCol int   // column numbers of the used range (0 when empty)
	padded         int64 // cells excelize materialises: each row padded to its last column, plus empty rows
	closed         bool  // </sheetData> (or <sheetData/>) was seen: the XML is not truncated
}

// empty reports whether no cell was seen.
func (e sheetExtent) empty() bool { return e.maxCol == 0 }

// scanSheet reads worksheet XML as a byte stream, tag by tag, and measures
// it. It stops early with a KindLimit error once the sheet is larger than
// lim allows, so a bomb costs one pass over the bytes and no allocations.
func scanSheet(r io.Reader, lim Limits) (sheetExtent, error) {
	var (
		ext            sheetExtent
		br             = bufio.NewReaderSize(r, scanBufferSize)
		curRow, curCol int
		rowMaxCol      int
		inRow          bool
		lastCountedRow int
		closeRow       = func() {}
		errLimitRows   = func(n int) error {
			return limitErr(fmt.Sprintf("the sheet declares row %d, more than the limit of %d rows", n, lim.MaxRows))
		}
		errLimitCells = func() error {
			return limitErr(fmt.Sprintf("the sheet would expand to more than %d cells in memory (cells far to the right pad every row)", lim.MaxCells))
		}
		checkCellsBudget = func() bool { return ext.padded+int64(rowMaxCol) > lim.MaxCells }
	)
	closeRow = func() {
		if !inRow {
			return
		}
		inRow = false
		ext.padded += int64(rowMaxCol)
		if gap := curRow - lastCountedRow - 1; gap > 0 {
			ext.padded += int64(gap)
		}
		lastCountedRow = curRow
	}
	for {
		if _, err := br.ReadSlice('<'); err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				continue
			}
			if errors.Is(err, io.EOF) {
				break
			}
			if kindOf(err) != "" {
				return ext, err // a bound (see runBound)
			}
			return ext, newError(KindDamaged, "file is damaged: cannot read the sheet: "+err.Error(), err)
		}
		tag, err := br.ReadSlice('>')
		if errors.Is(err, bufio.ErrBufferFull) {
			// An over-long tag: not a row or cell we need; skip it.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('>')
			}
			continue
		}
		if kindOf(err) != "" {
			return ext, err // a bound (see runBound)
		}
		if err != nil {
			break // truncated inside a tag; ext.closed stays false
		}
		name, attrs := splitTag(tag)
		switch name {
		case "row":
			closeRow()
			n := attrInt(attrs, "r")
			if n <= 0 {
				n = curRow + 1
			}
			if n > lim.MaxRows {
				return ext, errLimitRows(n)
			}
			curRow, curCol, rowMaxCol, inRow = n, 0, 0, true
			ext.rows++
			if bytes.HasSuffix(attrs, []byte("/")) {
				closeRow()
			}
		case "/row":
			closeRow()
		case "c":
			col := 0
			if ref := attrValue(attrs, "r"); ref != nil {
				col = columnOfRef(ref)
			}
			if col <= 0 {
				col = curCol + 1
			}
			curCol = col
			if col > rowMaxCol {
				rowMaxCol = col
				if checkCellsBudget() {
					return ext, errLimitCells()
				}
			}
			ext.widen(curRow, col)
		case "/sheetData":
			closeRow()
			ext.closed = true
		case "sheetData":
			if bytes.HasSuffix(attrs, []byte("/")) {
				ext.closed = true
			}
		}
	}
	closeRow()
	if ext.padded > lim.MaxCells {
		return ext, errLimitCells()
	}
	return ext, nil
}

// widen grows the used range to include (row, col).
func (e *sheetExtent) widen(row, col int) {
	if row <= 0 || col <= 0 {
		return
	}
	if e.minRow == 0 || row < e.minRow {
		e.minRow = row
	}
	if row > e.maxRow {
		e.maxRow = row
	}
	if e.minCol == 0 || col < e.minCol {
		e.minCol = col
	}
	if col > e.maxCol {
		e.maxCol = col
	}
}

// limitErr builds a KindLimit error.
func limitErr(msg string) error { return newError(KindLimit, "workbook too large: "+msg, nil) }

// splitTag splits the inside of a tag ("x:row r=\"1\"" or "/row") into its
// local name (prefix dropped, leading '/' kept) and the attribute bytes.
func splitTag(tag []byte) (string, []byte) {
	tag = bytes.TrimSuffix(tag, []byte(">"))
	end := bytes.IndexAny(tag, " \t\r\n/")
	if end == 0 && len(tag) > 0 && tag[0] == '/' {
		rest := tag[1:]
		if i := bytes.IndexByte(rest, ':'); i >= 0 {
			rest = rest[i+1:]
		}
		return "/" + strings.TrimSpace(string(rest)), nil
	}
	if end < 0 {
		end = len(tag)
	}
	name := tag[:end]
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	// Only the names the scanner cares about are turned into strings.
	switch string(name) {
	case "row", "c", "sheetData":
		return string(name), tag[end:]
	}
	return "", nil
}

// attrValue returns the value of attribute key in attrs, or nil.
func attrValue(attrs []byte, key string) []byte {
	for i := 0; i < len(attrs); {
		j := bytes.Index(attrs[i:], []byte(key+`="`))
		if j < 0 {
			return nil
		}
		j += i
		if j == 0 || attrs[j-1] == ' ' || attrs[j-1] == '\t' || attrs[j-1] == '\n' || attrs[j-1] == '\r' {
			start := j + len(key) + 2
			end := bytes.IndexByte(attrs[start:], '"')
			if end < 0 {
				return nil
			}
			return attrs[start : start+end]
		}
		i = j + 1
	}
	return nil
}

// attrInt returns attribute key as a positive int, or 0.
func attrInt(attrs []byte, key string) int {
	v := attrValue(attrs, key)
	n := 0
	for _, b := range v {
		if b < '0' || b > '9' {
			return 0
		}
		n = n*10 + int(b-'0')
		if n > 1<<30 {
			return 1 << 30
		}
	}
	return n
}

// columnOfRef returns the column number of a cell reference like "AB12".
func columnOfRef(ref []byte) int {
	n := 0
	for _, b := range ref {
		switch {
		case b >= 'A' && b <= 'Z':
			n = n*26 + int(b-'A'+1)
		case b >= 'a' && b <= 'z':
			n = n*26 + int(b-'a'+1)
		case b == '$':
		default:
			return n
		}
		if n > 1<<20 {
			return 1 << 20
		}
	}
	return n
}

// pkgSheet is one sheet as workbook.xml lists it.
type pkgSheet struct {
	name, part string
	hidden     bool
}

// pkgIndex is what the workbook-level parts say about the sheets.
type pkgIndex struct {
	sheets    []pkgSheet // in workbook order
	activeTab int
	styles    string // the styles part, from the workbook's relationships
	date1904  bool   // workbookPr date1904: the 1904 date system
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
			State string     `xml:"state,attr"`
			Attrs []xml.Attr `xml:",any,attr"`
		} `xml:"sheets>sheet"`
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
	styles := ""
	for _, rel := range parseRels(relData) {
		t := rel.Target
		if strings.HasPrefix(t, "/") {
			t = strings.TrimPrefix(t, "/")
		} else {
			t = path.Join(path.Dir(wbPath), t)
		}
		targets[rel.ID] = t
		if strings.HasSuffix(rel.Type, "/styles") {
			styles = t
		}
	}
	// openpyxl's Bool: "false", "f", "0" and "" are false, any other text true.
	d := wb.Pr.Date1904
	idx := &pkgIndex{styles: styles, date1904: d != "" && d != "false" && d != "f" && d != "0"}
	if len(wb.Views) > 0 {
		idx.activeTab = wb.Views[0].ActiveTab
	}
	for _, s := range wb.Sheets {
		ps := pkgSheet{name: s.Name, hidden: s.State == "hidden" || s.State == "veryHidden"}
		for _, a := range s.Attrs {
			if a.Name.Local == "id" && a.Name.Space != "" {
				ps.part = targets[a.Value]
			}
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
