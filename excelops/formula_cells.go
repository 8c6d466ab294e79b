package excelops

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"reflect"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// formulaCell is one formula cell of a parsed worksheet, with write access
// to its cached value (<v>) and type (t).
type formulaCell struct {
	ref  string        // A1 reference
	cell reflect.Value // the addressable excelize cell struct
}

// setCached stores the cached result of the cell: t is the cell type ("" for
// a number, "b", "e" or "str") and v its text; v == "" drops the value.
func (c formulaCell) setCached(t, v string) {
	if v == "" {
		t = ""
	}
	c.cell.FieldByName("T").SetString(t)
	c.cell.FieldByName("V").SetString(v)
}

// cachedValue returns the cell's current cached text.
func (c formulaCell) cachedValue() string { return c.cell.FieldByName("V").String() }

// worksheetFormulaCells returns the formula cells of a parsed worksheet (a
// *xlsxWorksheet from File.Sheet).
//
// excelize (v2.11) has no API to store a formula's cached value with its
// type: SetCellFormula marks every formula cell t="str" and SetCellValue
// drops the formula. So, like writeKeepingSheets, this reaches the cells
// through exported fields only (SheetData.Row[].C[] with R, T, V, F), by
// reflection; ok is false when a future excelize changes that shape, and the
// caller then drops cached values through the public API instead
// (never wrong, only less helpful). TestFormulaValuesCached pins the shape.
func worksheetFormulaCells(ws any) (cells []formulaCell, ok bool) {
	pv := reflect.ValueOf(ws)
	if pv.Kind() != reflect.Pointer || pv.IsNil() || pv.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	rows := pv.Elem().FieldByName("SheetData")
	if rows.Kind() != reflect.Struct {
		return nil, false
	}
	rows = rows.FieldByName("Row")
	if rows.Kind() != reflect.Slice || rows.Type().Elem().Kind() != reflect.Struct {
		return nil, false
	}
	for i := 0; i < rows.Len(); i++ {
		cs := rows.Index(i).FieldByName("C")
		if cs.Kind() != reflect.Slice || cs.Type().Elem().Kind() != reflect.Struct {
			return nil, false
		}
		for j := 0; j < cs.Len(); j++ {
			c := cs.Index(j)
			r, t, v, f := c.FieldByName("R"), c.FieldByName("T"), c.FieldByName("V"), c.FieldByName("F")
			if r.Kind() != reflect.String || t.Kind() != reflect.String || v.Kind() != reflect.String ||
				f.Kind() != reflect.Pointer || !t.CanSet() || !v.CanSet() {
				return nil, false
			}
			if !f.IsNil() {
				cells = append(cells, formulaCell{ref: r.String(), cell: c})
			}
		}
	}
	return cells, true
}

// workbookRels is the part of workbook.xml.rels this package reads.
type workbookRels struct {
	Rels []struct {
		ID     string `xml:"Id,attr"`
		Target string `xml:"Target,attr"`
	} `xml:"Relationship"`
}

// worksheetPaths maps each sheet name of f to its part name (such as
// "xl/worksheets/sheet1.xml"), from the workbook (File.WorkBook) and its
// relationships: the parsed ones in File.Relationships when excelize has
// loaded them (read by reflection of exported fields), else the part's XML.
func worksheetPaths(f *excelize.File) map[string]string {
	const relsPart = "xl/_rels/workbook.xml.rels"
	targets := map[string]string{}
	if v, ok := f.Relationships.Load(relsPart); ok {
		pv := reflect.ValueOf(v)
		if pv.Kind() == reflect.Pointer && !pv.IsNil() && pv.Elem().Kind() == reflect.Struct {
			rels := pv.Elem().FieldByName("Relationships")
			for i := 0; rels.Kind() == reflect.Slice && i < rels.Len(); i++ {
				id, target := rels.Index(i).FieldByName("ID"), rels.Index(i).FieldByName("Target")
				if id.Kind() == reflect.String && target.Kind() == reflect.String {
					targets[id.String()] = target.String()
				}
			}
		}
	} else if raw, ok := f.Pkg.Load(relsPart); ok {
		if b, ok := raw.([]byte); ok {
			var rels workbookRels
			if xml.Unmarshal(b, &rels) == nil {
				for _, r := range rels.Rels {
					targets[r.ID] = r.Target
				}
			}
		}
	}
	out := map[string]string{}
	if f.WorkBook == nil {
		return out
	}
	for _, s := range f.WorkBook.Sheets.Sheet {
		t, ok := targets[s.ID]
		if !ok {
			continue
		}
		if strings.HasPrefix(t, "/") {
			out[s.Name] = strings.TrimPrefix(t, "/")
		} else {
			out[s.Name] = path.Join("xl", t)
		}
	}
	return out
}

// diskHasFormulas reports whether sheet, as it is on disk, holds any formula
// (an <f> element), streaming its XML without parsing it. A sheet that is
// not on disk has none there.
func (b *book) diskHasFormulas(sheet string) (bool, error) {
	zf, err := b.part(sheet)
	if err != nil || zf == nil {
		return false, err
	}
	if kind, err := b.sheetKindOf(sheet); err != nil || kind != kindWorksheet {
		return false, err // a macro sheet's formulas are not worksheet formulas
	}
	rc, err := zf.Open()
	if err != nil {
		return false, newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	buf := make([]byte, formulaScanChunk)
	carry := 0
	for {
		n, err := rc.Read(buf[carry:])
		chunk := buf[:carry+n]
		if hasFormulaTag(chunk) {
			return true, nil
		}
		// Keep the last bytes: a tag may straddle two reads.
		carry = min(len(chunk), 3)
		copy(buf, chunk[len(chunk)-carry:])
		if errors.Is(err, io.EOF) {
			return false, nil
		}
		if err != nil {
			return false, newError(KindDamaged, "file is damaged: "+err.Error(), err)
		}
	}
}

// formulaScanChunk is how much sheet XML diskHasFormulas reads at a time.
const formulaScanChunk = 64 << 10

// hasFormulaTag reports whether XML text holds the start of an <f> element,
// with or without a namespace prefix.
func hasFormulaTag(b []byte) bool {
	for _, pat := range [][]byte{[]byte("<f>"), []byte("<f "), []byte("<f/"), []byte(":f>"), []byte(":f "), []byte(":f/")} {
		if bytes.Contains(b, pat) {
			return true
		}
	}
	return false
}
