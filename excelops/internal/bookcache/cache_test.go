package bookcache

import (
	"errors"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/workspace"
)

// book is a stand-in parsed workbook that records being discarded.
type book struct {
	name      string
	discarded bool
}

func newCache(budget int64) *Cache[*book] {
	return New(budget, func(b *book) error {
		if b.discarded {
			return errors.New(b.name + " discarded twice")
		}
		b.discarded = true
		return nil
	})
}

func id(n uint64) workspace.FileID { return workspace.FileID{Ino: n, Size: 1} }

// TestTakeChecksTheVersion: a book comes back only for the version it was
// parsed from, once; a stale one is discarded.
func TestTakeChecksTheVersion(t *testing.T) {
	c := newCache(100)
	a := &book{name: "a"}
	c.Put("a.xlsx", id(1), a, 10)
	got, ok := c.Take("a.xlsx", id(1), true)
	assert.True(t, ok)
	assert.Same(t, a, got)
	_, ok = c.Take("a.xlsx", id(1), true)
	assert.False(t, ok, "checked out: not there twice")

	c.Put("a.xlsx", id(1), a, 10)
	_, ok = c.Take("a.xlsx", id(2), true)
	assert.False(t, ok, "the file changed on disk")
	assert.True(t, a.discarded)

	b := &book{name: "b"}
	c.Put("b.xlsx", id(3), b, 10)
	_, ok = c.Take("b.xlsx", id(3), false)
	assert.False(t, ok, "an identity that could not be read never matches")
	assert.True(t, b.discarded)
}

// TestBudgetEvictsLeastRecentlyUsed: past the budget the least recently
// checked-in books go first; one larger than the budget is not kept.
func TestBudgetEvictsLeastRecentlyUsed(t *testing.T) {
	c := newCache(30)
	books := map[string]*book{}
	for _, n := range []string{"a", "b", "c"} {
		books[n] = &book{name: n}
		c.Put(n, id(1), books[n], 10)
	}
	b, _ := c.Take("a", id(1), true) // a becomes the most recent
	c.Put("a", id(1), b, 10)
	books["d"] = &book{name: "d"}
	c.Put("d", id(1), books["d"], 15)
	assert.True(t, books["b"].discarded, "b was the least recently used")
	assert.True(t, books["c"].discarded, "c next, to make room for 15")
	assert.False(t, books["a"].discarded)
	held := c.Held()
	assert.Equal(t, []*book{books["d"], books["a"]}, held, "most recent first")
	peeked, ok := c.Peek("a")
	assert.True(t, ok)
	assert.Same(t, books["a"], peeked)
	_, ok = c.Peek("b")
	assert.False(t, ok)
	n, used := c.Stats()
	assert.Equal(t, 2, n)
	assert.Equal(t, int64(25), used)

	huge := &book{name: "huge"}
	c.Put("huge", id(1), huge, 31)
	assert.True(t, huge.discarded)
	_, ok = c.Take("huge", id(1), true)
	assert.False(t, ok)
}

// TestCloseAndDisabled: Close discards what is held and every later Put; a
// cache without a budget keeps nothing.
func TestCloseAndDisabled(t *testing.T) {
	c := newCache(100)
	a := &book{name: "a"}
	c.Put("a", id(1), a, 10)
	assert.NoError(t, c.Close())
	assert.True(t, a.discarded)
	late := &book{name: "late"}
	c.Put("late", id(1), late, 1)
	assert.True(t, late.discarded)

	off := newCache(0)
	assert.False(t, off.Enabled())
	b := &book{name: "b"}
	off.Put("b", id(1), b, 1)
	assert.True(t, b.discarded)
	_, ok := off.Take("b", id(1), true)
	assert.False(t, ok)
}

// TestConcurrentUse: many goroutines taking and putting distinct paths keep
// the accounting right (run under -race).
func TestConcurrentUse(t *testing.T) {
	c := newCache(1 << 20)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			path := string(rune('a' + g))
			for i := range 200 {
				if b, ok := c.Take(path, id(uint64(i)), true); ok {
					c.Put(path, id(uint64(i)), b, 10)
					continue
				}
				c.Put(path, id(uint64(i+1)), &book{name: path}, 10)
			}
		}()
	}
	wg.Wait()
	n, used := c.Stats()
	assert.Equal(t, int64(n*10), used)
}
