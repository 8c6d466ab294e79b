package excelops

import (
	"archive/zip"
	"container/list"
	"errors"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
	"sync"
)

// Cache sizing.
const (
	// DefaultCacheBudget is the memory the workbook cache may hold by
	// default (estimated, see parsedBytesPerXMLByte): 2 GiB, a twelfth of
	// a 24 GiB machine, enough for about eight 50,000 x 10 workbooks kept
	// parsed between calls.
	DefaultCacheBudget = 2 << 30
	// parsedBytesPerXMLByte estimates the heap a parsed workbook takes per
	// byte of its unzipped parts: excelize holds the XML bytes and the
	// parsed cells (measured: ~14.5 on a 50,000 x 10 sheet, rounded up).
	parsedBytesPerXMLByte = 16
	// newBookCost is the estimate for a workbook created by a call before
	// its first save is measured.
	newBookCost = 64 << 10
)

// fileID is the identity of a file version on disk (workspace.FileID).
type fileID = workspace.FileID

// unzippedSize sums the uncompressed sizes of the parts of the package at
// path; only the zip's central directory is read.
func (s *Service) unzippedSize(path string) (int64, error) {
	fh, st, err := s.box.OpenRegular(path) // never blocks on a FIFO swapped in
	if err != nil {
		return 0, err
	}
	defer fh.Close()
	zr, err := zip.NewReader(fh, st.Size())
	if err != nil {
		return 0, err
	}
	var total uint64
	for _, f := range zr.File {
		total += f.UncompressedSize64
	}
	return int64(total), nil
}

// cacheEntry is one parsed workbook kept between calls.
type cacheEntry struct {
	path string
	id   fileID
	b    *book
	cost int64
	elem *list.Element
}

// bookCache keeps parsed workbooks between calls, keyed by resolved path and
// checked against the file's identity, bounded by an estimated memory
// budget with least-recently-used eviction.
//
// A book is checked out (removed from the cache) for the length of a call
// and checked back in only after the call succeeded, so a book in use is
// never evicted or closed under its caller, and a book a failed call may
// have half-mutated is never seen again. Callers hold the path's exclusive
// lock between take and put.
type bookCache struct {
	mu      sync.Mutex
	budget  int64
	used    int64
	lru     *list.List // front = most recently used; values are *cacheEntry
	entries map[string]*cacheEntry
	closed  bool
}

// newBookCache returns an empty cache of budget bytes; nil when budget <= 0
// (every method is a no-op on a nil cache).
func newBookCache(budget int64) *bookCache {
	if budget <= 0 {
		return nil
	}
	return &bookCache{budget: budget, lru: list.New(), entries: map[string]*cacheEntry{}}
}

// take checks out the book cached for path if the file on disk still is
// the version it was parsed from (id); a stale entry is closed. It returns
// nil on a miss.
func (c *bookCache) take(path string, id fileID, ok bool) *book {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	e := c.entries[path]
	if e != nil {
		c.unlink(e)
	}
	c.mu.Unlock()
	if e == nil {
		return nil
	}
	if !ok || e.id != id {
		_ = e.b.close() // changed behind our back: parse again
		return nil
	}
	return e.b
}

// put checks b in under path, as the parse of the file version id,
// evicting (and closing) least recently used books until the estimated
// total fits the budget. A book larger than the whole budget, or offered
// after Close, is closed instead. put takes ownership of b.
func (c *bookCache) put(path string, id fileID, b *book, cost int64) {
	if c == nil {
		_ = b.close()
		return
	}
	var evicted []*book
	c.mu.Lock()
	if c.closed || cost > c.budget {
		c.mu.Unlock()
		_ = b.close()
		return
	}
	if old := c.entries[path]; old != nil { // cannot happen under the path lock
		c.unlink(old)
		evicted = append(evicted, old.b)
	}
	for c.used+cost > c.budget {
		last := c.lru.Back().Value.(*cacheEntry)
		c.unlink(last)
		evicted = append(evicted, last.b)
	}
	e := &cacheEntry{path: path, id: id, b: b, cost: cost}
	e.elem = c.lru.PushFront(e)
	c.entries[path] = e
	c.used += cost
	c.mu.Unlock()
	for _, old := range evicted {
		_ = old.close()
	}
}

// unlink removes e from the cache; c.mu is held.
func (c *bookCache) unlink(e *cacheEntry) {
	c.lru.Remove(e.elem)
	delete(c.entries, e.path)
	c.used -= e.cost
}

// close closes every cached book and makes later puts close theirs.
func (c *bookCache) close() error {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	c.closed = true
	books := make([]*book, 0, len(c.entries))
	for _, e := range c.entries {
		books = append(books, e.b)
	}
	c.entries, c.used = map[string]*cacheEntry{}, 0
	c.lru.Init()
	c.mu.Unlock()
	var errs []error
	for _, b := range books {
		errs = append(errs, b.close())
	}
	return errors.Join(errs...)
}

// stats reports how many books the cache holds and their estimated bytes
// (0, 0 for a nil cache).
func (c *bookCache) stats() (int, int64) {
	if c == nil {
		return 0, 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.used
}
