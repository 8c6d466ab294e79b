package tools

import (
	"context"
	"fmt"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/limits"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// A read page is sized to fit what it may return: the registry's result cap
// in code points (registry.ResultLimit; a bigger result would be cut by
// truncation, silently skipping rows), the cells one page may hold
// (Limits.MaxReadCells) and a share of the per-call memory budget. Rows are
// collected until a bound is passed, then the exact page is the largest
// prefix whose encoded result fits; rows_returned, next_offset and has_more
// describe exactly the rows in the payload.

// pageRow is one row of a page, its cells already JSON-encoded.
type pageRow struct {
	row        int // sheet row number
	start, end int // the row's array items in pageRows.buf (no brackets)
	items      int // cells encoded (the row is padded with nulls to the page width)
	runes      int // code points of the items
}

// pageRows collects the rows of one page.
type pageRows struct {
	limit    int   // result cap in code points; 0: none
	maxCells int64 // cells the page may hold
	maxBytes int64 // encoded bytes the page may hold
	base     int   // code points of the result without rows (a lower bound)
	padTo    int   // rows are padded with nulls to at least this many cells

	buf   []byte
	rows  []pageRow
	cells int64
	bytes int64 // encoded size of the rows once padded
	runes int
	// over is set once the last row collected passed a bound: that row is
	// not part of the page, it only proves there is more.
	over bool
}

// newPageRows sizes a page for the call running under ctx; base is the
// encoded result with no rows (its code points are the fixed cost).
func (s *Service) newPageRows(ctx context.Context, base pyjson.Object) (*pageRows, error) {
	p := &pageRows{maxCells: int64(s.engine.Limits.MaxReadCells), maxBytes: s.engine.Limits.CallMemoryBudget / pageBudgetShare}
	if n, ok := registry.ResultLimit(ctx); ok {
		text, err := pyjson.MarshalString(base)
		if err != nil {
			return nil, err
		}
		p.limit, p.base = n, utf8.RuneCountInString(text)
	}
	return p, nil
}

// pageBudgetShare: a page holds at most this fraction of the call's memory
// budget in encoded rows (the result is encoded once more on the way out).
const pageBudgetShare = 4

// add appends a row (its encoded items and how many) and reports whether
// the page may take another row. A row that passes a bound is kept only as
// the proof that more rows exist (see over).
func (p *pageRows) add(row int, inner []byte, items int) bool {
	r := pageRow{row: row, start: len(p.buf), items: items}
	if p.limit > 0 {
		r.runes = utf8.RuneCount(inner)
	}
	p.buf = append(p.buf, inner...)
	r.end = len(p.buf)
	p.rows = append(p.rows, r)
	pad := max(p.padTo-items, 0) // nulls the row gets when encoded
	p.cells += int64(max(items+pad, 1))
	p.bytes += int64(len(inner) + 6*pad + 4)
	p.runes += r.runes + 4 // brackets and the separator
	switch {
	case p.cells > p.maxCells, p.bytes > p.maxBytes, p.limit > 0 && p.base+p.runes > p.limit:
		p.over = true
		return false
	}
	return true
}

// candidates is how many collected rows may be in the page.
func (p *pageRows) candidates() int {
	if p.over {
		return len(p.rows) - 1
	}
	return len(p.rows)
}

// encode returns the first k rows as JSON arrays padded to width.
func (p *pageRows) encode(k, width int) []any {
	var arena sheetread.RowArena
	out := make([]any, k)
	for i, r := range p.rows[:k] {
		out[i] = arena.Add(p.buf[r.start:r.end], r.items, width)
	}
	return out
}

// widest is the most items in the first k rows.
func (p *pageRows) widest(k int) int {
	w := 0
	for _, r := range p.rows[:k] {
		w = max(w, r.items)
	}
	return w
}

// fit returns the result of the largest page of at most n rows whose
// encoding fits the result cap; build makes the result of a k-row page.
// When not even one row fits although rows exist, the row is too large to
// page and fit says so instead of returning an empty page forever.
func (p *pageRows) fit(n int, more bool, build func(k int, more bool) pyjson.Object) (pyjson.Object, error) {
	fits := func(k int) (pyjson.Object, bool, error) {
		obj := build(k, more || k < n)
		if p.limit <= 0 {
			return obj, true, nil
		}
		text, err := pyjson.MarshalString(obj)
		if err != nil {
			return nil, false, err
		}
		return obj, utf8.RuneCountInString(text) <= p.limit, nil
	}
	tooLarge := func() error {
		cap := "no result cap"
		if p.limit > 0 {
			cap = fmt.Sprintf("the result cap of %d characters", p.limit)
		}
		row := "the header row"
		if len(p.rows) > 0 {
			row = fmt.Sprintf("row %d", p.rows[0].row)
		}
		return failure.New(failure.KindLimit, fmt.Sprintf("workbook too large to page: %s alone does not fit in one page (%s, at most %d cells, %s); read fewer columns with an exact range (e.g. \"A1:J1\")",
			row, cap, p.maxCells, limits.HumanBytes(p.maxBytes)), nil)
	}
	if n == 0 && more {
		return nil, tooLarge()
	}
	obj, ok, err := fits(n)
	if err != nil || ok {
		return obj, err
	}
	lo, hi := 0, n-1 // fits(lo) unknown yet, fits(n) is false
	best := pyjson.Object(nil)
	for lo <= hi {
		mid := (lo + hi) / 2
		o, ok, err := fits(mid)
		if err != nil {
			return nil, err
		}
		if ok {
			best, lo = o, mid+1
		} else {
			hi = mid - 1
		}
	}
	if best == nil || hi < 1 && (n > 0 || more) {
		return nil, tooLarge()
	}
	return best, nil
}
