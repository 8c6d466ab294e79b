package tools

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// inspect_excel_files: an overview of the workbooks of a folder (sheets,
// used ranges, header row and a few preview rows each, and the details
// include asks for: inspect_details.go), found by the same walk as
// list_workbooks and paged over that walk's files, so next_offset never
// skips a file whatever the filters drop.

const (
	// defaultInspectedFiles is inspect_excel_files' max_files by default.
	defaultInspectedFiles = 20
	// maxInspectedFiles caps max_files.
	maxInspectedFiles = 200
	// defaultPreviewRows is preview_rows by default.
	defaultPreviewRows = 3
	// maxPreviewRows caps preview_rows.
	maxPreviewRows = 50
	// defaultPreviewColumns is max_columns by default.
	defaultPreviewColumns = 15
	// maxPreviewColumns caps max_columns.
	maxPreviewColumns = 200
	// maxInspectedSheets caps the sheets shown per file.
	maxInspectedSheets = 50
	// inspectReserve is the least time kept back from the call's deadline
	// to answer with what was inspected so far.
	inspectReserve = 250 * time.Millisecond
)

// inspectExcelFilesTool declares inspect_excel_files.
var inspectExcelFilesTool = typedTool(toolSpec{
	name: "inspect_excel_files", title: "Inspect workbook files",
	desc:    "Overview of the workbooks in a folder (recursive by default): per file its sheets with used range, header row and a few preview rows, plus the details include asks for (freeze panes, charts, images, conditional formatting, column widths); search finds files by file or sheet name; paged with offset/next_offset and answered before the deadline with what was inspected (partial: true).",
	timeout: limits.ReadTimeout,
	access:  access.Access{Scans: "directory"},
}, (*Service).inspectExcelFiles)

// inspectExcelFilesArgs are inspect_excel_files' arguments.
type inspectExcelFilesArgs struct {
	Directory   string   `json:"directory,omitempty" default:"." jsonschema:"Folder inside the workspace to scan, e.g. \"reports\"; default the whole workspace"`
	MaxFiles    *int     `json:"max_files,omitempty" minimum:"1" maximum:"200" jsonschema:"Most files to inspect in this call (default 20); has_more/next_offset say where to go on"`
	PreviewRows *int     `json:"preview_rows,omitempty" minimum:"0" maximum:"50" jsonschema:"Rows holding cells shown under each sheet's header row (default 3)"`
	MaxColumns  *int     `json:"max_columns,omitempty" minimum:"1" maximum:"200" jsonschema:"Columns shown of the header and preview rows, from column A (default 15)"`
	Include     []string `json:"include,omitempty" enum:"freeze_panes,charts,images,conditional_formatting,column_widths" jsonschema:"Extra details shown per sheet: freeze_panes (top-left cell, frozen rows and columns), charts and images (the cells they are anchored from and to), conditional_formatting (range, type, operator, formulas of each rule), column_widths (column or range to width); lists show at most 20 items a sheet, with a _count and _truncated: true when cut"`
	Recursive   *bool    `json:"recursive,omitempty" jsonschema:"Look into subfolders too (default true); hidden folders and links are never followed"`
	Search      string   `json:"search,omitempty" jsonschema:"Keep only files whose path or one of whose sheet names contains this text, ignoring case"`
	SheetName   string   `json:"sheet_name,omitempty" jsonschema:"Keep only files with a sheet whose name contains this text, ignoring case, and show only those sheets"`
	Offset      int      `json:"offset,omitempty" minimum:"0" jsonschema:"Files of the folder walk to skip: pass the previous answer's next_offset"`
	ExactRange  bool     `json:"exact_used_range,omitempty" jsonschema:"Count every sheet's cells for its used range instead of taking the range the sheet declares (its dimension, as Excel saves it and openpyxl reads it); slower on large sheets (default false). A sheet that declares none, or whose header or preview rows fall outside it, is always counted"`
}

// inspectOptions are the checked arguments of one inspect_excel_files call.
type inspectOptions struct {
	maxFiles, previewRows, maxColumns int
	search, sheetName                 string   // lower case
	include                           []string // the details to show, each once
	exact                             bool     // count every sheet's cells
}

