package excelops

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
)

// Row and column edit caps per call.
const (
	// maxInsertRows caps insert_rows/delete_rows count (as excelmanus).
	maxInsertRows = 10000
	// maxInsertCols caps insert_columns count (as excelmanus).
	maxInsertCols = 1000
)

// writeCellsArgs are write_cells' arguments.
type writeCellsArgs struct {
	FilePath   string  `json:"file_path"`
	SheetName  string  `json:"sheet_name"`
	Cell       *string `json:"cell"`
	Value      any     `json:"value"`
	CellRange  *string `json:"cell_range"`
	Values     [][]any `json:"values"`
	Create     *bool   `json:"create"`
	ValueTypes string  `json:"value_types"`
}

// writeCells implements write_cells: one cell (cell+value) or a 2-D block
// (cell_range+values, anchored at the range's top-left cell).
func (s *Service) writeCells(ctx context.Context, raw json.RawMessage) (any, error) {
	var a writeCellsArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	single := a.Cell != nil
	block := a.CellRange != nil || a.Values != nil
	switch {
	case single && block:
		return nil, invalid("cell/value and cell_range/values are exclusive: use one mode")
	case !single && !block:
		return nil, invalid("give cell+value (one cell) or cell_range+values (a block)")
	case block && len(a.Values) == 0:
		return nil, invalid("values must be a non-empty 2-D array in range mode")
	}
	var anchor cellRange
	var err error
	cells := 1
	if single {
		if anchor, err = parseRange(*a.Cell); err != nil {
			return nil, err
		}
	} else {
		start := "A1"
		if a.CellRange != nil {
			start = strings.Split(*a.CellRange, ":")[0]
		}
		if anchor, err = parseRange(start); err != nil {
			return nil, err
		}
		cells = 0
		width := 0
		for _, r := range a.Values {
			cells += len(r)
			width = max(width, len(r))
		}
		if cells > s.limits.MaxWriteCells {
			return nil, limitErr(fmt.Sprintf("%d cells in one call, more than the limit of %d", cells, s.limits.MaxWriteCells))
		}
		if err := checkBlockFits("the block", anchor.c1, anchor.r1, len(a.Values), max(width, 1)); err != nil {
			return nil, err
		}
		anchor.r2 = anchor.r1 + len(a.Values) - 1
		anchor.c2 = anchor.c1 + max(width, 1) - 1
	}
	plan, err := planWrite(a, anchor, single)
	if err != nil {
		return nil, err
	}
	result := func(name, sheet string) errorsjson.Object {
		res := errorsjson.Object{
			{Key: "status", Value: "success"},
			{Key: "file", Value: name},
			{Key: "sheet", Value: sheet},
		}
		if single {
			return append(res,
				errorsjson.Field{Key: "cell", Value: *a.Cell},
				errorsjson.Field{Key: "value_written", Value: a.Value},
				errorsjson.Field{Key: "cells_written", Value: 1})
		}
		return append(res,
			errorsjson.Field{Key: "range", Value: anchor.String()},
			errorsjson.Field{Key: "rows_written", Value: len(a.Values)},
			errorsjson.Field{Key: "cells_written", Value: cells})
	}
	if spliceable(plan) {
		res, err := s.spliceCells(ctx, a.FilePath, a.SheetName, func(sb *spliceBook, sheet string) (splice.Plan, any, error) {
			p, dates, err := writePlan(sb, anchor.r1, anchor.c1, plan)
			res := result(sb.name(), sheet)
			if dates > 0 {
				res = append(res, errorsjson.Field{Key: "dates_written", Value: dates})
			}
			return p, res, err
		})
		if !errors.Is(err, errNoSplice) {
			return res, err
		}
	}
	return s.mutate(ctx, a.FilePath, mutateOpts{create: createModeOf(a.Create)}, func(b *book) (any, error) {
		sheet, ext, sheetCreated, err := b.editTarget(a.SheetName, a.Create != nil && *a.Create)
		if err != nil {
			return nil, err
		}
		dw, err := newDateWriter(b.f)
		if err != nil {
			return nil, err
		}
		dates := 0
		for _, w := range plan {
			kind, err := dw.put(sheet, w)
			if err != nil {
				return nil, err
			}
			if kind != notDate {
				dates++
			}
		}
		ext.widen(anchor.r1, anchor.c1)
		ext.widen(anchor.r2, anchor.c2)
		if !sheetCreated {
			// Only formulas reading this block need recomputing.
			b.edits = &editSet{areas: []sheetArea{{sheet, anchor.c1, anchor.r1, anchor.c2, anchor.r2}}}
		}
		res := result(b.name(), sheet)
		if dates > 0 {
			res = append(res, errorsjson.Field{Key: "dates_written", Value: dates})
		}
		if b.created {
			res = append(res, errorsjson.Field{Key: "created", Value: true})
		} else if sheetCreated {
			res = append(res, errorsjson.Field{Key: "sheet_created", Value: true})
		}
		return res, nil
	})
}

// planWrite converts and checks every value of a write_cells call (see
// planCell) before the workbook is opened: one value past Excel's limits
// means nothing is written.
func planWrite(a writeCellsArgs, anchor cellRange, single bool) ([]cellWrite, error) {
	vt := a.ValueTypes
	if vt == "" {
		vt = valueTypesAuto
	}
	if vt != valueTypesAuto && vt != valueTypesText {
		return nil, invalid("value_types must be %q or %q, got %q", valueTypesAuto, valueTypesText, a.ValueTypes)
	}
	if single {
		w, err := planCell(anchor.c1, anchor.r1, a.Value, vt)
		return []cellWrite{w}, err
	}
	var plan []cellWrite
	for i, row := range a.Values {
		for j, v := range row {
			w, err := planCell(anchor.c1+j, anchor.r1+i, v, vt)
			if err != nil {
				return nil, err
			}
			plan = append(plan, w)
		}
	}
	return plan, nil
}

