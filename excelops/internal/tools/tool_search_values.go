package tools

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/access"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// search_excel_values: every cell of one or more workbooks whose text
// matches a query (search_match.go), sheet after sheet, row 1 included,
// each hit with its row's other values as context. The sheets are streamed;
// only the page of hits and the counts are kept.

// Bounds of a search hit, as excelmanus cuts them.
const (
	searchValueRunes   = 200 // a hit's value
	searchContextRunes = 100 // each context value
	searchContextCells = 5   // context values per hit
	defaultMaxResults  = 50
	maxSearchFiles     = 100
)

// searchValuesTool declares search_excel_values.
var searchValuesTool = typedTool(toolSpec{
	name: "search_excel_values", title: "Search cell values",
	desc: "Search the cell values of every sheet of a workbook (and more workbooks with file_paths), like ripgrep: contains, exact, regex, startswith or fuzzy match, " +
		"optionally case-sensitive and limited to sheets and header columns; each hit gives sheet, row, column, value, cell and its row's other values; paged with offset/max_results.",
	timeout: limits.ReadTimeout,
	access:  searchAccess(),
}, (*Service).searchValues)

// searchAccess is search_excel_values' declaration: file_path streamed,
// every sheet; each of file_paths is read the same way after it.
func searchAccess() access.Access {
	return access.Access{Files: []access.FileUse{{Arg: "file_path", Touch: access.TouchStream}}}
}

// searchValuesArgs are search_excel_values' arguments (excelmanus's names,
// plus file_paths and offset).
type searchValuesArgs struct {
	fileArg
	FilePaths     []string `json:"file_paths,omitempty" jsonschema:"More workbooks to search after file_path, in this order (at most ${maxSearchFiles} in all)"`
	Query         string   `json:"query" minLength:"1" jsonschema:"Text to find, or a regular expression with match_mode regex (RE2 syntax)"`
	MatchMode     string   `json:"match_mode,omitempty" enum:"${matchModes}" default:"contains" jsonschema:"contains (default): the query anywhere in the cell; exact: the whole cell; regex: the expression matches somewhere; startswith: the cell starts with it; fuzzy: every word, number or run of Chinese characters of the query occurs in the cell (Chinese numerals also as digits)"`
	Sheets        []string `json:"sheets,omitempty" jsonschema:"Only these sheets (names ignoring case; default every sheet)"`
	Columns       []string `json:"columns,omitempty" jsonschema:"Only the columns whose row-1 header is one of these names (ignoring case); a sheet with none of them is skipped"`
	MaxResults    *int     `json:"max_results,omitempty" minimum:"1" default:"50" jsonschema:"Most hits per page (default 50); a page holds fewer when more would not fit the result size limit, and has_more/next_offset then say where to go on"`
	CaseSensitive bool     `json:"case_sensitive,omitempty" jsonschema:"Match upper and lower case exactly (default false)"`
	Offset        int      `json:"offset,omitempty" minimum:"0" jsonschema:"Hits to skip: pass the previous page's next_offset"`
}

// searchState is one search_excel_values call's settings; each workbook
// is scanned into its own bookHits, and the page is cut from them in
// file order (mergeHits).
type searchState struct {
	a     searchValuesArgs
	match textMatcher
	want  int
	multi bool
}

// keep is how many of one workbook's first hits can reach the page: the
// hits of the workbooks before it only move the page's window earlier.
func (st *searchState) keep() int { return st.a.Offset + st.want + 1 }

// bookHits is what one workbook's scan found: its number of hits, the
// first keep() of them, each sheet's count and the sheets searched.
type bookHits struct {
	total    int
	searched int
	hits     []pyjson.Object
	counts   []sheetCount
}

// sheetCount is the hits of one sheet.
type sheetCount struct {
	file, sheet string
	n           int
}

// searchValues implements search_excel_values.
func (s *Service) searchValues(ctx context.Context, a searchValuesArgs) (*engine.Call, error) {
	switch {
	case a.Query == "":
		return nil, failure.Invalid("query is empty: give the text to look for")
	case a.Offset < 0:
		return nil, failure.Invalid("offset must be >= 0")
	case a.MaxResults != nil && *a.MaxResults < 1:
		return nil, failure.Invalid("max_results must be >= 1")
	case 1+len(a.FilePaths) > maxSearchFiles:
		return nil, failure.Invalid("at most %d workbooks per search", maxSearchFiles)
	}
	m, err := newTextMatcher(a.Query, a.MatchMode, a.CaseSensitive)
	if err != nil {
		return nil, err
	}
	st := &searchState{a: a, match: m, want: defaultMaxResults, multi: len(a.FilePaths) > 0}
	if a.MaxResults != nil {
		st.want = *a.MaxResults
	}
	found := make([]bookHits, 1+len(a.FilePaths))
	c := engine.OnBook(a.FilePath, "", func(b *engine.Book, _ engine.SheetRef) (any, error) {
		return nil, st.searchBook(ctx, b, a.FilePath, &found[0])
	})
	c.After = func(any) (any, error) {
		// The further workbooks, each through the entry point under its
		// own lock, side by side (searchMany); the page is then cut from
		// them in file order, so it does not depend on which ended first.
		if err := s.searchMany(ctx, st, found[1:]); err != nil {
			return nil, err
		}
		return s.searchResult(ctx, st, found)
	}
	return c, nil
}

