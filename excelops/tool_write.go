package excelops

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"

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
func (s *Service) writeCells(_ context.Context, raw json.RawMessage) (*call, error) {
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
		if single {
			return success(name, sheet,
				field("cell", *a.Cell),
				field("value_written", a.Value),
				field("cells_written", 1))
		}
		return success(name, sheet,
			field("range", anchor.String()),
			field("rows_written", len(a.Values)),
			field("cells_written", cells))
	}
	c := onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		dw, err := newDateWriter(b.f)
		if err != nil {
			return nil, err
		}
		dates := 0
		fit := newColFitter()
		defer fit.close()
		for _, w := range plan {
			kind, err := dw.put(sh.name, w)
			if err != nil {
				return nil, err
			}
			if kind != notDate {
				dates++
			}
			if err := fitWritten(b.f, sh.name, w, kind, fit); err != nil {
				return nil, err
			}
		}
		if err := fit.widen(b.f, sh.name); err != nil {
			return nil, err
		}
		sh.ext.widen(anchor.r1, anchor.c1)
		sh.ext.widen(anchor.r2, anchor.c2)
		if !sh.created {
			// Only formulas reading this block need recomputing.
			b.edits = &editSet{areas: []sheetArea{{sh.name, anchor.c1, anchor.r1, anchor.c2, anchor.r2}}}
		}
		res := result(b.name(), sh.name)
		if dates > 0 {
			res = append(res, field("dates_written", dates))
		}
		if b.created {
			res = append(res, field("created", true))
		} else if sh.created {
			res = append(res, field("sheet_created", true))
		}
		return res, nil
	})
	c.create, c.newSheet = createModeOf(a.Create), a.Create != nil && *a.Create
	c.splice = func(sb *spliceBook, sheet string) (splice.Plan, any, error) {
		p, dates, err := writePlan(sb, sheet, anchor, plan)
		res := result(sb.name(), sheet)
		if dates > 0 {
			res = append(res, field("dates_written", dates))
		}
		return p, res, err
	}
	return c, nil
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
func (s *Service) insertRows(_ context.Context, raw json.RawMessage) (*call, error) {
	a, n, err := decodeRowEdit(raw)
	if err != nil {
		return nil, err
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet, ext := sh.name, sh.ext
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
		return success(b.name(), sheet,
			field("inserted_at_row", a.Row),
			field("count", n),
			field("rows_before", before),
			field("rows_after", ext.maxRow)), nil
	}), nil
}

// deleteRows implements delete_rows.
func (s *Service) deleteRows(_ context.Context, raw json.RawMessage) (*call, error) {
	a, n, err := decodeRowEdit(raw)
	if err != nil {
		return nil, err
	}
	return onBook(a.FilePath, a.SheetName, func(b *book, sh sheetRef) (any, error) {
		sheet, ext := sh.name, sh.ext
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
		return success(b.name(), sheet,
			field("deleted_from_row", a.Row),
			field("count", n),
			field("rows_before", before),
			field("rows_after", ext.maxRow)), nil
	}), nil
}

// insertColumns implements insert_columns.
func (s *Service) insertColumns(_ context.Context, raw json.RawMessage) (*call, error) {
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
		return success(b.name(), sheet,
			field("inserted_at_column", columnName(col)),
			field("inserted_at_column_index", col),
			field("count", n),
			field("columns_before", before),
			field("columns_after", ext.maxCol)), nil
	}), nil
}
