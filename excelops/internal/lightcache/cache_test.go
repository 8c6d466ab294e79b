package lightcache

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/opc"
)

// TestLightCacheEvictsTheOldest fills the cache past its bound: the oldest
// entries go first, the newest stay, and the size never passes the bound.
func TestLightCacheEvictsTheOldest(t *testing.T) {
	c := New(0)
	idx := &opc.Index{}
	for i := range MaxEntries + 10 {
		c.PutIndex(fmt.Sprint(i), fileID{Ino: uint64(i)}, idx)
	}
	assert.Len(t, c.entries, MaxEntries)
	assert.Len(t, c.order, MaxEntries)
	for i := range 10 {
		assert.Nil(t, c.Get(fileID{Ino: uint64(i)}), "entry %d should be evicted", i)
	}
	assert.NotNil(t, c.Get(fileID{Ino: 10}))
	assert.NotNil(t, c.Get(fileID{Ino: MaxEntries + 9}))

	// Dates for a file without an entry are not kept; a second index for
	// one with an entry replaces it without a second slot.
	c.PutDates(fileID{Ino: 1}, &dates.Styles{})
	assert.Nil(t, c.Get(fileID{Ino: 1}))
	other := &opc.Index{ActiveTab: 1}
	c.PutIndex("10", fileID{Ino: 10}, other)
	assert.Same(t, other, c.Get(fileID{Ino: 10}).Index)
	assert.Len(t, c.order, MaxEntries)
}

// TestLightCacheKeepsStringsWithinItsBudget: shared strings are kept while
// they fit the budget, oldest entries are dropped to make room, a table
// over a quarter of the budget is never kept, and nothing is counted twice.
func TestLightCacheKeepsStringsWithinItsBudget(t *testing.T) {
	c := New(1000)
	id := func(i int) fileID { return fileID{Ino: uint64(i)} }
	for i := 1; i <= 5; i++ {
		c.PutIndex(fmt.Sprint(i), id(i), &opc.Index{})
	}
	sst := []string{"x"}
	c.PutStrings(id(9), sst, 10) // no entry: not kept
	assert.Zero(t, c.held)
	c.PutStrings(id(1), sst, 200)
	c.PutStrings(id(1), sst, 200) // already kept: not counted again
	c.PutStrings(id(2), sst, 250)
	c.PutStrings(id(3), sst, 251) // over a quarter of the budget
	assert.Equal(t, int64(450), c.held)
	assert.Nil(t, c.Get(id(3)).Strings)
	c.PutStrings(id(3), sst, 250)
	c.PutStrings(id(4), sst, 250)
	assert.Equal(t, int64(950), c.held)

	// 950 + 200 > 1000: the oldest entry (200 bytes) goes, whole.
	c.PutStrings(id(5), sst, 200)
	assert.Equal(t, int64(950), c.held)
	assert.Nil(t, c.Get(id(1)))
	assert.Equal(t, sst, c.Get(id(5)).Strings)

	// Dropping entries by count releases their bytes too.
	for i := 10; i < 10+MaxEntries; i++ {
		c.PutIndex(fmt.Sprint(i), id(i), &opc.Index{})
	}
	assert.Zero(t, c.held)
	assert.Len(t, c.order, MaxEntries)
}