// searchBook searches the sheets of one workbook into out.
func (st *searchState) searchBook(ctx context.Context, b *engine.Book, path string, out *bookHits) error {
	names, _ := b.SheetList()
	var only map[string]bool
	if len(st.a.Sheets) > 0 {
		only = map[string]bool{}
		for _, n := range st.a.Sheets {
			only[strings.ToLower(n)] = true
		}
	}
	for _, sheet := range names {
		if only != nil && !only[strings.ToLower(sheet)] {
			continue
		}
		out.searched++
		if err := st.searchSheet(ctx, b, path, sheet, out); err != nil {
			return err
		}
	}
	return nil
}

// searchSheet streams one sheet and records its hits.
func (st *searchState) searchSheet(ctx context.Context, b *engine.Book, path, sheet string, out *bookHits) error {
	var header []string
	var cols map[int]bool // nil: every column
	count := sheetCount{file: filepath.ToSlash(path), sheet: sheet}
	skip := false
	keep := st.keep()
	err := b.Rows(ctx, sheet, 1, grid.LastRow, 1, 0, func(row int, vals []any) bool {
		if header == nil {
			if row == 1 {
				header = searchHeader(vals)
			} else {
				header = []string{}
			}
			if cols = st.columnSet(header); cols != nil && len(cols) == 0 {
				skip = true
				return false
			}
		}
		for i, v := range vals {
			if v == nil || cols != nil && !cols[i] {
				continue
			}
			text := cellText(v)
			if !st.match(text) {
				continue
			}
			out.total++
			count.n++
			if len(out.hits) < keep {
				out.hits = append(out.hits, st.hit(path, sheet, row, i, text, vals, header))
			}
		}
		return true
	})
	if err != nil || skip {
		return err
	}
	if count.n > 0 {
		out.counts = append(out.counts, count)
	}
	return nil
}

// columnSet is the columns a columns restriction keeps (nil: every one).
func (st *searchState) columnSet(header []string) map[int]bool {
	if len(st.a.Columns) == 0 {
		return nil
	}
	want := map[string]bool{}
	for _, c := range st.a.Columns {
		want[strings.ToLower(c)] = true
	}
	out := map[int]bool{}
	for i, h := range header {
		if want[strings.ToLower(h)] {
			out[i] = true
		}
	}
	return out
}

// searchHeader names the columns by row 1: a cell's text, "Col_i"
// (0-based) for a blank.
func searchHeader(vals []any) []string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = headerCellName(i, v)
	}
	return out
}

// headerCellName is the name row 1 gives column i (0-based).
func headerCellName(i int, v any) string {
	if v == nil {
		return fmt.Sprintf("Col_%d", i)
	}
	return cellText(v)
}

// hit is the result entry of one matching cell.
func (st *searchState) hit(path, sheet string, row, col int, text string, vals []any, header []string) pyjson.Object {
	name := func(i int) string {
		if i < len(header) {
			return header[i]
		}
		return headerCellName(i, nil)
	}
	ctxVals := pyjson.Object{}
	for i, v := range vals {
		if i == col || v == nil {
			continue
		}
		ctxVals = append(ctxVals, field(name(i), cutRunes(cellText(v), searchContextRunes)))
		if len(ctxVals) == searchContextCells {
			break
		}
	}
	o := pyjson.Object{}
	if st.multi {
		o = append(o, field("file", filepath.ToSlash(path)))
	}
	return append(o,
		field("sheet", sheet),
		field("row", row),
		field("column", name(col)),
		field("value", cutRunes(text, searchValueRunes)),
		field("cell_ref", grid.CellName(col+1, row)),
		field("context", ctxVals))
}

// cutRunes keeps the first n code points of s.
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// searchResult builds the page from every workbook's hits, in file
// order: as many hits as fit the result cap.
func (s *Service) searchResult(ctx context.Context, st *searchState, found []bookHits) (any, error) {
	total, searched, hits, counts := mergeHits(found, st.a.Offset, st.want)
	sort.SliceStable(counts, func(i, j int) bool { return counts[i].n > counts[j].n })
	summary := make([]any, len(counts))
	for i, c := range counts {
		o := pyjson.Object{}
		if st.multi {
			o = append(o, field("file", c.file))
		}
		summary[i] = append(o, field("sheet", c.sheet), field("matches", c.n))
	}
	n := min(len(hits), st.want)
	build := func(k int, more bool) pyjson.Object {
		list := make([]any, k)
		for i := range list {
			list[i] = hits[i]
		}
		res := success(filepath.ToSlash(st.a.FilePath), "",
			field("query", st.a.Query),
			field("match_mode", defaultString(st.a.MatchMode, "contains")),
			field("total_matches", total),
			field("offset", st.a.Offset),
			field("returned", k),
			field("has_more", more),
			field("truncated", more))
		if more {
			res = append(res, field("next_offset", st.a.Offset+k))
		}
		return append(res, field("sheets_searched", searched), field("matches", list), field("summary_by_sheet", summary))
	}
	pg, err := s.newPageRows(ctx, build(0, true))
	if err != nil {
		return nil, err
	}
	return pg.fit(n, len(hits) > st.want, build)
}

// mergeHits joins the workbooks' hits in file order: the total, the sheets
// searched, the hits after offset (want of them and one more, which proves
// there is more) and the per-sheet counts.
func mergeHits(found []bookHits, offset, want int) (total, searched int, hits []pyjson.Object, counts []sheetCount) {
	for _, f := range found {
		for i, h := range f.hits {
			if at := total + i; at >= offset && len(hits) <= want {
				hits = append(hits, h)
			}
		}
		total += f.total
		searched += f.searched
		counts = append(counts, f.counts...)
	}
	return total, searched, hits, counts
}

// defaultString is s, or def when s is empty.
func defaultString(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
