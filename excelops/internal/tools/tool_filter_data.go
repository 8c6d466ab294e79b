package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/budget"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// filter_data: the rows of a sheet that meet conditions on named columns
// (query_cond.go), optionally sorted (query_sort.go), cut to the top N and
// projected on some columns, paged like read_excel. The sheet is streamed
// once; without sort_by only the page is kept in memory.

// maxSortCells bounds the cells filter_data keeps to sort the matching rows.
const maxSortCells = 4_000_000

// filterDataTool declares filter_data.
var filterDataTool = typedTool(toolSpec{
	name: "filter_data", title: "Filter rows",
	desc: "Rows of a sheet that meet conditions on named columns (one condition as column/operator/value, or a conditions list joined by logic and/or), " +
		"optionally sorted (sort_by, ascending) and cut to the top N (limit), projected on columns; paged with offset/max_rows like read_excel.",
	timeout: limits.ReadTimeout,
	access:  access.ReadStream(),
}, (*Service).filterData)

// filterDataArgs are filter_data's arguments (excelmanus's names).
type filterDataArgs struct {
	fileArg
	sheetArg
	Column     string     `json:"column,omitempty" jsonschema:"Column name of a single condition (with operator and value); not with conditions"`
	Operator   string     `json:"operator,omitempty" enum:"${condOperators}" jsonschema:"Operator of a single condition"`
	Value      queryValue `json:"value,omitempty" jsonschema:"Value of a single condition: a list for in/not_in, [min, max] for between (both ends included), omitted for isnull/notnull"`
	Conditions []condArg  `json:"conditions,omitempty" jsonschema:"Several conditions, joined by logic; not with column/operator/value"`
	Logic      string     `json:"logic,omitempty" enum:"and,or" default:"and" jsonschema:"How conditions combine: \"and\" (default) every one holds, \"or\" at least one"`
	HeaderRow  *int       `json:"header_row,omitempty" minimum:"0" jsonschema:"Row holding the column names, 0-based (0 = sheet row 1, the default); the data rows are the rows below it that hold cells"`
	Columns    []string   `json:"columns,omitempty" jsonschema:"Only these columns, in this order (default every column)"`
	SortBy     string     `json:"sort_by,omitempty" jsonschema:"Column to sort the matching rows by: numbers, then text, then booleans, blanks last; equal keys keep sheet order"`
	Ascending  *bool      `json:"ascending,omitempty" default:"true" jsonschema:"Sort direction (default true)"`
	Limit      *int       `json:"limit,omitempty" minimum:"1" jsonschema:"Keep only the first N matching rows (after sorting): top-N"`
	MaxRows    *int       `json:"max_rows,omitempty" minimum:"1" jsonschema:"Most rows per page (default 50); a page holds fewer when more would not fit the result size limit, and has_more/next_offset then say where to go on"`
	Offset     int        `json:"offset,omitempty" minimum:"0" jsonschema:"Matching rows to skip: pass the previous page's next_offset"`
}

// filterPlan is a checked filter_data call, before the header is known.
type filterPlan struct {
	conds     []condArg
	any       bool
	headerRow int // sheet row number
	pageSize  int
	limit     int // 0: none
	desc      bool
}

// plan checks the arguments that do not need the sheet.
func (a filterDataArgs) plan() (filterPlan, error) {
	p := filterPlan{headerRow: 1, pageSize: defaultSummaryRows, any: a.Logic == "or"}
	switch {
	case a.Offset < 0:
		return p, failure.Invalid("offset must be >= 0")
	case a.MaxRows != nil && *a.MaxRows < 1:
		return p, failure.Invalid("max_rows must be >= 1")
	case a.Limit != nil && *a.Limit < 1:
		return p, failure.Invalid("limit must be >= 1")
	case a.HeaderRow != nil && (*a.HeaderRow < 0 || *a.HeaderRow >= grid.LastRow):
		return p, failure.Invalid("header_row must be between 0 and %d", grid.LastRow-1)
	case a.Logic != "" && a.Logic != "and" && a.Logic != "or":
		return p, failure.Invalid("logic must be \"and\" or \"or\"")
	}
	single := a.Column != "" || a.Operator != "" || a.Value != nil
	switch {
	case single && len(a.Conditions) > 0:
		return p, failure.Invalid("give either column/operator/value or conditions, not both")
	case single && (a.Column == "" || a.Operator == ""):
		return p, failure.Invalid("a single condition needs column and operator")
	case single:
		p.conds = []condArg{{Column: a.Column, Operator: a.Operator, Value: condValue(a.Value)}}
	default:
		p.conds = a.Conditions
	}
	if a.HeaderRow != nil {
		p.headerRow = *a.HeaderRow + 1
	}
	if a.MaxRows != nil {
		p.pageSize = *a.MaxRows
	}
	if a.Limit != nil {
		p.limit = *a.Limit
	}
	p.desc = a.Ascending != nil && !*a.Ascending
	return p, nil
}

