package tools

import (
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/colprofile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// scan_excel_snapshot: one workbook's structure and samples in one call,
// per sheet its used range, header row, column profiles over the first
// max_sample_rows data rows (with quartiles and outliers of the numbers),
// the columns that could be keys, duplicate rows among them, sample rows,
// merged ranges and tables, and the header names shared by several sheets.

const (
	// defaultSnapshotSampleRows is max_sample_rows by default.
	defaultSnapshotSampleRows = 500
	// maxSnapshotSampleRows caps max_sample_rows.
	maxSnapshotSampleRows = 100000
	// snapshotColumns caps the columns profiled per sheet.
	snapshotColumns = 50
	// snapshotSampleRows is how many data rows each sheet shows.
	snapshotSampleRows = 5
	// snapshotSheets caps the sheets of one answer.
	snapshotSheets = 20
)

// scanExcelSnapshotTool declares scan_excel_snapshot.
var scanExcelSnapshotTool = typedTool(toolSpec{
	name: "scan_excel_snapshot", title: "Scan workbook snapshot",
	desc:    "Snapshot of one workbook: per sheet its used range, header row, column profiles over the first max_sample_rows data rows (type, empty, unique, unique_ratio, samples; for numbers min, p25, median, p75, max as pandas' quantile computes them with linear interpolation, and outliers past 1.5*IQR with examples), key_columns (columns whose non-empty values are all distinct), duplicate rows, sample rows, merged ranges and tables, plus header names shared across sheets; quartiles and outliers use at most 10000 numbers per column, a random sample past that (quantiles_from says which); sheets paged with offset/next_offset, a sheet larger than the result cap by itself shown shortened (shortened says what was left out).",
	timeout: limits.ReadTimeout,
	access:  access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStructure}}},
}, (*Service).scanExcelSnapshot)

// scanExcelSnapshotArgs are scan_excel_snapshot's arguments.
type scanExcelSnapshotArgs struct {
	fileArg
	MaxSampleRows        *int  `json:"max_sample_rows,omitempty" minimum:"10" maximum:"100000" jsonschema:"Data rows profiled per sheet, the first ones below the header (default 500); sampled: true says a sheet has more"`
	IncludeRelationships *bool `json:"include_relationships,omitempty" jsonschema:"List the header names several sheets share (default true)"`
	Offset               int   `json:"offset,omitempty" minimum:"0" jsonschema:"Sheets to skip: pass the previous answer's next_offset"`
}

// scanExcelSnapshot implements scan_excel_snapshot.
func (s *Service) scanExcelSnapshot(ctx context.Context, a scanExcelSnapshotArgs) (*engine.Call, error) {
	sample := defaultSnapshotSampleRows
	if a.MaxSampleRows != nil {
		if *a.MaxSampleRows < 10 || *a.MaxSampleRows > maxSnapshotSampleRows {
			return nil, failure.Invalid("max_sample_rows must be between 10 and %d, got %d", maxSnapshotSampleRows, *a.MaxSampleRows)
		}
		sample = *a.MaxSampleRows
	}
	if a.Offset < 0 {
		return nil, failure.Invalid("offset must be >= 0")
	}
	return engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		list, active := b.SheetList()
		limit, capped := registry.ResultLimit(ctx)
		used := 600
		start := min(a.Offset, len(list))
		next := start
		sheets := []any{}
		headers := map[string][]string{}
		for next < len(list) && len(sheets) < snapshotSheets {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			sh, names, err := snapshotSheet(b, ctx, list[next], sample)
			if err != nil {
				return nil, err
			}
			text, err := pyjson.MarshalString(sh)
			if err != nil {
				return nil, err
			}
			n := utf8.RuneCountInString(text) + 1
			if capped && used+n > limit && len(sheets) > 0 {
				break
			}
			if capped && used+n > limit {
				// The first sheet alone is over the cap: shown shorter
				// rather than cut whole by the registry.
				if sh, n, err = colprofile.FitSheet(sh, limit-used); err != nil {
					return nil, err
				}
			}
			used += n
			sheets = append(sheets, sh)
			for _, h := range names {
				headers[h] = append(headers[h], list[next])
			}
			next++
		}
		res := success(b.Name(), "",
			field("sheet_count", len(list)),
			field("active_sheet", list[active]),
			field("offset", a.Offset),
			field("sheets_returned", len(sheets)),
			field("has_more", next < len(list)))
		if next < len(list) {
			res = append(res, pyjson.Field{Key: "next_offset", Value: next})
		}
		res = append(res, pyjson.Field{Key: "sheets", Value: sheets})
		if a.IncludeRelationships == nil || *a.IncludeRelationships {
			res = append(res, pyjson.Field{Key: "shared_columns", Value: sharedColumns(headers)})
		}
		return res, nil
	}), nil
}