// options checks a's bounds and fills in the defaults.
func (a inspectExcelFilesArgs) options() (inspectOptions, error) {
	o := inspectOptions{maxFiles: defaultInspectedFiles, previewRows: defaultPreviewRows, maxColumns: defaultPreviewColumns,
		search: strings.ToLower(a.Search), sheetName: strings.ToLower(a.SheetName), exact: a.ExactRange}
	for _, b := range []struct {
		name     string
		v        *int
		lo, hi   int
		assignTo *int
	}{
		{"max_files", a.MaxFiles, 1, maxInspectedFiles, &o.maxFiles},
		{"preview_rows", a.PreviewRows, 0, maxPreviewRows, &o.previewRows},
		{"max_columns", a.MaxColumns, 1, maxPreviewColumns, &o.maxColumns},
	} {
		if b.v == nil {
			continue
		}
		if *b.v < b.lo || *b.v > b.hi {
			return o, failure.Invalid("%s must be between %d and %d, got %d", b.name, b.lo, b.hi, *b.v)
		}
		*b.assignTo = *b.v
	}
	if a.Offset < 0 {
		return o, failure.Invalid("offset must be >= 0")
	}
	for _, d := range a.Include {
		if !slices.Contains([]string{includeFreezePanes, includeColumnWidths, includeCharts, includeImages, includeConditionalFormatting}, d) {
			return o, failure.Invalid("include %q is not one of freeze_panes, charts, images, conditional_formatting, column_widths", d)
		}
		if !slices.Contains(o.include, d) {
			o.include = append(o.include, d)
		}
	}
	return o, nil
}

// inspectExcelFiles implements inspect_excel_files. Like list_workbooks,
// the folder walk runs with no lock held; each workbook is streamed
// through Engine.Run.
func (s *Service) inspectExcelFiles(ctx context.Context, a inspectExcelFilesArgs) (*engine.Call, error) {
	o, err := a.options()
	if err != nil {
		return nil, err
	}
	return &engine.Call{After: func(any) (any, error) {
		return s.inspectIn(ctx, a, o)
	}}, nil
}

// inspectStopAt is when an inspection running under ctx stops taking new
// files: a tenth of the time left (at least inspectReserve) before the
// call's deadline; the zero time when there is none.
func inspectStopAt(ctx context.Context, now time.Time) time.Time {
	dl, ok := ctx.Deadline()
	if !ok {
		return time.Time{}
	}
	return dl.Add(-max(dl.Sub(now)/10, inspectReserve))
}

// inspectIn walks the folder and inspects its workbooks from a.Offset on.
func (s *Service) inspectIn(ctx context.Context, a inspectExcelFilesArgs, o inspectOptions) (any, error) {
	dir, err := s.engine.Box.ResolveDir(a.Directory)
	if err != nil {
		return nil, err
	}
	found, walkCut, err := findWorkbooks(s.engine.Box, ctx, dir, a.Recursive == nil || *a.Recursive)
	if err != nil {
		return nil, err
	}
	stopAt := inspectStopAt(ctx, time.Now())
	fileCtx := ctx
	if !stopAt.IsZero() {
		var cancel context.CancelFunc
		fileCtx, cancel = context.WithDeadline(ctx, stopAt)
		defer cancel()
	}
	limit, capped := registry.ResultLimit(ctx)
	used := 400 // the fields besides the files, generously
	next := min(a.Offset, len(found))
	partial, sizeCut := false, false
	files := []any{}
	inspect, stop := s.inspectAhead(fileCtx, found, next, o)
	defer stop()
	for next < len(found) && len(files) < o.maxFiles {
		if !stopAt.IsZero() && !time.Now().Before(stopAt) {
			partial = true
			break
		}
		r := inspect(next)
		entry, keep, err := r.entry, r.keep, r.err
		if err != nil && fileCtx.Err() != nil && ctx.Err() == nil {
			partial = true // the file was cut by the reserve: not shown
			break
		}
		if err != nil {
			return nil, err
		}
		if keep {
			text, err := pyjson.MarshalString(entry)
			if err != nil {
				return nil, err
			}
			n := utf8.RuneCountInString(text) + 1
			if capped && used+n > limit && len(files) > 0 {
				sizeCut = true
				break
			}
			used += n
			files = append(files, entry)
		}
		next++
	}
	res := success("", "",
		field("directory", s.relPath(dir)),
		field("files_found", len(found)),
		field("offset", a.Offset),
		field("files_returned", len(files)),
		field("has_more", next < len(found)))
	if next < len(found) {
		res = append(res, pyjson.Field{Key: "next_offset", Value: next})
	}
	res = append(res, pyjson.Field{Key: "partial", Value: partial})
	if partial {
		res = append(res, pyjson.Field{Key: "partial_reason", Value: "the call's deadline came near: call again with offset next_offset for the rest"})
	}
	if sizeCut {
		res = append(res, pyjson.Field{Key: "truncated", Value: "the result size limit was reached: call again with offset next_offset for the rest"})
	}
	if walkCut {
		res = append(res, pyjson.Field{Key: "walk_truncated", Value: "the folder walk stopped after its entry limit; inspect a subfolder to see the rest"})
	}
	return append(res, pyjson.Field{Key: "files", Value: files}), nil
}

