package tools

import (
	"context"
	"errors"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Rows inserted and deleted: insert_rows and delete_rows.

// rowEditArgs are insert_rows' arguments, and (converted) delete_rows'.
type rowEditArgs struct {
	fileArg
	sheetArg
	Row   int  `json:"row" minimum:"1" jsonschema:"Row number (1-based) to insert before"`
	Count *int `json:"count,omitempty" minimum:"1" maximum:"10000" jsonschema:"Rows to insert, default 1"`
}

// deleteRowsArgs are delete_rows' arguments: rowEditArgs, described for a deletion.
type deleteRowsArgs struct {
	fileArg
	sheetArg
	Row   int  `json:"row" minimum:"1" jsonschema:"First row (1-based) to delete"`
	Count *int `json:"count,omitempty" minimum:"1" maximum:"10000" jsonschema:"Rows to delete, default 1"`
}

// checkRowEdit checks insert_rows/delete_rows arguments and returns them
// with the checked row count.
func checkRowEdit(a rowEditArgs) (rowEditArgs, int, error) {
	n, err := editCount(a.Count, maxInsertRows)
	if err != nil {
		return a, 0, err
	}
	if a.Row < 1 || a.Row > excelize.TotalRows {
		return a, 0, failure.Invalid("row must be between 1 and %d, got %d", excelize.TotalRows, a.Row)
	}
	return a, n, nil
}

// editCount returns the count argument, default 1, checked against limit.
func editCount(c *int, limit int) (int, error) {
	n := 1
	if c != nil {
		n = *c
	}
	if n < 1 || n > limit {
		return 0, failure.Invalid("count must be between 1 and %d, got %d", limit, n)
	}
	return n, nil
}

// insertRowsTool declares insert_rows.
var insertRowsTool = typedTool(toolSpec{
	name: "insert_rows", title: "Insert rows",
	desc:    "Insert empty rows before a row number; existing rows move down.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Guard: access.GuardEverySheet}),
}, (*Service).insertRows)

// insertRows implements insert_rows.
func (s *Service) insertRows(_ context.Context, a rowEditArgs) (*engine.Call, error) {
	a, n, err := checkRowEdit(a)
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		before := ext.MaxRow
		if before+n > excelize.TotalRows && a.Row <= before {
			return nil, failure.Invalid("inserting %d rows would push data past row %d", n, excelize.TotalRows)
		}
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Rows, At: a.Row, Count: n}
		if err := b.ShiftRefs(shift, func() error {
			if err := b.InsertRows(sheet, a.Row, n); err != nil {
				if errors.Is(err, excelize.ErrMaxRows) {
					return failure.New(failure.KindInvalidArgument, fmt.Sprintf("cannot insert %d rows at row %d: the sheet's last rows hold cells, notes or row formatting that would be pushed past row %d, Excel's last row; clear or delete them first", n, a.Row, excelize.TotalRows), err)
				}
				return failure.New(failure.KindInvalidArgument, "cannot insert rows: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		b.Edits = recalc.InsertedRows(sheet, a.Row, n)
		if !ext.Empty() && a.Row <= ext.MaxRow {
			ext.MaxRow += n
			if a.Row <= ext.MinRow {
				ext.MinRow += n
			}
		}
		return success(b.Name(), sheet,
			field("inserted_at_row", a.Row),
			field("count", n),
			field("rows_before", before),
			field("rows_after", ext.MaxRow)), nil
	}), nil
}

// deleteRowsTool declares delete_rows.
var deleteRowsTool = typedTool(toolSpec{
	name: "delete_rows", title: "Delete rows",
	desc:    "Delete rows starting at a row number; rows below move up.",
	timeout: limits.WriteTimeout,
	access:  access.EditStructure("sheet_name", access.SheetEdit, access.Access{Guard: access.GuardEverySheet, Destructive: true}),
}, (*Service).deleteRows)

// deleteRows implements delete_rows.
func (s *Service) deleteRows(_ context.Context, d deleteRowsArgs) (*engine.Call, error) {
	a, n, err := checkRowEdit(rowEditArgs(d))
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		sheet, ext := sh.Name, sh.Ext
		before := ext.MaxRow
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Rows, At: a.Row, Count: n, Delete: true}
		if err := b.ClearDeletedSpills(sheet, true, a.Row, a.Row+n-1); err != nil {
			return nil, err
		}
		if err := b.ShiftRefs(shift, func() error {
			for i := 0; i < n; i++ {
				if err := b.RemoveRow(sheet, a.Row); err != nil {
					return failure.New(failure.KindInvalidArgument, "cannot delete rows: "+err.Error(), err)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		b.Edits = recalc.DeletedRows(sheet, a.Row)
		ext.MinRow, ext.MaxRow = shrinkSpan(ext, ext.MinRow, ext.MaxRow, a.Row, n)
		return success(b.Name(), sheet,
			field("deleted_from_row", a.Row),
			field("count", n),
			field("rows_before", before),
			field("rows_after", ext.MaxRow)), nil
	}), nil
}
