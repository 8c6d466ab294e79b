package excelops

import "sync"

// lightCacheEntries bounds the workbooks a lightCache remembers.
const lightCacheEntries = 256

// lightCache remembers, per unchanged workbook file, what reading it costs
// to learn from its small parts before any sheet is streamed: the sheet
// index (workbook.xml and its relationships) and the date styles
// (styles.xml). An agent reads the same workbook again and again (pages,
// ranges, a look after each edit), and for a small sheet those parts are
// most of a read's work.
//
// Entries are keyed by fileID (device, inode, size, mtime and ctime), as the
// workbook cache is, so any change to the file, or a file renamed over it,
// misses. What is stored is never modified afterwards, so books share it.
type lightCache struct {
	mu      sync.Mutex
	entries map[fileID]*lightEntry
	order   []fileID // insertion order, oldest first, for eviction
}

// lightEntry is what one file's light open learned.
type lightEntry struct {
	index *pkgIndex
	dates *dateStyles // nil until a read needed them
}

// get returns the entry of the file id, or nil.
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

// putIndex remembers the sheet index of the file id.
func (c *lightCache) putIndex(id fileID, idx *pkgIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		e.index = idx
		return
	}
	if c.entries == nil {
		c.entries = map[fileID]*lightEntry{}
	}
	if len(c.order) >= lightCacheEntries {
		delete(c.entries, c.order[0])
		c.order = c.order[1:]
	}
	c.entries[id] = &lightEntry{index: idx}
	c.order = append(c.order, id)
}

// putDates remembers the date styles of the file id, once its index is
// remembered.
func (c *lightCache) putDates(id fileID, ds *dateStyles) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e := c.entries[id]; e != nil {
		e.dates = ds
	}
}