// errNoMatch is an inspected file the filters drop.
var errNoMatch = errors.New("no match")

// inspectFile is one file's entry; keep is false when the filters drop it.
// A file that cannot be read is kept with its error (unless filtered by
// sheet name), and so is a file the deadline cut: err is then the
// context's.
func (s *Service) inspectFile(ctx context.Context, w foundWorkbook, o inspectOptions) (pyjson.Object, bool, error) {
	rel := s.relPath(w.path)
	entry := pyjson.Object{
		{Key: "path", Value: rel},
		{Key: "size_bytes", Value: w.info.Size()},
		{Key: "modified", Value: w.info.ModTime().UTC().Format("2006-01-02T15:04:05Z")},
	}
	pathHit := o.search == "" || strings.Contains(strings.ToLower(rel), o.search)
	acc := access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStream}}}
	res, err := s.engine.Run(ctx, acc, engine.OnBook(w.path, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		return inspectSheets(b, ctx, o, pathHit)
	}))
	switch {
	case errors.Is(err, errNoMatch):
		return nil, false, nil
	case err != nil && ctx.Err() != nil:
		return nil, false, ctx.Err()
	case err != nil:
		if o.sheetName != "" || !pathHit {
			return nil, false, nil
		}
		return append(entry, pyjson.Field{Key: "error", Value: err.Error()}), true, nil
	}
	return append(entry, res.(pyjson.Object)...), true, nil
}

// inspectSheets is the sheets part of a file's entry, or errNoMatch.
func inspectSheets(b *engine.Book, ctx context.Context, o inspectOptions, pathHit bool) (pyjson.Object, error) {
	list, _ := b.SheetList()
	var wanted []string
	for _, n := range list {
		low := strings.ToLower(n)
		if o.search != "" && strings.Contains(low, o.search) {
			pathHit = true
		}
		if o.sheetName == "" || strings.Contains(low, o.sheetName) {
			wanted = append(wanted, n)
		}
	}
	if !pathHit || len(wanted) == 0 {
		return nil, errNoMatch
	}
	sheets := make([]any, 0, min(len(wanted), maxInspectedSheets))
	for _, n := range wanted[:min(len(wanted), maxInspectedSheets)] {
		sh, err := inspectSheet(b, ctx, n, o)
		if err != nil {
			return nil, err
		}
		sheets = append(sheets, sh)
	}
	out := pyjson.Object{{Key: "sheet_count", Value: len(list)}}
	if len(wanted) > maxInspectedSheets {
		out = append(out, pyjson.Field{Key: "sheets_truncated", Value: true})
	}
	return append(out, pyjson.Field{Key: "sheets", Value: sheets}), nil
}

