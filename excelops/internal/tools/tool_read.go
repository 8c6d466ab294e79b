package tools

import (
	"context"
	"slices"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// Paging defaults of read_excel.
const (
	// defaultSummaryRows is how many data rows summary mode returns.
	defaultSummaryRows = 50
)

// listSheetsTool declares list_sheets.
var listSheetsTool = typedTool(toolSpec{
	name: "list_sheets", title: "List sheets",
	desc:    "List the sheets of an Excel workbook with their order and which one is active.",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStyles}}},
}, (*Service).listSheets)

// listSheetsArgs are list_sheets' arguments.
type listSheetsArgs struct {
	fileArg
}

// listSheets implements list_sheets.
func (s *Service) listSheets(_ context.Context, a listSheetsArgs) (*engine.Call, error) {
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		list, active := b.SheetList()
		sheets := make([]any, 0, len(list))
		for i, ps := range b.Index.Sheets {
			sheets = append(sheets, pyjson.Object{
				{Key: "name", Value: ps.Name},
				{Key: "index", Value: i},
				{Key: "is_active", Value: i == active},
				{Key: "visible", Value: !ps.Hidden},
				{Key: "kind", Value: ps.Kind},
			})
		}
		return success(b.Name(), "",
			field("sheet_count", len(list)),
			field("active_sheet", list[active]),
			field("sheets", sheets)), nil
	}), nil
}

// readExcelTool declares read_excel.
var readExcelTool = typedTool(toolSpec{
	name: "read_excel", title: "Read sheet data",
	desc:    "Read an Excel sheet: a summary page (header + rows) or an exact range, with offset/max_rows paging; dates and times come back as ISO-8601 text.",
	timeout: limits.ReadTimeout,
	access:  access.ReadStream(),
}, (*Service).readExcel)

// readExcelArgs are read_excel's arguments.
type readExcelArgs struct {
	fileArg
	sheetArg
	Range            string   `json:"range,omitempty" rangeSheet:"sheet_name" jsonschema:"Exact A1 range to read, e.g. \"A1:T100\"; omit (and cell_range) for summary mode. ${rangeHelp}"`
	CellRange        string   `json:"cell_range,omitempty" rangeSheet:"sheet_name" jsonschema:"Alias of range, the name the other tools use; both may be given only if they name the same cells"`
	MaxRows          *int     `json:"max_rows,omitempty" minimum:"1" jsonschema:"Most rows per page (summary default 50); a page holds fewer when more would not fit the result size limit, and has_more/next_offset then say where to go on"`
	Offset           int      `json:"offset,omitempty" minimum:"0" jsonschema:"Rows to skip: pass the previous page's next_offset (summary mode counts data rows holding cells; range mode counts rows from the range's first row)"`
	Formulas         string   `json:"formulas,omitempty" enum:"values,formulas,both" default:"values" jsonschema:"How formula cells come back: \"values\" (default) the computed value, or the formula text \"=...\" when the file holds none; \"formulas\" the formula text; \"both\" {\"formula\": \"=...\", \"value\": value or null}"`
	HeaderRow        *int     `json:"header_row,omitempty" minimum:"0" jsonschema:"Summary mode: the row holding the column names, 0-based (0 = sheet row 1, the default); the data rows are the rows below it"`
	SampleRows       *int     `json:"sample_rows,omitempty" minimum:"1" jsonschema:"Summary mode: return this many data rows spread evenly over the whole sheet (first and last included) instead of a page; row_numbers says which"`
	Include          []string `json:"include,omitempty" enum:"${readIncludes}" jsonschema:"Extra views excelmanus's read_excel can attach: \"formulas\" returns formula cells as {formula, value} (formulas=both); every other one is answered in include_notes with the tool that gives it"`
	MaxStyleScanRows *int     `json:"max_style_scan_rows,omitempty" minimum:"1" jsonschema:"Accepted for excelmanus prompts; styles are read with read_cell_styles"`
}

// readExcel implements read_excel: summary mode (header row plus a page of
// data rows) or exact range mode, both streamed row by row and stopped at
// the last row the page needs.
func (s *Service) readExcel(ctx context.Context, a readExcelArgs) (*engine.Call, error) {
	if a.Offset < 0 {
		return nil, failure.Invalid("offset must be >= 0")
	}
	if a.MaxRows != nil && *a.MaxRows < 1 {
		return nil, failure.Invalid("max_rows must be >= 1")
	}
	rangeText, err := foldAlias("range", a.Range, "cell_range", a.CellRange, sameRange)
	if err != nil {
		return nil, err
	}
	a.Range = rangeText
	if a.Formulas == "" && slices.Contains(a.Include, "formulas") {
		a.Formulas = "both"
	}
	if a.Range != "" && (a.HeaderRow != nil || a.SampleRows != nil) {
		return nil, failure.Invalid("header_row and sample_rows are for summary mode; leave out range")
	}
	if a.HeaderRow != nil && (*a.HeaderRow < 0 || *a.HeaderRow >= grid.LastRow) {
		return nil, failure.Invalid("header_row must be between 0 and %d", grid.LastRow-1)
	}
	if a.SampleRows != nil && *a.SampleRows < 1 {
		return nil, failure.Invalid("sample_rows must be >= 1")
	}
	mode, err := sheetread.ParseFormulaMode(a.Formulas)
	if err != nil {
		return nil, err
	}
	var rng *cellarea.Range
	if a.Range != "" {
		r, err := grid.ParseRange(a.Range)
		if err != nil {
			return nil, err
		}
		rng = &r
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		b.Formulas = mode
		var res pyjson.Object
		var err error
		switch {
		case rng != nil:
			res, err = s.readRange(ctx, b, sh.Name, *rng, a)
		case a.SampleRows != nil:
			res, err = s.readSample(ctx, b, sh.Name, a)
		default:
			res, err = s.readSummary(ctx, b, sh.Name, a)
		}
		if err != nil {
			return nil, err
		}
		return withIncludeNotes(res, a.Include), nil
	}), nil
}