// filterData implements filter_data.
func (s *Service) filterData(ctx context.Context, a filterDataArgs) (*engine.Call, error) {
	p, err := a.plan()
	if err != nil {
		return nil, err
	}
	return engine.OnBook(a.FilePath, a.SheetName, func(b *engine.Book, sh engine.SheetRef) (any, error) {
		return s.runFilter(ctx, b, sh.Name, a, p)
	}), nil
}

// filterRun is the state of one filter_data pass over a sheet.
type filterRun struct {
	header  []string
	cols    map[string]int
	query   rowQuery
	proj    []int // columns returned, indexes in the row
	sortCol int   // -1: no sort
	matched int
	kept    []keptRow // sorting: the matching rows (the best top of them so far, with a limit)
	cells   int
	top     int  // limit: the rows a sort keeps (0: every one)
	desc    bool // the sort's direction
}

// keptRow is a matching row kept for sorting.
type keptRow struct {
	row  int
	key  scalar
	vals []any // projected
}

// runFilter streams the sheet once and builds the page.
func (s *Service) runFilter(ctx context.Context, b *engine.Book, sheet string, a filterDataArgs, p filterPlan) (any, error) {
	var (
		fr       = &filterRun{sortCol: -1, top: p.limit, desc: p.desc}
		pg       *pageRows
		ready    bool
		setupErr error
		more     bool
		pageDone bool
	)
	build := func(k int, more bool) pyjson.Object {
		res := success(b.Name(), sheet,
			field("columns", stringsAny(fr.projNames())),
			field("header_row", p.headerRow-1),
			field("total_matched", fr.matched),
			field("offset", a.Offset),
			field("rows_returned", k),
			field("has_more", more),
			field("truncated", more))
		if more {
			res = append(res, field("next_offset", a.Offset+k))
		}
		nums := make([]any, 0, k)
		rows := []any{}
		if pg != nil {
			for _, r := range pg.rows[:k] {
				nums = append(nums, r.row)
			}
			rows = pg.encode(k, len(fr.proj))
		}
		return append(res, field("row_numbers", nums), field("rows", rows))
	}
	setup := func(header []any) bool {
		ready = true
		if setupErr = fr.setup(header, a, p); setupErr != nil {
			return false
		}
		pg, setupErr = s.newPageRows(ctx, build(0, true))
		return setupErr == nil
	}
	window := p.pageSize
	err := b.Rows(ctx, sheet, p.headerRow, grid.LastRow, 1, 0, func(row int, vals []any) bool {
		if !ready {
			if row == p.headerRow {
				return setup(vals)
			}
			if !setup(nil) {
				return false
			}
		}
		if !fr.query.match(vals) {
			return true
		}
		if fr.sortCol >= 0 {
			fr.matched++
			setupErr = fr.keep(row, vals)
			return setupErr == nil
		}
		if p.limit > 0 && fr.matched >= p.limit {
			return false // top-N: the rows past it are not part of the result
		}
		fr.matched++
		idx := fr.matched - 1
		switch {
		case idx < a.Offset || pageDone:
		case len(pg.rows) >= window:
			more, pageDone = true, true
		default:
			if !addRow(pg, row, fr.project(vals)) {
				pageDone = true
			}
		}
		return true
	})
	if err == nil && setupErr == nil && !ready {
		setup(nil)
	}
	switch {
	case err != nil:
		return nil, err
	case setupErr != nil:
		return nil, setupErr
	}
	if fr.sortCol >= 0 {
		fr.sortKept(p.desc)
		if p.limit > 0 && len(fr.kept) > p.limit {
			fr.kept = fr.kept[:p.limit]
		}
		fr.matched = len(fr.kept)
		for i := a.Offset; i < len(fr.kept); i++ {
			if len(pg.rows) >= window {
				more = true
				break
			}
			if !addRow(pg, fr.kept[i].row, fr.kept[i].vals) {
				break
			}
		}
	}
	return pg.fit(pg.candidates(), more || pg.over, build)
}

