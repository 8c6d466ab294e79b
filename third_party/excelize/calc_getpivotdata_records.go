// registry-sidecar addition (PATCHES.md): the records a pivot cache saved
// (xl/pivotCache/pivotCacheRecords*.xml), which a table Excel does not
// refresh on open shows.

package excelize

import (
	"bytes"
	"path"
	"strconv"
	"strings"
	"time"
)

// xlsxPivotCacheRecords is the records part of a pivot cache: one r per
// record, one value per cache field (x: an index into the field's shared
// items; n, s, b, e, d: a value; m: none).
type xlsxPivotCacheRecords struct {
	R []struct {
		Values []xlsxSharedItem `xml:",any"`
	} `xml:"r"`
}

// savedRecords returns the records the cache at pcPath saved, ok false
// when it saved none or they do not read.
func (f *File) savedRecords(pcPath string, pc *xlsxPivotCacheDefinition) (records [][]formulaArg, ok bool) {
	rels, err := f.relsReader(path.Join(path.Dir(pcPath), "_rels", path.Base(pcPath)+".rels"))
	if err != nil || rels == nil {
		return nil, false
	}
	var part string
	for _, rel := range rels.Relationships {
		if rel.ID == pc.RID || strings.HasSuffix(rel.Type, "/pivotCacheRecords") {
			part = path.Join(path.Dir(pcPath), rel.Target)
			break
		}
	}
	content, found := f.Pkg.Load(part)
	if part == "" || !found || content == nil {
		return nil, false
	}
	var recs xlsxPivotCacheRecords
	if err := f.xmlNewDecoder(bytes.NewReader(namespaceStrictToTransitional(content.([]byte)))).Decode(&recs); err != nil {
		return nil, false
	}
	date1904 := false
	if wb, err := f.workbookReader(); err == nil && wb != nil && wb.WorkbookPr != nil {
		date1904 = wb.WorkbookPr.Date1904
	}
	var fields []*xlsxCacheField
	if pc.CacheFields != nil {
		fields = pc.CacheFields.CacheField
	}
	for _, r := range recs.R {
		rec := make([]formulaArg, len(r.Values))
		for i, v := range r.Values {
			if v.XMLName.Local == "x" {
				idx, err := strconv.Atoi(v.V)
				if err != nil || i >= len(fields) || fields[i] == nil || fields[i].SharedItems == nil ||
					idx < 0 || idx >= len(fields[i].SharedItems.Items) {
					return nil, false
				}
				v = fields[i].SharedItems.Items[idx]
			}
			rec[i] = cacheItemArg(v, date1904)
		}
		records = append(records, rec)
	}
	return records, true
}

// cacheItemArg is the value of one cache item.
func cacheItemArg(item xlsxSharedItem, date1904 bool) formulaArg {
	switch item.XMLName.Local {
	case "n":
		if n, err := strconv.ParseFloat(item.V, 64); err == nil {
			return newNumberFormulaArg(n)
		}
	case "s":
		return newStringFormulaArg(item.V)
	case "b":
		return newBoolFormulaArg(item.V == "1" || strings.EqualFold(item.V, "true"))
	case "e":
		return newErrorFormulaArg(item.V, item.V)
	case "d":
		if t, err := time.Parse("2006-01-02T15:04:05", item.V); err == nil {
			if serial, err := timeToExcelTime(t, date1904); err == nil {
				return newNumberFormulaArg(serial)
			}
		}
	}
	return newEmptyFormulaArg()
}
