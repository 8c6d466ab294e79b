package excelops

import (
	"context"
	"encoding/json"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
)

// shrinkSpan returns the used span [lo, hi] of ext along one axis after n
// rows or columns from at are deleted; an empty result empties ext.
func shrinkSpan(ext *sheetExtent, lo, hi, at, n int) (int, int) {
	if ext.empty() {
		return lo, hi
	}
	e := formularef.Shift{Axis: formularef.Rows, At: at, Count: n, Delete: true}
	a, b, ok := spanAfter(e, lo, hi)
	if !ok {
		*ext = sheetExtent{closed: true}
		return 0, 0
	}
	return a, b
}

// spanAfter is the span [lo, hi] after the deletion e (ok false: all gone).
func spanAfter(e formularef.Shift, lo, hi int) (int, int, bool) {
	ref, ok := e.Area(cellName(1, lo) + ":" + cellName(1, hi))
	if !ok {
		return 0, 0, false
	}
	rng, err := parseRange(ref)
	if err != nil {
		return 0, 0, false
	}
	return rng.r1, rng.r2, true
}

// deleteColumns implements delete_columns: columns right of the deleted
// ones move left; references to deleted cells become #REF!, ranges shrink.
func (s *Service) deleteColumns(_ context.Context, raw json.RawMessage) (*call, error) {
	var a struct {
		FilePath  string `json:"file_path"`
		SheetName string `json:"sheet_name"`
		Column    any    `json:"column"`
		Count     *int   `json:"count"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	n, err := editCount(a.Count, maxInsertCols)
	if err != nil {
		return nil, err
	}
	col, err := parseColumn(a.Column)
	if err != nil {
		return nil, err
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet, ext := sh.name, sh.ext
		before := ext.maxCol
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Cols, At: col, Count: n, Delete: true}
		name := columnName(col)
		if err := b.shiftRefs(shift, func() error {
			for i := 0; i < n; i++ {
				if err := b.f.RemoveCol(sheet, name); err != nil {
					return newError(KindInvalidArgument, "cannot delete columns: "+err.Error(), err)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		ext.minCol, ext.maxCol = shrinkSpan(ext, ext.minCol, ext.maxCol, col, n)
		return success(b.name(), sheet,
			field("deleted_from_column", name),
			field("deleted_from_column_index", col),
			field("count", n),
			field("columns_before", before),
			field("columns_after", ext.maxCol)), nil
	}), nil
}
