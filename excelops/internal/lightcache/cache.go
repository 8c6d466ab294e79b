// Package lightcache remembers, per unchanged workbook file, what reading it
// costs to learn before any sheet is streamed: the sheet index, the date
// styles and the shared strings, and which worksheets read whole without
// damage. Keys are workspace.FileIDs, so any change to the file misses.
//
//	c := lightcache.New(256 << 20)
//	c.PutIndex(path, id, idx)
//	if e := c.Get(id); e != nil { idx, ds, sst := e.Index, e.Dates, e.Strings }
//
// ARCHITECTURE.md at the repository root places it in the package map.
package lightcache

import (
	"slices"
	"sync"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// MaxEntries bounds the workbooks a Cache remembers.
const MaxEntries = 256

// Cache remembers, per unchanged workbook file, what reading it costs
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
type Cache struct {
	mu      sync.Mutex
	budget  int64 // bytes of shared strings the cache may hold
	held    int64 // bytes of shared strings it holds
	entries map[fileID]*Entry
	order   []fileID          // insertion order, oldest first, for eviction
	latest  map[string]fileID // the newest version remembered per path
}

// fileID identifies one version of a file.
type fileID = workspace.FileID

// New returns an empty cache that keeps at most budget bytes of shared
// strings (0: none).
func New(budget int64) *Cache { return &Cache{budget: budget} }

// Entry is what one file's light open learned. Get hands out copies; what
// they point to is never modified.
type Entry struct {
	path string // the path it was read under
	// Index is the sheet index.
	Index *opc.Index
	// Dates are the date styles, nil until a read needed them.
	Dates *dates.Styles
	// Strings is the shared string table, nil until a read needed it
	// (and the budget allowed it).
	Strings     []string
	stringBytes int64
	// Sound names the worksheets read whole without damage.
	Sound map[string]bool
}

// Get returns a copy of the entry of the file id, or nil.
func (c *Cache) Get(id fileID) *Entry {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[id]
	if e == nil {
		return nil
	}
	cp := *e
	return &cp
}

// PutIndex remembers the sheet index of the file id, read under path; an
// older version remembered under path is forgotten.
func (c *Cache) PutIndex(path string, id fileID, idx *opc.Index) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		e.Index = idx
		return
	}
	if c.entries == nil {
		c.entries, c.latest = map[fileID]*Entry{}, map[string]fileID{}
	}
	if old, ok := c.latest[path]; ok {
		c.dropLocked(old)
	}
	if len(c.order) >= MaxEntries {
		c.dropLocked(c.order[0])
	}
	c.entries[id] = &Entry{path: path, Index: idx}
	c.order = append(c.order, id)
	c.latest[path] = id
}

// PutDates remembers the date styles of the file id, once its index is
// remembered.
func (c *Cache) PutDates(id fileID, ds *dates.Styles) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		e.Dates = ds
	}
}

// PutStrings remembers the shared strings of the file id, which take
// bytes, once its index is remembered and if the budget allows.
func (c *Cache) PutStrings(id fileID, sst []string, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[id]
	if e == nil || e.Strings != nil || bytes > c.budget/4 {
		return
	}
	for c.held+bytes > c.budget && len(c.order) > 0 && c.order[0] != id {
		c.dropLocked(c.order[0])
	}
	if c.held+bytes > c.budget {
		return
	}
	e.Strings, e.stringBytes = sst, bytes
	c.held += bytes
}

// PutSound remembers that the worksheet sheet of the file id reads without
// damage, once its index is remembered. The map is replaced, never
// changed, as entries are shared by copy.
func (c *Cache) PutSound(id fileID, sheet string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.entries[id]
	if e == nil {
		return
	}
	next := make(map[string]bool, len(e.Sound)+1)
	for k := range e.Sound {
		next[k] = true
	}
	next[sheet] = true
	e.Sound = next
}

// dropLocked forgets the entry of the file id, if any.
func (c *Cache) dropLocked(id fileID) {
	e := c.entries[id]
	if e == nil {
		return
	}
	c.held -= e.stringBytes
	delete(c.entries, id)
	if c.latest[e.path] == id {
		delete(c.latest, e.path)
	}
	if i := slices.Index(c.order, id); i >= 0 {
		c.order = slices.Delete(c.order, i, i+1)
	}
}

// Stats reports how many files the cache remembers and the bytes of shared
// strings it holds.
func (c *Cache) Stats() (files int, bytes int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries), c.held
}
