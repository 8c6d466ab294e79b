package tools

import (
	"context"
	"math"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// read_excel's excelmanus arguments: header_row (where summary mode finds
// the column names), sample_rows (rows spread evenly over the sheet) and
// include (extra views, answered with the tool that gives each).

// readIncludes are the include values excelmanus's read_excel knows.
func readIncludes() []string {
	return []string{"styles", "charts", "images", "freeze_panes", "conditional_formatting", "data_validation",
		"print_settings", "column_widths", "formulas", "categorical_summary", "summary"}
}

// includeTools says which tool gives each include view read_excel does not
// attach itself.
var includeTools = map[string]string{
	"styles":                 "read_cell_styles",
	"charts":                 "describe_workbook",
	"images":                 "describe_workbook",
	"freeze_panes":           "describe_workbook",
	"conditional_formatting": "describe_workbook",
	"data_validation":        "describe_workbook",
	"print_settings":         "describe_workbook",
	"column_widths":          "read_cell_styles",
	"categorical_summary":    "filter_data or create_pivot_table",
	"summary":                "filter_data or create_pivot_table",
}

// withIncludeNotes adds include_notes to a read_excel result when the call
// asked for views it does not attach.
func withIncludeNotes(res pyjson.Object, include []string) pyjson.Object {
	notes := pyjson.Object{}
	for _, v := range include {
		if t, ok := includeTools[v]; ok {
			notes = append(notes, field(v, "not attached by read_excel; use "+t))
		}
	}
	if len(notes) == 0 {
		return res
	}
	return append(res, field("include_notes", notes))
}

// headerRowOf is the sheet row of a 0-based header_row (row 1 when unset).
func headerRowOf(h *int) int {
	if h == nil {
		return 1
	}
	return *h + 1
}

// sampleIndexes picks k of n data rows (0-based), evenly spaced, the first
// and the last included; every row when k >= n.
func sampleIndexes(n, k int) []int {
	if k >= n {
		out := make([]int, n)
		for i := range out {
			out[i] = i
		}
		return out
	}
	if k == 1 {
		return []int{0}
	}
	out := make([]int, k)
	for i := range out {
		out[i] = int(math.Round(float64(i) * float64(n-1) / float64(k-1)))
	}
	return out
}

// readSample returns the header row and sample_rows data rows spread evenly
// over the sheet: one pass counts the data rows, a second reads the chosen
// ones, stopping after the last.
func (s *Service) readSample(ctx context.Context, b *engine.Book, sheet string, a readExcelArgs) (pyjson.Object, error) {
	hdrRow := headerRowOf(a.HeaderRow)
	n := 0
	err := b.RowsJSON(ctx, sheet, hdrRow+1, grid.LastRow, 1, 0, func(int, []byte, int) bool { n++; return true })
	if err != nil {
		return nil, err
	}
	picks := sampleIndexes(n, *a.SampleRows)
	var header []byte
	hdrItems := 0
	var p *pageRows
	build := func(k int, cut bool) pyjson.Object {
		w := hdrItems
		rows := []any{}
		nums := make([]any, 0, k)
		if p != nil {
			w = max(w, p.widest(k))
			rows = p.encode(k, w)
			for _, r := range p.rows[:k] {
				nums = append(nums, r.row)
			}
		}
		var hdr sheetread.RowArena
		return success(b.Name(), sheet,
			field("columns", hdr.Add(header, hdrItems, w)),
			field("header_row", hdrRow-1),
			field("data_rows", n),
			field("sample_rows", *a.SampleRows),
			field("rows_returned", k),
			field("truncated", cut),
			field("row_numbers", nums),
			field("rows", rows))
	}
	p, err = s.newPageRows(ctx, build(0, true))
	if err != nil {
		return nil, err
	}
	idx, next := -1, 0
	err = b.RowsJSON(ctx, sheet, hdrRow, grid.LastRow, 1, 0, func(row int, inner []byte, cells int) bool {
		if row == hdrRow {
			header, hdrItems = append([]byte(nil), inner...), cells
			p.base += utf8.RuneCount(header)
			return true
		}
		idx++
		if next >= len(picks) {
			return false
		}
		if idx != picks[next] {
			return true
		}
		next++
		return p.add(row, inner, cells) && next < len(picks)
	})
	if err != nil {
		return nil, err
	}
	return p.fit(p.candidates(), p.over, build)
}
