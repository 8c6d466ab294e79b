package tools

import (
	"context"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/registry"
)

// Paging of the reference tools: offset and max_items window the listed
// entries, and a page holds only as many as fit the registry's result cap
// (a bigger result would be cut by truncation, silently skipping entries),
// so next_offset never skips one.

const (
	// defaultRefItems is how many entries a page lists by default.
	defaultRefItems = 200
	// maxRefItems is the most entries one page lists.
	maxRefItems = 1000
)

// refPageArgs are the paging arguments of the reference tools.
type refPageArgs struct {
	Offset   int `json:"offset,omitempty" minimum:"0" jsonschema:"Entries to skip: pass the previous page's next_offset"`
	MaxItems int `json:"max_items,omitempty" minimum:"1" maximum:"1000" jsonschema:"Most entries listed in one page (default 200; fewer when the result would pass the size cap)"`
}

// fit builds the page of total entries starting at offset: build(lo, hi)
// renders entries [lo, hi); the page takes the most entries, up to
// max_items, whose result fits the result cap (at least one, so paging
// always moves on), then the paging fields.
func (p refPageArgs) fit(ctx context.Context, total int, build func(lo, hi int) pyjson.Object) (pyjson.Object, error) {
	n := p.MaxItems
	if n <= 0 {
		n = defaultRefItems
	}
	lo := min(max(p.Offset, 0), total)
	hi := min(lo+min(n, maxRefItems), total)
	page := func(h int) pyjson.Object {
		more := h < total
		o := append(build(lo, h), field("offset", lo), field("returned", h-lo), field("has_more", more), field("truncated", more))
		if more {
			o = append(o, field("next_offset", h))
		}
		return o
	}
	limit, capped := registry.ResultLimit(ctx)
	fits := func(h int) (bool, error) {
		text, err := pyjson.MarshalString(page(h))
		return !capped || utf8.RuneCountInString(text) <= limit, err
	}
	if ok, err := fits(hi); err != nil || ok {
		return page(hi), err
	}
	// The largest h in (lo, hi) that fits, at least lo+1.
	good, bad := min(lo+1, hi), hi
	for good+1 < bad {
		mid := (good + bad) / 2
		ok, err := fits(mid)
		if err != nil {
			return nil, err
		}
		if ok {
			good = mid
		} else {
			bad = mid
		}
	}
	return page(good), nil
}
