package excelops

import (
	"io"
	"reflect"

	"github.com/xuri/excelize/v2"
)

// writeKeepingSheets writes f to w like f.WriteTo, but leaves every parsed
// worksheet parsed in memory afterwards.
//
// Why: excelize (v2.11) drops each worksheet it parsed from memory once it
// has written it (File.Sheet loses the entry), so the next edit of a cached
// workbook would parse the whole sheet XML again, which is most of an
// edit's cost on a big sheet (DESIGN §5). It also trims empty rows and
// cells of the worksheets it writes, in place, which breaks the padded
// row/column layout its editing functions rely on. So the writer is given
// copies: for each parsed worksheet in f.Sheet (an exported field), a
// shallow copy of the struct with its own row and cell slices; after the
// write the originals are put back, untouched by the trimming.
//
// Only exported fields (File.Sheet, SheetData.Row, Row.C) are used, through
// reflection; if a future excelize changes their shape the copy is skipped
// and excelize behaves as before (the sheet is parsed again on the next
// edit: slower, never wrong). TestCacheTenthEditDoesNotReparse pins it.
func writeKeepingSheets(f *excelize.File, w io.Writer) error {
	type kept struct{ key, ws any }
	var originals []kept
	f.Sheet.Range(func(key, ws any) bool {
		if cp, ok := copyWorksheet(ws); ok {
			originals = append(originals, kept{key, ws})
			f.Sheet.Store(key, cp)
		}
		return true
	})
	defer func() {
		for _, o := range originals {
			f.Sheet.Store(o.key, o.ws)
		}
	}()
	_, err := f.WriteTo(w)
	return err
}

// copyWorksheet returns a copy of a parsed worksheet (*xlsxWorksheet) that
// shares nothing the writer modifies with the original: the struct, its
// SheetData.Row slice and each row's C slice are copied. ok is false when
// ws does not have the expected shape.
func copyWorksheet(ws any) (any, bool) {
	pv := reflect.ValueOf(ws)
	if pv.Kind() != reflect.Pointer || pv.IsNil() || pv.Elem().Kind() != reflect.Struct {
		return nil, false
	}
	cp := reflect.New(pv.Elem().Type())
	cp.Elem().Set(pv.Elem())
	data := cp.Elem().FieldByName("SheetData")
	if data.Kind() != reflect.Struct {
		return nil, false
	}
	rows := data.FieldByName("Row")
	if rows.Kind() != reflect.Slice || rows.Type().Elem().Kind() != reflect.Struct {
		return nil, false
	}
	cells, ok := rows.Type().Elem().FieldByName("C")
	if !ok || cells.Type.Kind() != reflect.Slice || !rows.CanSet() {
		return nil, false
	}
	n := rows.Len()
	newRows := reflect.MakeSlice(rows.Type(), n, n)
	reflect.Copy(newRows, rows)
	for i := 0; i < n; i++ {
		c := newRows.Index(i).FieldByIndex(cells.Index)
		if c.Len() == 0 {
			continue
		}
		nc := reflect.MakeSlice(c.Type(), c.Len(), c.Len())
		reflect.Copy(nc, c)
		c.Set(nc)
	}
	rows.Set(newRows)
	return cp.Interface(), true
}
