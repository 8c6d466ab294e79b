package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// shrinkSpan returns the used span [lo, hi] of ext along one axis after n
// rows or columns from at are deleted; an empty result empties ext.
func shrinkSpan(ext *sheetread.SheetExtent, lo, hi, at, n int) (int, int) {
	if ext.Empty() {
		return lo, hi
	}
	e := formularef.Shift{Axis: formularef.Rows, At: at, Count: n, Delete: true}
	a, b, ok := spanAfter(e, lo, hi)
	if !ok {
		*ext = sheetread.SheetExtent{Closed: true}
		return 0, 0
	}
	return a, b
}

// spanAfter is the span [lo, hi] after the deletion e (ok false: all gone).
func spanAfter(e formularef.Shift, lo, hi int) (int, int, bool) {
	ref, ok := e.Area(grid.CellName(1, lo) + ":" + grid.CellName(1, hi))
	if !ok {
		return 0, 0, false
	}
	rng, err := grid.ParseRange(ref)
	if err != nil {
		return 0, 0, false
	}
	return rng.R1, rng.R2, true
}

// deleteColumnsTool declares delete_columns.
var deleteColumnsTool = typedTool(toolSpec{
	name: "delete_columns", title: "Delete columns",
	desc:    "Delete columns starting at a column (letter like \"C\" or number); columns to the right move left. References to deleted cells become #REF!, ranges that lose columns shrink.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Guard: access.GuardEverySheet, Destructive: true}),
}, (*Service).deleteColumns)

// deleteColumnsArgs are delete_columns' arguments.
type deleteColumnsArgs struct {
	fileArg
	sheetArg
	Column engine.ColumnRef `json:"column" jsonschema:"First column to delete: letter (\"C\") or number (3)"`
	Count  *int             `json:"count,omitempty" minimum:"1" maximum:"1000" jsonschema:"Columns to delete, default 1"`
}

// deleteColumns implements delete_columns: columns right of the deleted
// ones move left; references to deleted cells become #REF!, ranges shrink.
func (s *Service) deleteColumns(_ context.Context, a deleteColumnsArgs) (*engine.Call, error) {
	n, err := editCount(a.Count, maxInsertCols)
	if err != nil {
		return nil, err
	}
	col, err := grid.ParseColumn(a.Column)
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		before := ext.MaxCol
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Cols, At: col, Count: n, Delete: true}
		name := grid.ColumnName(col)
		if err := b.ClearDeletedSpills(sheet, false, col, col+n-1); err != nil {
			return nil, err
		}
		if err := b.ShiftRefs(shift, func() error {
			for i := 0; i < n; i++ {
				if err := b.RemoveCol(sheet, name); err != nil {
					return failure.New(failure.KindInvalidArgument, "cannot delete columns: "+err.Error(), err)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		b.Edits = recalc.DeletedColumns(sheet, col)
		ext.MinCol, ext.MaxCol = shrinkSpan(ext, ext.MinCol, ext.MaxCol, col, n)
		return success(b.Name(), sheet,
			field("deleted_from_column", name),
			field("deleted_from_column_index", col),
			field("count", n),
			field("columns_before", before),
			field("columns_after", ext.MaxCol)), nil
	}), nil
}

// insertColumnsTool declares insert_columns.
var insertColumnsTool = typedTool(toolSpec{
	name: "insert_columns", title: "Insert columns",
	desc:    "Insert empty columns before a column (letter like \"C\" or number); existing columns move right.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Guard: access.GuardEverySheet}),
}, (*Service).insertColumns)

// insertColumnsArgs are insert_columns' arguments.
type insertColumnsArgs struct {
	fileArg
	sheetArg
	Column engine.ColumnRef `json:"column" jsonschema:"Column letter (\"C\") or number (3) to insert before"`
	Count  *int             `json:"count,omitempty" minimum:"1" maximum:"1000" jsonschema:"Columns to insert, default 1"`
}

// insertColumns implements insert_columns.
func (s *Service) insertColumns(_ context.Context, a insertColumnsArgs) (*engine.Call, error) {
	n, err := editCount(a.Count, maxInsertCols)
	if err != nil {
		return nil, err
	}
	col, err := grid.ParseColumn(a.Column)
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		before := ext.MaxCol
		if before+n > excelize.MaxColumns && col <= before {
			return nil, failure.Invalid("inserting %d columns would push data past column %s", n, grid.ColumnName(excelize.MaxColumns))
		}
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Cols, At: col, Count: n}
		if err := b.ShiftRefs(shift, func() error {
			if err := b.InsertCols(sheet, grid.ColumnName(col), n); err != nil {
				if errors.Is(err, excelize.ErrColumnNumber) {
					return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot insert %d columns at column %s: the sheet's last columns hold cells, notes or formatting that would be pushed past column %s, Excel's last column; clear or delete them first", n, grid.ColumnName(col), grid.ColumnName(excelize.MaxColumns)), err)
				}
				return failure.New(failure.KindInvalidArgument, "cannot insert columns: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		b.Edits = recalc.InsertedColumns(sheet, col, n)
		if !ext.Empty() && col <= ext.MaxCol {
			ext.MaxCol += n
			if col <= ext.MinCol {
				ext.MinCol += n
			}
		}
		return success(b.Name(), sheet,
			field("inserted_at_column", grid.ColumnName(col)),
			field("inserted_at_column_index", col),
			field("count", n),
			field("columns_before", before),
			field("columns_after", ext.MaxCol)), nil
	}), nil
}
