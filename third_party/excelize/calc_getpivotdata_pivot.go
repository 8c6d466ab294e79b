// registry-sidecar addition (PATCHES.md): the pivot table a GETPIVOTDATA
// reference points into, read from its definition and cache definition.

package excelize

import (
	"path/filepath"
	"strings"
)

// calcPivot is what GETPIVOTDATA needs of one pivot table: the names of its
// cache fields, its row and column fields (cache field indexes, in the order
// the table shows them), its data fields and their summaries, and the
// records of its source range.
type calcPivot struct {
	fields         []string
	rows, cols     []int
	data           []*xlsxDataField
	subtotals      map[int]bool // row or column field -> its items are subtotalled
	rowGrandTotals bool
	colGrandTotals bool
	records        [][]formulaArg
}

// pivotAt returns the pivot table of sheet whose location holds cell, nil
// when none does; unsupported names what this calculator does not compute
// (a page filter, hidden items, calculated fields, values shown as a
// percentage, a source that is not a worksheet range).
func (fn *formulaFuncs) pivotAt(sheet, cell string) (pv *calcPivot, unsupported string) {
	col, row, err := CellNameToCoordinates(cell)
	if err != nil {
		return nil, ""
	}
	name, ok := fn.f.getSheetXMLPath(sheet)
	if !ok {
		return nil, ""
	}
	rels, err := fn.f.relsReader("xl/worksheets/_rels/" + strings.TrimPrefix(name, "xl/worksheets/") + ".rels")
	if err != nil || rels == nil {
		return nil, ""
	}
	for _, rel := range rels.Relationships {
		if rel.Type != SourceRelationshipPivotTable {
			continue
		}
		ptPath := strings.ReplaceAll(rel.Target, "..", "xl")
		pt, err := fn.f.pivotTableReader(ptPath)
		if err != nil || pt.Location == nil || !pivotLocationHolds(pt.Location.Ref, col, row) {
			continue
		}
		pcPath, pc, err := fn.f.pivotCacheOf(ptPath)
		if err != nil || pc == nil {
			return nil, "GETPIVOTDATA of a pivot table without its cache"
		}
		return fn.newCalcPivot(pt, pcPath, pc)
	}
	return nil, ""
}

// pivotLocationHolds reports whether the range ref holds the cell at col, row.
func pivotLocationHolds(ref string, col, row int) bool {
	coords, err := rangeRefToCoordinates(ref)
	if err != nil {
		return false
	}
	_ = sortCoordinates(coords)
	return col >= coords[0] && col <= coords[2] && row >= coords[1] && row <= coords[3]
}

// pivotCacheOf returns the part name and cache definition of the pivot
// table at ptPath.
func (f *File) pivotCacheOf(ptPath string) (string, *xlsxPivotCacheDefinition, error) {
	rels, err := f.relsReader("xl/pivotTables/_rels/" + filepath.Base(ptPath) + ".rels")
	if err != nil || rels == nil {
		return "", nil, err
	}
	for _, rel := range rels.Relationships {
		if rel.Type == SourceRelationshipPivotCache {
			pcPath := strings.ReplaceAll(rel.Target, "..", "xl")
			pc, err := f.pivotCacheReader(pcPath)
			return pcPath, pc, err
		}
	}
	return "", nil, nil
}