// sharedColumns lists the header names (ignoring case and spaces around)
// found on several of the sheets of this answer, by name.
func sharedColumns(headers map[string][]string) []any {
	names := make([]string, 0, len(headers))
	for h, sheets := range headers {
		if len(sheets) > 1 {
			names = append(names, h)
		}
	}
	slices.Sort(names)
	out := make([]any, 0, len(names))
	for _, h := range names {
		sheets := make([]any, len(headers[h]))
		for i, s := range headers[h] {
			sheets[i] = s
		}
		out = append(out, pyjson.Object{{Key: "column", Value: h}, {Key: "sheets", Value: sheets}})
	}
	return out
}

// snapshotSheet is one sheet of the snapshot and its distinct header names
// (lower case, trimmed).
func snapshotSheet(b *engine.Book, ctx context.Context, name string, sample int) (pyjson.Object, []string, error) {
	o := pyjson.Object{{Key: "name", Value: name}}
	kind, err := b.SheetKindOf(name)
	if err != nil {
		return nil, nil, err
	}
	if kind != opc.Worksheet {
		return append(o, pyjson.Field{Key: "kind", Value: kind}), nil, nil
	}
	o = append(o, pyjson.Field{Key: "kind", Value: "worksheet"})
	_, cells, err := b.Edit(name)
	if err != nil {
		return nil, nil, err
	}
	// The used range takes in the merged ranges, as Excel's and openpyxl's do.
	merged, err := mergedRanges(b, name)
	if err != nil {
		return nil, nil, err
	}
	ext := *cells
	for _, m := range merged {
		ext.Widen(m.R1, m.C1)
		ext.Widen(m.R2, m.C2)
	}
	if ext.Empty() {
		o = append(o, pyjson.Field{Key: "used_range", Value: nil}, pyjson.Field{Key: "max_row", Value: 0}, pyjson.Field{Key: "max_column", Value: 0})
	} else {
		o = append(o,
			pyjson.Field{Key: "used_range", Value: grid.RangeRef(ext.MinCol, ext.MinRow, ext.MaxCol, ext.MaxRow)},
			pyjson.Field{Key: "max_row", Value: ext.MaxRow},
			pyjson.Field{Key: "max_column", Value: ext.MaxCol})
	}
	var (
		headerRow int
		header    []any
		profiles  []colprofile.Profile
		dataRows  int
		samples   = []any{}
		seen      = map[string]struct{}{}
		dupes     int
	)
	err = b.Rows(ctx, name, 1, grid.LastRow, 1, snapshotColumns, func(row int, vals []any) bool {
		if headerRow == 0 {
			headerRow, header = row, slices.Clone(vals)
			profiles = make([]colprofile.Profile, max(len(header), min(ext.MaxCol, snapshotColumns)))
			for i, h := range header {
				profiles[i].Name = h
			}
			return true
		}
		dataRows++
		if dataRows > sample {
			return true // counted, not profiled
		}
		for i := range profiles {
			var v any
			if i < len(vals) {
				v = vals[i]
			}
			profiles[i].Add(v, row)
		}
		if len(samples) < snapshotSampleRows {
			samples = append(samples, slices.Clone(vals))
		}
		key := colprofile.RowKey(vals)
		if _, dup := seen[key]; dup {
			dupes++
		} else {
			seen[key] = struct{}{}
		}
		return true
	})
	if err != nil {
		return nil, nil, err
	}
	var hdr any
	if headerRow > 0 {
		hdr = headerRow
	}
	cols := make([]any, len(profiles))
	var names []string
	for i := range profiles {
		cols[i] = profiles[i].Encode(i + 1)
		if s, ok := profiles[i].Name.(string); ok && strings.TrimSpace(s) != "" {
			n := strings.ToLower(strings.TrimSpace(s))
			if !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	if header == nil {
		header = []any{}
	}
	o = append(o,
		pyjson.Field{Key: "header_row", Value: hdr},
		pyjson.Field{Key: "header", Value: header},
		pyjson.Field{Key: "data_rows", Value: dataRows},
		pyjson.Field{Key: "rows_profiled", Value: min(dataRows, sample)},
		pyjson.Field{Key: "sampled", Value: dataRows > sample},
		pyjson.Field{Key: "columns_profiled", Value: len(profiles)},
		pyjson.Field{Key: "columns", Value: cols},
		pyjson.Field{Key: "key_columns", Value: colprofile.KeyColumns(profiles)},
		pyjson.Field{Key: "duplicate_rows", Value: dupes},
		pyjson.Field{Key: "sample_rows", Value: samples})
	var items []any
	for _, m := range merged {
		items = append(items, m.String())
	}
	o = listField(o, "merged_ranges", items)
	tables, err := b.Tables(name)
	if err != nil {
		return nil, nil, failure.New(failure.KindDamaged, "file is damaged: tables of "+name+": "+err.Error(), err)
	}
	items = nil
	for _, t := range tables {
		items = append(items, pyjson.Object{{Key: "name", Value: t.Name}, {Key: "range", Value: strings.ReplaceAll(t.Range, "$", "")}})
	}
	return listField(o, "tables", items), names, nil
}