// wideRange is the widest range whose rows are always padded to its full
// width; rows of a wider range (say A1:XFD1048576) are only as wide as the
// widest row of the page, so a page never holds thousands of nulls.
const wideRange = 100

// readRange returns the cells of rng, paged by offset/max_rows and sized to
// fit the result cap (see page.go). values[i] is row first+i; rows without
// cells in the range take their place as empty rows; a page ends at the last
// row holding cells when the sheet ends before the range does.
func (s *Service) readRange(ctx context.Context, b *engine.Book, sheet string, rng cellarea.Range, a readExcelArgs) (pyjson.Object, error) {
	width := rng.C2 - rng.C1 + 1
	want := max(rng.R2-rng.R1+1-a.Offset, 0)
	if a.MaxRows != nil && *a.MaxRows < want {
		want = *a.MaxRows
	}
	minWidth := width
	if width > wideRange {
		minWidth = 0
	}
	first := rng.R1 + a.Offset
	var p *pageRows
	build := func(k int, more bool) pyjson.Object {
		res := success(b.Name(), sheet,
			field("range", rng.String()),
			field("offset", a.Offset),
			field("rows_returned", k),
			field("has_more", more))
		if more {
			res = append(res, pyjson.Field{Key: "next_offset", Value: a.Offset + k})
		}
		values := []any{}
		if p != nil {
			values = p.encode(k, max(minWidth, p.widest(k)))
		}
		return append(res, pyjson.Field{Key: "values", Value: values})
	}
	p, err := s.newPageRows(ctx, build(0, true))
	if err != nil {
		return nil, err
	}
	p.padTo = minWidth
	more := false
	if want > 0 {
		err = b.RowsJSON(ctx, sheet, first, rng.R2, rng.C1, rng.C2, func(row int, inner []byte, cells int) bool {
			for first+len(p.rows) < row { // rows without cells in the range
				if len(p.rows) >= want {
					more = true
					return false
				}
				if !p.add(first+len(p.rows), nil, 0) {
					return false
				}
			}
			if len(p.rows) >= want {
				more = true
				return false
			}
			return p.add(row, inner, cells)
		})
		if err != nil {
			return nil, err
		}
	}
	return p.fit(p.candidates(), more || p.over, build)
}

// readSummary returns the header row (row 1, or header_row) and one page of data rows:
// the rows below it that hold cells, offset of them skipped, sized to fit
// the result cap (see page.go). Rows are squared up to the widest row of
// the page so columns line up.
func (s *Service) readSummary(ctx context.Context, b *engine.Book, sheet string, a readExcelArgs) (pyjson.Object, error) {
	want := defaultSummaryRows
	if a.MaxRows != nil {
		want = *a.MaxRows
	}
	var header []byte
	hdrItems := 0
	var p *pageRows
	build := func(k int, more bool) pyjson.Object {
		w := hdrItems
		var rows []any
		if p != nil {
			w = max(w, p.widest(k))
			rows = p.encode(k, w)
		}
		var hdr sheetread.RowArena
		res := success(b.Name(), sheet,
			field("columns", hdr.Add(header, hdrItems, w)),
			field("offset", a.Offset),
			field("rows_returned", k),
			field("has_more", more))
		if more {
			res = append(res, pyjson.Field{Key: "next_offset", Value: a.Offset + k})
		}
		if rows == nil {
			rows = []any{}
		}
		return append(res, pyjson.Field{Key: "rows", Value: rows})
	}
	p, err := s.newPageRows(ctx, build(0, true))
	if err != nil {
		return nil, err
	}
	skip, more, hdrRow := a.Offset, false, headerRowOf(a.HeaderRow)
	err = b.RowsJSON(ctx, sheet, hdrRow, grid.LastRow, 1, 0, func(row int, inner []byte, cells int) bool {
		switch {
		case row == hdrRow:
			header, hdrItems = append([]byte(nil), inner...), cells
			p.base += utf8.RuneCount(header)
			return true
		case skip > 0:
			skip--
			return true
		case len(p.rows) >= want:
			more = true
			return false
		}
		return p.add(row, inner, cells)
	})
	if err != nil {
		return nil, err
	}
	return p.fit(p.candidates(), more || p.over, build)
}
