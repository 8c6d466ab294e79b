package tools

import (
	"context"
	"slices"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// compare_excel: two workbooks, or two sheets of one, compared by value
// and, with ignore_style false, by style (see internal/engine/sheetdiff.go and
// internal/engine/sheetdiff_styles.go), the differences paged with offset/next_offset.

const (
	// defaultCompareDiffs is max_diffs by default.
	defaultCompareDiffs = 500
	// maxCompareDiffs caps max_diffs.
	maxCompareDiffs = 10000
	// maxComparedCells caps the cells read of each sheet.
	maxComparedCells = 2_000_000
	// maxComparedColumns caps the columns read of each sheet.
	maxComparedColumns = 1000
)

// compareExcelTool declares compare_excel.
var compareExcelTool = typedTool(toolSpec{
	name: "compare_excel", title: "Compare sheets",
	desc:    "Compare two workbooks, or two sheets of one (file_b = file_a), by value: columns added or removed, and rows added, removed or changed with their changed cells, rows matched by key_columns (header names) or by position; with ignore_style false also the cells of matched rows (and of the header) whose style differs (font, fill, border, alignment, number format); differences paged with offset/next_offset.",
	timeout: limits.ReadTimeout,
	access: access.Access{Files: []access.FileUse{
		{Arg: "file_a", SheetArg: "sheet_a", Touch: access.TouchStream, Sheet: access.SheetRead},
		{Arg: "file_b", SheetArg: "sheet_b", Touch: access.TouchStream, Sheet: access.SheetRead},
	}},
}, (*Service).compareExcel)

// compareExcelArgs are compare_excel's arguments.
type compareExcelArgs struct {
	FileA       string   `json:"file_a" jsonschema:"First workbook (the base), inside the workspace"`
	FileB       string   `json:"file_b" jsonschema:"Second workbook (the one compared with the base); the same as file_a to compare two of its sheets"`
	SheetA      string   `json:"sheet_a,omitempty" jsonschema:"Sheet of file_a; default its active sheet"`
	SheetB      string   `json:"sheet_b,omitempty" jsonschema:"Sheet of file_b; default its active sheet"`
	IgnoreStyle *bool    `json:"ignore_style,omitempty" jsonschema:"Compare values only (default true). false also compares the styles of the cells of the shared columns, in the header and in matched rows: each cell whose style differs is listed in a style_changed difference with the attributes that differ (font.name, font.size, font.bold, font.italic, font.underline, font.strike, font.color, fill.color, border.left/right/top/bottom/diagonalUp/diagonalDown, alignment.horizontal/vertical/wrap_text, number_format, number_format_id) and their old and new values, as read_cell_styles names them"`
	KeyColumns  []string `json:"key_columns,omitempty" jsonschema:"Header names whose values identify a row in both sheets, e.g. [\"id\"]; default rows are matched by position"`
	MaxDiffs    *int     `json:"max_diffs,omitempty" minimum:"1" maximum:"10000" jsonschema:"Most differences in this answer (default 500); has_more/next_offset say where to go on"`
	Offset      int      `json:"offset,omitempty" minimum:"0" jsonschema:"Differences to skip: pass the previous answer's next_offset"`
}

// compareExcel implements compare_excel: sheet A is read, then sheet B,
// each under its shared lock, and the two are compared.
func (s *Service) compareExcel(ctx context.Context, a compareExcelArgs) (*engine.Call, error) {
	styles := a.IgnoreStyle != nil && !*a.IgnoreStyle
	limit := defaultCompareDiffs
	if a.MaxDiffs != nil {
		if *a.MaxDiffs < 1 || *a.MaxDiffs > maxCompareDiffs {
			return nil, failure.Invalid("max_diffs must be between 1 and %d, got %d", maxCompareDiffs, *a.MaxDiffs)
		}
		limit = *a.MaxDiffs
	}
	if a.Offset < 0 {
		return nil, failure.Invalid("offset must be >= 0")
	}
	var ta engine.DiffTable
	var nameA, fileA string
	var sideA *engine.StyleSide
	readA := func(b *engine.Book, sh engine.SheetRef) (any, error) {
		t, err := readDiffTable(b, ctx, sh.Name, styles)
		ta, nameA, fileA = t, sh.Name, b.Name()
		if err == nil && styles {
			sideA, err = engine.BookStyleSide(b)
		}
		return nil, err
	}
	readB := func(b *engine.Book, sh engine.SheetRef) (any, error) {
		tb, err := readDiffTable(b, ctx, sh.Name, styles)
		if err != nil {
			return nil, err
		}
		var sc *engine.StyleComparer
		if styles {
			sideB, err := engine.BookStyleSide(b)
			if err != nil {
				return nil, err
			}
			sc = engine.NewStyleComparer(sideA, sideB)
			defer sc.Close()
		}
		d, err := engine.DiffTables(&ta, &tb, a.KeyColumns, sc)
		if err != nil {
			return nil, err
		}
		return diffPage(d, ctx, a, limit, fileA, nameA, b.Name(), sh.Name, len(ta.Rows), len(tb.Rows))
	}
	return &engine.Call{Paths: []string{a.FileA, a.FileB}, Sheets: []string{a.SheetA, a.SheetB}, Bodies: []engine.Body{readA, readB}}, nil
}

// readDiffTable reads sheet's header row (its first row holding cells)
// and data rows, from column A, within maxComparedCells; with styles, the
// style ids of their cells too (a cell counts once, valued or styled).
func readDiffTable(b *engine.Book, ctx context.Context, sheet string, styles bool) (engine.DiffTable, error) {
	var t engine.DiffTable
	cells := 0
	var over bool
	visit := func(row int, vals []any, ids []int32) bool {
		if cells += max(len(vals), len(ids)); cells > maxComparedCells {
			over = true
			return false
		}
		if t.HeaderRow == 0 {
			t.HeaderRow, t.Header, t.HeaderStyles = row, slices.Clone(vals), slices.Clone(ids)
			return true
		}
		t.Rows = append(t.Rows, slices.Clone(vals))
		t.RowNums = append(t.RowNums, row)
		if styles {
			t.Styles = append(t.Styles, slices.Clone(ids))
		}
		return true
	}
	var err error
	if styles {
		err = b.RowsStyled(ctx, sheet, 1, grid.LastRow, 1, maxComparedColumns, visit)
	} else {
		err = b.Rows(ctx, sheet, 1, grid.LastRow, 1, maxComparedColumns, func(row int, vals []any) bool { return visit(row, vals, nil) })
	}
	if err != nil {
		return t, err
	}
	if over {
		return t, budget.TooLarge("sheet " + sheet + " holds more cells than compare_excel reads (2,000,000): compare ranges of it with read_excel instead")
	}
	return t, nil
}

// diffPage is the result of d: the summary and one page of the differences, sized
// to the result limit.
func diffPage(d *engine.SheetDiff, ctx context.Context, a compareExcelArgs, limit int, fileA, sheetA, fileB, sheetB string, rowsA, rowsB int) (any, error) {
	keys := make([]any, len(a.KeyColumns))
	for i, k := range a.KeyColumns {
		keys[i] = k
	}
	summary := pyjson.Object{
		{Key: "rows_a", Value: rowsA}, {Key: "rows_b", Value: rowsB},
		{Key: "rows_added", Value: d.Added}, {Key: "rows_removed", Value: d.Removed}, {Key: "rows_changed", Value: d.Changed},
		{Key: "cells_changed", Value: d.CellsChanged},
		{Key: "columns_added", Value: len(d.ColumnsAdded)}, {Key: "columns_removed", Value: len(d.ColumnsRemoved)},
		{Key: "duplicate_keys", Value: d.DuplicateKeys},
	}
	if d.Styled {
		summary = append(summary, pyjson.Field{Key: "rows_style_changed", Value: d.RowsStyled}, pyjson.Field{Key: "cells_style_changed", Value: d.CellsStyled})
	}
	res := success("", "",
		field("file_a", fileA), field("sheet_a", sheetA), field("file_b", fileB), field("sheet_b", sheetB),
		field("key_columns", keys),
		field("identical", len(d.Diffs) == 0 && len(d.ColumnsAdded) == 0 && len(d.ColumnsRemoved) == 0),
		field("summary", summary),
		field("columns_added", d.ColumnsAdded), field("columns_removed", d.ColumnsRemoved),
		field("total_diffs", len(d.Diffs)), field("offset", a.Offset))
	capLimit, capped := registry.ResultLimit(ctx)
	text, err := pyjson.MarshalString(res)
	if err != nil {
		return nil, err
	}
	used := utf8.RuneCountInString(text) + 120
	start := min(a.Offset, len(d.Diffs))
	end := start
	page := []any{}
	for end < len(d.Diffs) && len(page) < limit {
		t, err := pyjson.MarshalString(d.Diffs[end])
		if err != nil {
			return nil, err
		}
		n := utf8.RuneCountInString(t) + 2
		if capped && used+n > capLimit && len(page) > 0 {
			break
		}
		used += n
		page = append(page, d.Diffs[end])
		end++
	}
	res = append(res, pyjson.Field{Key: "diffs_returned", Value: len(page)}, pyjson.Field{Key: "has_more", Value: end < len(d.Diffs)})
	if end < len(d.Diffs) {
		res = append(res, pyjson.Field{Key: "next_offset", Value: end})
	}
	return append(res, pyjson.Field{Key: "diffs", Value: page}), nil
}