// addRow encodes a projected row into the page; false once the page is full.
func addRow(pg *pageRows, row int, vals []any) bool {
	enc, err := json.Marshal(vals)
	if err != nil { // boxed cell values always encode
		enc = []byte("[]")
	}
	return pg.add(row, enc[1:len(enc)-1], len(vals))
}

// setup reads the header row, compiles the conditions and the projection.
func (fr *filterRun) setup(header []any, a filterDataArgs, p filterPlan) error {
	fr.header = headerNames(header)
	fr.cols = make(map[string]int, len(fr.header))
	for i, n := range fr.header {
		fr.cols[n] = i
	}
	if len(fr.header) == 0 {
		return failure.Invalid("header row %d (sheet row %d) holds no column names; set header_row to the row holding them", p.headerRow-1, p.headerRow)
	}
	fr.query.any = p.any
	for _, c := range p.conds {
		cond, err := compileCond(c, fr.cols)
		if err != nil {
			return err
		}
		fr.query.conds = append(fr.query.conds, cond)
	}
	if len(a.Columns) == 0 {
		for i := range fr.header {
			fr.proj = append(fr.proj, i)
		}
	}
	for _, name := range a.Columns {
		i, ok := fr.cols[name]
		if !ok {
			return unknownColumn(name, fr.cols)
		}
		fr.proj = append(fr.proj, i)
	}
	if a.SortBy != "" {
		i, ok := fr.cols[a.SortBy]
		if !ok {
			return unknownColumn(a.SortBy, fr.cols)
		}
		fr.sortCol = i
	}
	return nil
}

// projNames are the names of the columns returned.
func (fr *filterRun) projNames() []string {
	out := make([]string, len(fr.proj))
	for i, c := range fr.proj {
		out[i] = fr.header[c]
	}
	return out
}

// project returns the returned columns of a row.
func (fr *filterRun) project(vals []any) []any {
	out := make([]any, len(fr.proj))
	for i, c := range fr.proj {
		if c < len(vals) {
			out[i] = vals[c]
		}
	}
	return out
}

// keep stores a matching row for sorting, within maxSortCells.
func (fr *filterRun) keep(row int, vals []any) error {
	fr.cells += max(len(fr.proj), 1)
	if fr.cells > maxSortCells {
		return budget.TooLarge(fmt.Sprintf("too many matching rows to sort: more than %d cells; narrow the conditions, return fewer columns, or drop sort_by", maxSortCells))
	}
	var key any
	if fr.sortCol < len(vals) {
		key = vals[fr.sortCol]
	}
	fr.kept = append(fr.kept, keptRow{row: row, key: cellScalar(key), vals: fr.project(vals)})
	if fr.top > 0 && len(fr.kept) >= 2*fr.top+topSlack {
		// Top-N: only the best top rows so far can be in the result. The
		// sort is stable and every later row comes after them in sheet
		// order, so ties stay in sheet order as one sort at the end keeps
		// them; memory follows the limit, not the sheet.
		fr.sortKept(fr.desc)
		fr.kept = slices.Clip(fr.kept[:fr.top])
		fr.cells = fr.top * max(len(fr.proj), 1)
	}
	return nil
}

// topSlack is how many rows past twice the limit a top-N sort collects
// before it cuts back to the limit.
const topSlack = 64

// headerNames names the columns of a header row as pandas does: text as it
// is, numbers and booleans as text, blanks "Unnamed: i" (0-based), and a
// repeated name gets ".1", ".2"... added.
func headerNames(row []any) []string {
	out := make([]string, len(row))
	seen := map[string]int{}
	for i, v := range row {
		var n string
		switch t := v.(type) {
		case nil:
			n = "Unnamed: " + strconv.Itoa(i)
		case string:
			n = t
		case int64:
			n = strconv.FormatInt(t, 10)
		case float64:
			n = strconv.FormatFloat(t, 'g', -1, 64)
		case bool:
			n = map[bool]string{true: "True", false: "False"}[t]
		default:
			n = fmt.Sprint(t)
		}
		if k, dup := seen[n]; dup {
			seen[n] = k + 1
			for {
				alt := n + "." + strconv.Itoa(seen[n])
				if _, taken := seen[alt]; !taken {
					n = alt
					break
				}
				seen[n]++
			}
		}
		seen[n] = 0
		out[i] = n
	}
	return out
}

// stringsAny converts names to JSON values.
func stringsAny(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}