// rowEditArgs are the arguments of insert_rows and delete_rows.
type rowEditArgs struct {
	FilePath  string `json:"file_path"`
	SheetName string `json:"sheet_name"`
	Row       int    `json:"row"`
	Count     *int   `json:"count"`
}

// decodeRowEdit decodes insert_rows/delete_rows arguments and returns them
// with the checked row count.
func decodeRowEdit(raw json.RawMessage) (rowEditArgs, int, error) {
	var a rowEditArgs
	if err := decodeArgs(raw, &a); err != nil {
		return a, 0, err
	}
	n, err := editCount(a.Count, maxInsertRows)
	if err != nil {
		return a, 0, err
	}
	if a.Row < 1 || a.Row > excelize.TotalRows {
		return a, 0, invalid("row must be between 1 and %d, got %d", excelize.TotalRows, a.Row)
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
		return 0, invalid("count must be between 1 and %d, got %d", limit, n)
	}
	return n, nil
}

// insertRows implements insert_rows.
func (s *Service) insertRows(ctx context.Context, raw json.RawMessage) (any, error) {
	a, n, err := decodeRowEdit(raw)
	if err != nil {
		return nil, err
	}
	return s.mutate(ctx, a.FilePath, mutateOpts{}, func(b *book) (any, error) {
		sheet, ext, err := b.editShifting(a.SheetName)
		if err != nil {
			return nil, err
		}
		before := ext.maxRow
		if before+n > excelize.TotalRows && a.Row <= before {
			return nil, invalid("inserting %d rows would push data past row %d", n, excelize.TotalRows)
		}
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Rows, At: a.Row, Count: n}
		if err := b.shiftRefs(shift, func() error {
			if err := b.f.InsertRows(sheet, a.Row, n); err != nil {
				return newError(KindInvalidArgument, "cannot insert rows: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if !ext.empty() && a.Row <= ext.maxRow {
			ext.maxRow += n
			if a.Row <= ext.minRow {
				ext.minRow += n
			}
		}
		return errorsjson.Object{
			{Key: "status", Value: "success"},
			{Key: "file", Value: b.name()},
			{Key: "sheet", Value: sheet},
			{Key: "inserted_at_row", Value: a.Row},
			{Key: "count", Value: n},
			{Key: "rows_before", Value: before},
			{Key: "rows_after", Value: ext.maxRow},
		}, nil
	})
}

// deleteRows implements delete_rows.
func (s *Service) deleteRows(ctx context.Context, raw json.RawMessage) (any, error) {
	a, n, err := decodeRowEdit(raw)
	if err != nil {
		return nil, err
	}
	return s.mutate(ctx, a.FilePath, mutateOpts{}, func(b *book) (any, error) {
		sheet, ext, err := b.editShifting(a.SheetName)
		if err != nil {
			return nil, err
		}
		before := ext.maxRow
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Rows, At: a.Row, Count: n, Delete: true}
		if err := b.shiftRefs(shift, func() error {
			for i := 0; i < n; i++ {
				if err := b.f.RemoveRow(sheet, a.Row); err != nil {
					return newError(KindInvalidArgument, "cannot delete rows: "+err.Error(), err)
				}
			}
			return nil
		}); err != nil {
			return nil, err
		}
		ext.minRow, ext.maxRow = shrinkSpan(ext, ext.minRow, ext.maxRow, a.Row, n)
		return errorsjson.Object{
			{Key: "status", Value: "success"},
			{Key: "file", Value: b.name()},
			{Key: "sheet", Value: sheet},
			{Key: "deleted_from_row", Value: a.Row},
			{Key: "count", Value: n},
			{Key: "rows_before", Value: before},
			{Key: "rows_after", Value: ext.maxRow},
		}, nil
	})
}

// insertColumns implements insert_columns.
func (s *Service) insertColumns(ctx context.Context, raw json.RawMessage) (any, error) {
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
	return s.mutate(ctx, a.FilePath, mutateOpts{}, func(b *book) (any, error) {
		sheet, ext, err := b.editShifting(a.SheetName)
		if err != nil {
			return nil, err
		}
		before := ext.maxCol
		if before+n > excelize.MaxColumns && col <= before {
			return nil, invalid("inserting %d columns would push data past column %s", n, columnName(excelize.MaxColumns))
		}
		shift := formularef.Shift{Sheet: sheet, Axis: formularef.Cols, At: col, Count: n}
		if err := b.shiftRefs(shift, func() error {
			if err := b.f.InsertCols(sheet, columnName(col), n); err != nil {
				return newError(KindInvalidArgument, "cannot insert columns: "+err.Error(), err)
			}
			return nil
		}); err != nil {
			return nil, err
		}
		if !ext.empty() && col <= ext.maxCol {
			ext.maxCol += n
			if col <= ext.minCol {
				ext.minCol += n
			}
		}
		return errorsjson.Object{
			{Key: "status", Value: "success"},
			{Key: "file", Value: b.name()},
			{Key: "sheet", Value: sheet},
			{Key: "inserted_at_column", Value: columnName(col)},
			{Key: "inserted_at_column_index", Value: col},
			{Key: "count", Value: n},
			{Key: "columns_before", Value: before},
			{Key: "columns_after", Value: ext.maxCol},
		}, nil
	})
}
