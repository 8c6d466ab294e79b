package splicepath

import (
	"archive/zip"
	"bytes"
	"context"
	"slices"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The recalc splice's calculator workbook (see recalc.go): the
// cells a computation reads, copied at their own addresses into a workbook
// with the same sheets, opened by excelize and computed there.

// parsedRowBytes is what excelize's parsed worksheet spends on one row
// record, used or not (it keeps every row up to the last).
const parsedRowBytes = 160

// maxAreasPerSheet bounds the areas one sheet's copy tests a cell
// against; past it they merge into their bounding box.
const maxAreasPerSheet = 256

// scratchCell is one cell of the calculator workbook: its address and its
// <c> element's attributes-after-r and children.
type scratchCell struct {
	row, col int
	body     []byte // e.g. ` t="b"><v>1</v></c>` or `><f>A1+1</f></c>`
}

// scratchSheet is what one sheet contributes to the calculator workbook.
type scratchSheet struct {
	areas []cellarea.Area // the cells to copy, clamped to the sheet's extent
	whole bool            // a whole-row or whole-column reference reads it
	cells []scratchCell
}

// calcWorkbook computes the formulas marked in compute (see
// recalc.go), reading the cells need names, after the write w to
// the worksheet part; it returns each one's cached value by its index in
// all. A sheet whose needed cells the scan copied already (early) is not
// read again.
func (sb *Book) calcWorkbook(ctx context.Context, sheets []calcSheet, all []calcFormula, need []cellarea.Area, compute []bool, part string, w *cellWrites, early map[string]*earlyCopy) (map[int]cachedResult, error) {
	f, err := sb.scratchFile(ctx, sheets, all, need, part, w, early)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[int]cachedResult{}
	for i, f0 := range all {
		if !compute[i] {
			continue
		}
		if len(out)%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		t, v, err := recalc.ComputeFormula(ctx, f, sb.svc.Limits.Calc(), f0.at.Sheet, grid.CellName(f0.at.C1, f0.at.R1))
		if err != nil {
			return nil, err
		}
		if v == "" && t != "str" { // "str" with no text is an empty text
			t = ""
		}
		out[i] = cachedResult{t, v}
	}
	return out, nil
}

// calculatorFor opens a calculator workbook holding every cell the
// formulas marked in compute read, directly or through other formulas
// (upstream), as the write w leaves them.
func (sb *Book) calculatorFor(ctx context.Context, sheets []calcSheet, all []calcFormula, compute []bool, part string, w *cellWrites, early map[string]*earlyCopy) (*excelize.File, error) {
	need, err := upstream(all, compute)
	if err != nil {
		return nil, err
	}
	return sb.scratchFile(ctx, sheets, all, need, part, w, early)
}

// scratchFile opens the calculator workbook of calcWorkbook: the cells
// need names, as the write w to the worksheet part leaves them.
func (sb *Book) scratchFile(ctx context.Context, sheets []calcSheet, all []calcFormula, need []cellarea.Area, part string, w *cellWrites, early map[string]*earlyCopy) (*excelize.File, error) {
	// The extents the calculator clamps whole rows and columns to are the
	// sheet's after the write (excelize creates every written cell).
	for i := range sheets {
		if sheets[i].part != part {
			continue
		}
		for key := range w.cells {
			sheets[i].maxRow, sheets[i].maxCol = max(sheets[i].maxRow, key[0]), max(sheets[i].maxCol, key[1])
		}
	}
	scratch := make([]scratchSheet, len(sheets))
	for _, a := range need {
		i := sheetNamed(sheets, a.Sheet)
		if i < 0 {
			continue // a sheet the workbook lacks: an error either way
		}
		s := &scratch[i]
		s.whole = s.whole || a.R2 == excelize.TotalRows || a.C2 == excelize.MaxColumns
		if _, ok := w.cells[[2]int{a.R1, a.C1}]; ok && sheets[i].part == part && a.R1 == a.R2 && a.C1 == a.C2 {
			continue // a written cell: every one is added below
		}
		a.Sheet = sheets[i].name
		a.R2, a.C2 = min(a.R2, sheets[i].maxRow), min(a.C2, sheets[i].maxCol)
		if a.R1 <= a.R2 && a.C1 <= a.C2 {
			s.areas = append(s.areas, a)
		}
	}
	formulaAt := map[cellarea.Area]int{} // every formula cell, by its sheet's name as listed
	for i, f := range all {
		formulaAt[f.at] = i
	}
	cp := &cellCopier{sb: sb}
	if len(w.cells) > maxScratchCells {
		return nil, engine.NoSplice("the write holds more cells than the calculator copies")
	}
	for i, cs := range sheets {
		s := &scratch[i]
		edited := cs.part == part
		if len(s.areas) > maxAreasPerSheet {
			s.areas = []cellarea.Area{boundingBox(s.areas)}
		}
		switch pre := early[cs.name]; {
		case len(s.areas) == 0:
			// Nothing to copy (the written cells are added below).
		case pre != nil && pre.covers(s.areas):
			// The scan copied them already. A copy: the cells are sorted and
			// added to below, and a later calculator (the spill's, then
			// the other formulas') starts from the scan's cells again.
			s.cells = slices.Clone(pre.cells)
			if edited && w.spillsWritten() {
				s.cells = withoutWritten(pre.cells, w.cells) // spilled or cleared since
			}
		default:
			in := newAreaSet(s.areas)
			err := walkPart(ctx, opc.FindPart(sb.zr, cs.part), func(ev sheetxml.Event, wk *sheetxml.Walker) error {
				if ev == sheetxml.RowStart && (wk.Row < in.box.R1 || wk.Row > in.box.R2) {
					wk.SkipRow(MaxSkippedRow) // a row nothing reads, passed over by its bytes when plain
					return nil
				}
				c := &wk.Cell
				if ev != sheetxml.CellDone || !in.has(c.Row, c.Col) {
					return nil
				}
				if _, written := w.cells[[2]int{c.Row, c.Col}]; edited && written {
					return nil // the write's content is added below
				}
				text := ""
				if c.Formula {
					idx, ok := formulaAt[cellarea.Area{Sheet: cs.name, C1: c.Col, R1: c.Row, C2: c.Col, R2: c.Row}]
					if !ok {
						return engine.NoSplice("a formula cell the calculator reads was not scanned")
					}
					text = all[idx].text
				}
				cell, err := cp.copy(c, text)
				s.cells = append(s.cells, cell)
				return err
			})
			if err != nil {
				return nil, err
			}
		}
		if !edited {
			s.cells = withElsewhere(s.cells, w.elsewhere[cs.part]) // dynamic arrays spilled again there
		}
		if edited {
			// Every written cell, as the write leaves it: the formulas
			// computed among them, and the values they or others read.
			for key, cc := range w.cells {
				if body := cc.scratchBody(); body != nil {
					s.cells = append(s.cells, scratchCell{key[0], key[1], body})
				}
			}
		}
		if s.whole && cs.maxRow > 0 && cs.maxCol > 0 {
			// Whole rows and columns are clamped to the sheet's extent: an
			// empty cell at its far corner gives the copy the same one.
			s.cells = append(s.cells, scratchCell{cs.maxRow, cs.maxCol, nil})
		}
	}
	data, err := scratchPackage(sheets, scratch, sb.index.Date1904, sb.scratchNames(sheets))
	if err != nil {
		return nil, err
	}
	// excelize holds the parsed copy, with a row record for every row up
	// to the last one used: over the call's budget, the excelize path
	// (bigger still) reports it.
	rows := 0
	for _, s := range scratch { // scratchPackage sorted each sheet's cells
		if n := len(s.cells); n > 0 {
			rows += s.cells[n-1].row
		}
	}
	if sb.svc.Limits.Within("computing formulas", int64(len(data))*engine.ParsedBytesPerXMLByte+int64(rows)*parsedRowBytes) != nil {
		return nil, engine.NoSplice("the cells the calculator reads exceed the call's memory budget")
	}
	f, err := excelize.OpenReader(bytes.NewReader(data))
	if err != nil {
		return nil, engine.NoSplice("the calculator's copy does not open")
	}
	return f, nil
}

// scratchPackage writes the calculator workbook: every worksheet of
// sheets, in order and by name, holding its scratch cells, and names (a
// <definedNames> element, or nil).
func scratchPackage(sheets []calcSheet, scratch []scratchSheet, date1904 bool, names []byte) ([]byte, error) {
	const (
		mainNS = `http://schemas.openxmlformats.org/spreadsheetml/2006/main`
		relNS  = `http://schemas.openxmlformats.org/officeDocument/2006/relationships`
		pkgRel = `http://schemas.openxmlformats.org/package/2006/relationships`
		ctNS   = `http://schemas.openxmlformats.org/package/2006/content-types`
		ctBase = `application/vnd.openxmlformats-officedocument.spreadsheetml.`
	)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	put := func(name string, data []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Store})
		if err != nil {
			return err
		}
		_, err = w.Write(data)
		return err
	}
	types := []byte(`<?xml version="1.0" encoding="UTF-8"?><Types xmlns="` + ctNS + `"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="` + ctBase + `sheet.main+xml"/>`)
	wb := []byte(`<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="` + mainNS + `" xmlns:r="` + relNS + `">`)
	if date1904 {
		wb = append(wb, `<workbookPr date1904="1"/>`...)
	}
	wb = append(wb, "<sheets>"...)
	rels := []byte(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="` + pkgRel + `">`)
	for i, cs := range sheets {
		n := strconv.Itoa(i + 1)
		types = append(types, `<Override PartName="/xl/worksheets/sheet`+n+`.xml" ContentType="`+ctBase+`worksheet+xml"/>`...)
		wb = append(wb, `<sheet name="`...)
		wb = sheetxml.AppendEscaped(wb, cs.name)
		wb = append(wb, `" sheetId="`+n+`" r:id="rId`+n+`"/>`...)
		rels = append(rels, `<Relationship Id="rId`+n+`" Type="`+relNS+`/worksheet" Target="worksheets/sheet`+n+`.xml"/>`...)
		if err := put("xl/worksheets/sheet"+n+".xml", scratchSheetXML(scratch[i].cells)); err != nil {
			return nil, err
		}
	}
	types = append(types, "</Types>"...)
	wb = append(append(append(wb, "</sheets>"...), names...), "</workbook>"...)
	rels = append(rels, "</Relationships>"...)
	root := []byte(`<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="` + pkgRel + `"><Relationship Id="rId1" Type="` + relNS + `/officeDocument" Target="xl/workbook.xml"/></Relationships>`)
	for _, p := range []struct {
		name string
		data []byte
	}{{"[Content_Types].xml", types}, {"_rels/.rels", root}, {"xl/workbook.xml", wb}, {"xl/_rels/workbook.xml.rels", rels}} {
		if err := put(p.name, p.data); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// scratchSheetXML is a worksheet holding cells (in any order; a cell
// with a nil body is empty, and a real cell at its address wins).
func scratchSheetXML(cells []scratchCell) []byte {
	slices.SortStableFunc(cells, func(a, b scratchCell) int {
		if a.row != b.row {
			return a.row - b.row
		}
		if a.col != b.col {
			return a.col - b.col
		}
		return len(b.body) - len(a.body) // the real cell before an empty one
	})
	out := []byte(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	row := 0
	for i, c := range cells {
		if i > 0 && c.row == cells[i-1].row && c.col == cells[i-1].col {
			continue
		}
		if c.row != row {
			if row != 0 {
				out = append(out, "</row>"...)
			}
			row = c.row
			out = append(out, `<row r="`...)
			out = strconv.AppendInt(out, int64(row), 10)
			out = append(out, `">`...)
		}
		out = append(out, `<c r="`...)
		out = append(out, grid.CellName(c.col, c.row)...)
		out = append(out, '"')
		if c.body == nil {
			out = append(out, "/>"...)
			continue
		}
		out = append(out, c.body...)
	}
	if row != 0 {
		out = append(out, "</row>"...)
	}
	return append(out, "</sheetData></worksheet>"...)
}
