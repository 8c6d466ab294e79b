// Package bookcache keeps parsed workbooks between calls: keyed by the
// workbook's resolved path, valid only while the file on disk is the version
// that was parsed (its workspace.FileID), bounded by an estimated memory
// budget with least-recently-used eviction.
//
// A book is checked out (removed from the cache) for the length of a call
// and checked back in only after the call succeeded, so a book in use is
// never evicted or discarded under its caller, and a book a failed call may
// have half-mutated is never seen again. Callers hold the path's exclusive
// lock between Take and Put.
//
//	c := bookcache.New(2<<30, func(b *book) error { return b.close() })
//	if b, ok := c.Take(path, id, known); ok { ... }
//	c.Put(path, id, b, cost)
//
// ARCHITECTURE.md at the repository root places it in the package map.
package bookcache

import (
	"container/list"
	"errors"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// entry is one parsed workbook kept between calls.
type entry[B any] struct {
	path string
	id   workspace.FileID
	b    B
	cost int64
	elem *list.Element
}

// Cache holds parsed workbooks of type B. The zero value is not usable: call
// New.
type Cache[B any] struct {
	discard func(B) error // frees a book the cache lets go of
	mu      sync.Mutex
	budget  int64
	used    int64
	lru     *list.List // front = most recently used; values are *entry[B]
	entries map[string]*entry[B]
	closed  bool
}

// New returns an empty cache of budget bytes that frees the books it lets go
// of with discard. A cache of budget <= 0 keeps nothing: Take always misses
// and Put discards at once.
func New[B any](budget int64, discard func(B) error) *Cache[B] {
	return &Cache[B]{discard: discard, budget: budget, lru: list.New(), entries: map[string]*entry[B]{}}
}

// Enabled reports whether the cache may keep books (its budget is positive).
func (c *Cache[B]) Enabled() bool { return c.budget > 0 }

// Take checks out the book cached for path if the file on disk still is the
// version it was parsed from (id; known false when the identity could not be
// read). A stale entry is discarded. ok is false on a miss.
func (c *Cache[B]) Take(path string, id workspace.FileID, known bool) (b B, ok bool) {
	c.mu.Lock()
	e := c.entries[path]
	if e != nil {
		c.unlink(e)
	}
	c.mu.Unlock()
	if e == nil {
		return b, false
	}
	if !known || e.id != id {
		_ = c.discard(e.b) // changed behind our back: parse again
		return b, false
	}
	return e.b, true
}

// Put checks b in under path, as the parse of the file version id, evicting
// (and discarding) least recently used books until the estimated total fits
// the budget. A book larger than the whole budget, or offered after Close,
// is discarded instead. Put takes ownership of b.
func (c *Cache[B]) Put(path string, id workspace.FileID, b B, cost int64) {
	var evicted []B
	c.mu.Lock()
	if c.closed || cost > c.budget {
		c.mu.Unlock()
		_ = c.discard(b)
		return
	}
	if old := c.entries[path]; old != nil { // cannot happen under the path lock
		c.unlink(old)
		evicted = append(evicted, old.b)
	}
	for c.used+cost > c.budget {
		last := c.lru.Back().Value.(*entry[B])
		c.unlink(last)
		evicted = append(evicted, last.b)
	}
	e := &entry[B]{path: path, id: id, b: b, cost: cost}
	e.elem = c.lru.PushFront(e)
	c.entries[path] = e
	c.used += cost
	c.mu.Unlock()
	for _, old := range evicted {
		_ = c.discard(old)
	}
}

// Drop discards the book cached for path, if any (the file was replaced:
// a parse of its old version is of no use any more).
func (c *Cache[B]) Drop(path string) {
	c.mu.Lock()
	e := c.entries[path]
	if e != nil {
		c.unlink(e)
	}
	c.mu.Unlock()
	if e != nil {
		_ = c.discard(e.b)
	}
}

// unlink removes e from the cache; c.mu is held.
func (c *Cache[B]) unlink(e *entry[B]) {
	c.lru.Remove(e.elem)
	delete(c.entries, e.path)
	c.used -= e.cost
}

// Close discards every cached book and makes later Puts discard theirs.
func (c *Cache[B]) Close() error {
	c.mu.Lock()
	c.closed = true
	books := make([]B, 0, len(c.entries))
	for _, e := range c.entries {
		books = append(books, e.b)
	}
	c.entries, c.used = map[string]*entry[B]{}, 0
	c.lru.Init()
	c.mu.Unlock()
	var errs []error
	for _, b := range books {
		errs = append(errs, c.discard(b))
	}
	return errors.Join(errs...)
}

// Peek returns the book held for path without checking it out (ok false
// when none is held): for inspection only, never to use the book.
func (c *Cache[B]) Peek(path string) (b B, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[path]; e != nil {
		return e.b, true
	}
	return b, false
}

// Held returns the books held, most recently used first.
func (c *Cache[B]) Held() []B {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]B, 0, len(c.entries))
	for el := c.lru.Front(); el != nil; el = el.Next() {
		out = append(out, el.Value.(*entry[B]).b)
	}
	return out
}

// Stats reports how many books the cache holds and their estimated bytes.
func (c *Cache[B]) Stats() (books int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.used
}