// newCalcPivot reads the parts of pt and pc GETPIVOTDATA uses and the
// records the table shows: those the cache saved when Excel does not
// refresh it on open, else those of its source range.
func (fn *formulaFuncs) newCalcPivot(pt *xlsxPivotTableDefinition, pcPath string, pc *xlsxPivotCacheDefinition) (*calcPivot, string) {
	pv := &calcPivot{
		fields:         pc.getPivotCacheFieldsName(),
		subtotals:      map[int]bool{},
		rowGrandTotals: pt.RowGrandTotals == nil || *pt.RowGrandTotals,
		colGrandTotals: pt.ColGrandTotals == nil || *pt.ColGrandTotals,
	}
	if pt.PageFields != nil && len(pt.PageFields.PageField) > 0 {
		return nil, "GETPIVOTDATA of a pivot table with a page filter"
	}
	if pc.CacheFields != nil {
		for _, cf := range pc.CacheFields.CacheField {
			if cf != nil && cf.Formula != "" {
				return nil, "GETPIVOTDATA of a pivot table with a calculated field"
			}
		}
	}
	if pt.PivotFields != nil {
		for i, pf := range pt.PivotFields.PivotField {
			if pf == nil {
				continue
			}
			if pf.Items != nil {
				for _, it := range pf.Items.Item {
					if it != nil && it.H {
						return nil, "GETPIVOTDATA of a pivot table with hidden items"
					}
				}
			}
			pv.subtotals[i] = pf.DefaultSubtotal == nil || *pf.DefaultSubtotal
		}
	}
	if pt.RowFields != nil {
		pv.rows = axisFields(pt.RowFields.Field)
	}
	if pt.ColFields != nil {
		pv.cols = axisFields(pt.ColFields.Field)
	}
	if pt.DataFields != nil {
		for _, df := range pt.DataFields.DataField {
			if df == nil || df.Fld < 0 || df.Fld >= len(pv.fields) {
				continue
			}
			if df.ShowDataAs != "" && df.ShowDataAs != "normal" || df.ExtLst != nil {
				return nil, "GETPIVOTDATA of values shown as a calculation"
			}
			pv.data = append(pv.data, df)
		}
	}
	if !pc.RefreshOnLoad {
		if records, ok := fn.f.savedRecords(pcPath, pc); ok {
			pv.records = records
			return pv, ""
		}
	}
	src := pc.CacheSource.WorksheetSource
	if src == nil {
		return nil, "GETPIVOTDATA of a pivot table whose source is not a worksheet range"
	}
	sheet, ref := src.Sheet, src.Ref
	if src.Name != "" {
		opts := PivotTableOptions{DataRange: src.Name}
		if err := fn.f.getPivotTableDataRange(&opts); err != nil {
			return nil, "GETPIVOTDATA of a pivot table whose source name does not resolve"
		}
		sheet, ref, _ = strings.Cut(opts.pivotDataRange, "!")
		sheet = strings.Trim(sheet, "'")
	}
	arg, err := fn.f.parseReference(fn.ctx, sheet, ref)
	if err != nil || arg.Type != ArgMatrix || len(arg.Matrix) < 1 {
		return nil, "GETPIVOTDATA of a pivot table whose source range does not read"
	}
	pv.records = arg.Matrix[1:]
	return pv, ""
}

// axisFields returns the cache field indexes of a row or column axis, the
// data fields' place (-2) left out.
func axisFields(fields []*xlsxField) []int {
	var out []int
	for _, fld := range fields {
		if fld != nil && fld.X >= 0 {
			out = append(out, fld.X)
		}
	}
	return out
}

// fieldIndex returns the cache field named name (case-insensitive), or -1.
func (pv *calcPivot) fieldIndex(name string) int {
	for i, f := range pv.fields {
		if strings.EqualFold(strings.TrimSpace(f), strings.TrimSpace(name)) {
			return i
		}
	}
	return -1
}

// dataField returns the data field GETPIVOTDATA's data_field names: its
// caption ("Sum of Sales") or its source field's name ("Sales").
func (pv *calcPivot) dataField(name string) *xlsxDataField {
	name = strings.TrimSpace(name)
	for _, df := range pv.data {
		if strings.EqualFold(strings.TrimSpace(df.Name), name) {
			return df
		}
	}
	for _, df := range pv.data {
		if strings.EqualFold(strings.TrimSpace(pv.fields[df.Fld]), name) {
			return df
		}
	}
	return nil
}
