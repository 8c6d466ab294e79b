package excelops

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// Paging defaults of read_excel.
const (
	// defaultSummaryRows is how many data rows summary mode returns.
	defaultSummaryRows = 50
)

// listSheets implements list_sheets.
func (s *Service) listSheets(ctx context.Context, raw json.RawMessage) (any, error) {
	var a struct {
		FilePath string `json:"file_path"`
	}
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	return s.read(ctx, a.FilePath, true, func(b *book) (any, error) {
		list, active := b.sheetList()
		sheets := make([]any, 0, len(list))
		for i, ps := range b.index.sheets {
			sheets = append(sheets, errorsjson.Object{
				{Key: "name", Value: ps.name},
				{Key: "index", Value: i},
				{Key: "is_active", Value: i == active},
				{Key: "visible", Value: !ps.hidden},
			})
		}
		return errorsjson.Object{
			{Key: "status", Value: "success"},
			{Key: "file", Value: b.name()},
			{Key: "sheet_count", Value: len(list)},
			{Key: "active_sheet", Value: list[active]},
			{Key: "sheets", Value: sheets},
		}, nil
	})
}

// readExcelArgs are read_excel's arguments.
type readExcelArgs struct {
	FilePath  string `json:"file_path"`
	SheetName string `json:"sheet_name"`
	Range     string `json:"range"`
	MaxRows   *int   `json:"max_rows"`
	Offset    int    `json:"offset"`
	Formulas  string `json:"formulas"`
}

// readExcel implements read_excel: summary mode (header row plus a page of
// data rows) or exact range mode, both streamed row by row and stopped at
// the last row the page needs.
func (s *Service) readExcel(ctx context.Context, raw json.RawMessage) (any, error) {
	var a readExcelArgs
	if err := decodeArgs(raw, &a); err != nil {
		return nil, err
	}
	if a.Offset < 0 {
		return nil, invalid("offset must be >= 0")
	}
	if a.MaxRows != nil && *a.MaxRows < 1 {
		return nil, invalid("max_rows must be >= 1")
	}
	mode, err := parseFormulaMode(a.Formulas)
	if err != nil {
		return nil, err
	}
	var rng *cellRange
	if a.Range != "" {
		r, err := parseRange(a.Range)
		if err != nil {
			return nil, err
		}
		rng = &r
	}
	return s.read(ctx, a.FilePath, true, func(b *book) (any, error) {
		b.formulas = mode
		sheet, err := b.sheet(a.SheetName)
		if err != nil {
			return nil, err
		}
		if rng != nil {
			return s.readRange(ctx, b, sheet, *rng, a)
		}
		return s.readSummary(ctx, b, sheet, a)
	})
}

// readRange returns the cells of rng, paged by offset/max_rows.
func (s *Service) readRange(ctx context.Context, b *book, sheet string, rng cellRange, a readExcelArgs) (any, error) {
	width := rng.c2 - rng.c1 + 1
	rowCap := s.limits.MaxReadCells / width
	if rowCap < 1 {
		return nil, limitErr(fmt.Sprintf("range %s is wider than the read limit of %d cells", rng, s.limits.MaxReadCells))
	}
	want := rng.r2 - rng.r1 + 1 - a.Offset
	if want < 0 {
		want = 0
	}
	if a.MaxRows != nil && *a.MaxRows < want {
		want = *a.MaxRows
	}
	if want > rowCap {
		want = rowCap
	}
	first := rng.r1 + a.Offset
	values := make([]any, 0, want)
	var arena rowArena
	empty := arena.add(nil, 0, width)
	err := b.rowsJSON(ctx, sheet, first, first+want-1, rng.c1, rng.c2, func(row int, inner []byte, cells int) {
		// Rows without cells in the range still take their place.
		for len(values) < row-first {
			values = append(values, empty)
		}
		// Rows stay encoded (in large shared chunks): a few bytes per
		// cell instead of a boxed value, which keeps big reads lean.
		values = append(values, arena.add(inner, cells, width))
	})
	if err != nil {
		return nil, err
	}
	next := a.Offset + want
	hasMore := rng.r1+next <= rng.r2
	res := errorsjson.Object{
		{Key: "status", Value: "success"},
		{Key: "file", Value: b.name()},
		{Key: "sheet", Value: sheet},
		{Key: "range", Value: rng.String()},
		{Key: "offset", Value: a.Offset},
		{Key: "rows_returned", Value: len(values)},
		{Key: "has_more", Value: hasMore},
	}
	if hasMore {
		res = append(res, errorsjson.Field{Key: "next_offset", Value: next})
	}
	return append(res, errorsjson.Field{Key: "values", Value: values}), nil
}

// readSummary returns the header row and one page of data rows.
func (s *Service) readSummary(ctx context.Context, b *book, sheet string, a readExcelArgs) (any, error) {
	want := defaultSummaryRows
	if a.MaxRows != nil {
		want = *a.MaxRows
	}
	var header []any
	var rows []any
	width := 0
	first := 2 + a.Offset
	last := first + want // one extra row tells whether there is more
	more := false
	err := b.rows(ctx, sheet, 1, last, 1, 0, func(row int, vals []any) {
		if len(vals) > width && row < last {
			width = len(vals)
		}
		switch {
		case row == 1:
			header = vals
		case row == last:
			more = true
		case row >= first:
			rows = append(rows, vals)
		}
	})
	if err != nil {
		return nil, err
	}
	// Square the page up to the widest row so columns line up.
	if header == nil {
		header = []any{}
	}
	for len(header) < width {
		header = append(header, nil)
	}
	for i, r := range rows {
		row := r.([]any)
		for len(row) < width {
			row = append(row, nil)
		}
		rows[i] = row
	}
	if rows == nil {
		rows = []any{}
	}
	res := errorsjson.Object{
		{Key: "status", Value: "success"},
		{Key: "file", Value: b.name()},
		{Key: "sheet", Value: sheet},
		{Key: "columns", Value: header},
		{Key: "offset", Value: a.Offset},
		{Key: "rows_returned", Value: len(rows)},
		{Key: "has_more", Value: more},
	}
	if more {
		res = append(res, errorsjson.Field{Key: "next_offset", Value: a.Offset + len(rows)})
	}
	return append(res, errorsjson.Field{Key: "rows", Value: rows}), nil
}

// streamCheckEvery is how many rows pass between cancellation checks.
const streamCheckEvery = 4096
