package excelops

import (
	"slices"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// Light cache sizing.
const (
	// lightCacheEntries bounds the workbooks a lightCache remembers.
	lightCacheEntries = 256
	// lightBudgetShare sets the shared strings' budget: the workbook
	// cache's budget divided by it (256 MiB by default; none when the
	// workbook cache is off).
	lightBudgetShare = 8
)

// lightCache remembers, per unchanged workbook file, what reading it costs
// to learn before any sheet is streamed: the sheet index (workbook.xml and
// its relationships), the date styles (styles.xml) and the shared strings.
// An agent reads the same workbook again and again (pages, ranges, a look
// after each edit); for a small sheet the index and styles are most of a
// read's work, and for a workbook Excel saved, its shared string table is
// (a 5-row read of a 20,000-row book parses every string of the book).
//
// Entries are keyed by fileID (device, inode, size, mtime and ctime), as the
// workbook cache is, so any change to the file, or a file renamed over it,
// misses. A new version of a path replaces the entry of the one before, so
// a workbook edited and read again and again holds one entry, not one per
// version. What is stored is never modified afterwards, so books share it.
// Shared strings are kept within a byte budget (their strings plus a string
// header each), oldest entries dropped first; a table bigger than a quarter
// of the budget is not kept.
type lightCache struct {
	mu      sync.Mutex
	budget  int64 // bytes of shared strings the cache may hold
	held    int64 // bytes of shared strings it holds
	entries map[fileID]*lightEntry
	order   []fileID          // insertion order, oldest first, for eviction
	latest  map[string]fileID // the newest version remembered per path
}

// lightEntry is what one file's light open learned.
type lightEntry struct {
	path     string // the path it was read under
	index    *opc.Index
	dates    *dates.Styles // nil until a read needed them
	sst      []string      // nil until a read needed them
	sstBytes int64
	sound    map[string]bool // worksheets read whole without damage (checkUntouchedSheets)
}

// get returns a copy of the entry of the file id, or nil.
func (c *lightCache) get(id fileID) *lightEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[id]
	if e == nil {
		return nil
	}
	cp := *e
	return &cp
}

// putIndex remembers the sheet index of the file id, read under path; an
// older version remembered under path is forgotten.
func (c *lightCache) putIndex(path string, id fileID, idx *opc.Index) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		e.index = idx
		return
	}
	if c.entries == nil {
		c.entries, c.latest = map[fileID]*lightEntry{}, map[string]fileID{}
	}
	if old, ok := c.latest[path]; ok {
		c.dropLocked(old)
	}
	if len(c.order) >= lightCacheEntries {
		c.dropLocked(c.order[0])
	}
	c.entries[id] = &lightEntry{path: path, index: idx}
	c.order = append(c.order, id)
	c.latest[path] = id
}

// putDates remembers the date styles of the file id, once its index is
// remembered.
func (c *lightCache) putDates(id fileID, ds *dates.Styles) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		e.dates = ds
	}
}

// putStrings remembers the shared strings of the file id, which take
// bytes, once its index is remembered and if the budget allows.
func (c *lightCache) putStrings(id fileID, sst []string, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[id]
	if e == nil || e.sst != nil || bytes > c.budget/4 {
		return
	}
	for c.held+bytes > c.budget && len(c.order) > 0 && c.order[0] != id {
		c.dropLocked(c.order[0])
	}
	if c.held+bytes > c.budget {
		return
	}
	e.sst, e.sstBytes = sst, bytes
	c.held += bytes
}

// putSound remembers that the worksheet sheet of the file id reads without
// damage, once its index is remembered. The map is replaced, never
// changed, as entries are shared by copy.
func (c *lightCache) putSound(id fileID, sheet string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[id]
	if e == nil {
		return
	}
	next := make(map[string]bool, len(e.sound)+1)
	for k := range e.sound {
		next[k] = true
	}
	next[sheet] = true
	e.sound = next
}

// dropLocked forgets the entry of the file id, if any.
func (c *lightCache) dropLocked(id fileID) {
	e := c.entries[id]
	if e == nil {
		return
	}
	c.held -= e.sstBytes
	delete(c.entries, id)
	if c.latest[e.path] == id {
		delete(c.latest, e.path)
	}
	if i := slices.Index(c.order, id); i >= 0 {
		c.order = slices.Delete(c.order, i, i+1)
	}
}

// lightKey returns the light cache's key for b: its file identity, when b
// is a book read on the light path (it holds the open file) whose identity
// is known.
func (b *book) lightKey() (fileID, bool) {
	return b.id, b.file != nil && b.id != fileID{}
}

// stats reports how many files the cache remembers and the bytes of shared
// strings it holds.
func (c *lightCache) stats() (files int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.held
}