// inspectSheet is one sheet of a file's entry: its used range (as the
// sheet declares it, or as its cells give it: inspectExtent), its header row (the first row holding cells within the
// first max_columns columns) and the next preview_rows rows holding cells.
func inspectSheet(b *engine.Book, ctx context.Context, name string, o inspectOptions) (pyjson.Object, error) {
	out := pyjson.Object{{Key: "name", Value: name}}
	kind, err := b.SheetKindOf(name)
	if err != nil {
		return nil, err
	}
	if kind != opc.Worksheet {
		return append(out, pyjson.Field{Key: "kind", Value: kind}), nil
	}
	var details pyjson.Object
	if len(o.include) > 0 {
		zf, err := b.Part(name)
		if err != nil {
			return nil, err
		}
		if details, err = inspectDetails(b, name, zf, o.include); err != nil {
			return nil, err
		}
	}
	var (
		arena              sheetread.RowArena
		headerRow, lastRow int
		header             any = []any{}
		preview                = []any{}
		declared           []byte
	)
	err = b.WalkRows(ctx, name, 1, grid.LastRow, 1, o.maxColumns, sheetread.RowOpts{Encode: true}, func(row int, rr *sheetread.RowReader) bool {
		declared, lastRow = rr.W.Dimension, row
		if headerRow == 0 {
			headerRow, header = row, arena.Add(rr.Enc, rr.Next, rr.Next)
			return o.previewRows > 0
		}
		preview = append(preview, arena.Add(rr.Enc, rr.Next, rr.Next))
		return len(preview) < o.previewRows
	})
	if err != nil {
		return nil, err
	}
	ext, source, err := inspectExtent(b, name, declared, headerRow, lastRow, o.exact)
	if err != nil {
		return nil, err
	}
	if ext.Empty() {
		return append(append(out,
			pyjson.Field{Key: "used_range", Value: nil},
			pyjson.Field{Key: "used_range_source", Value: source},
			pyjson.Field{Key: "max_row", Value: 0},
			pyjson.Field{Key: "max_column", Value: 0},
			pyjson.Field{Key: "header_row", Value: nil},
			pyjson.Field{Key: "header", Value: []any{}},
			pyjson.Field{Key: "preview", Value: []any{}}), details...), nil
	}
	var hdr any
	if headerRow > 0 {
		hdr = headerRow
	}
	return append(append(out,
		pyjson.Field{Key: "used_range", Value: grid.RangeRef(ext.MinCol, ext.MinRow, ext.MaxCol, ext.MaxRow)},
		pyjson.Field{Key: "used_range_source", Value: source},
		pyjson.Field{Key: "max_row", Value: ext.MaxRow},
		pyjson.Field{Key: "max_column", Value: ext.MaxCol},
		pyjson.Field{Key: "columns_shown", Value: min(ext.MaxCol, o.maxColumns)},
		pyjson.Field{Key: "header_row", Value: hdr},
		pyjson.Field{Key: "header", Value: header},
		pyjson.Field{Key: "preview", Value: preview}), details...), nil
}

// Where an inspected sheet's used range comes from (used_range_source).
const (
	usedFromDimension = "dimension" // the sheet's own declaration
	usedFromCells     = "cells"     // every cell counted
)

// inspectExtent is a sheet's used range for inspect_excel_files and where
// it comes from: the range the sheet declares (its dimension), unless exact
// is set, the sheet declares none or only "A1" (what some writers put in
// every sheet), or the rows read (the header, first to last) fall outside
// it; else a count of the cells, which also finds a truncated sheet.
func inspectExtent(b *engine.Book, name string, declared []byte, first, last int, exact bool) (sheetread.SheetExtent, string, error) {
	if r, err := grid.ParseRange(string(sheetxml.Unescape(declared))); !exact && first > 0 && err == nil &&
		(r.C1 != r.C2 || r.R1 != r.R2) && first >= r.R1 && last <= r.R2 {
		return sheetread.SheetExtent{MinRow: r.R1, MaxRow: r.R2, MinCol: r.C1, MaxCol: r.C2, Closed: true}, usedFromDimension, nil
	}
	ext, err := b.Scan(name)
	return ext, usedFromCells, err
}
