package cellarea

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestRangeString(t *testing.T) {
	for _, c := range []struct {
		r    Range
		want string
	}{
		{Range{1, 1, 1, 1}, "A1"},
		{Range{1, 1, 3, 3}, "A1:C3"},
		{Range{2, 7, 2, 9}, "B7:B9"},
		{Range{26, 1, 28, 1}, "Z1:AB1"},
		{Range{16384, 1048576, 16384, 1048576}, "XFD1048576"},
	} {
		assert.Equal(t, c.want, c.r.String())
	}
}

func TestRangeCells(t *testing.T) {
	for _, c := range []struct {
		r    Range
		want int64
	}{
		{Range{1, 1, 1, 1}, 1},
		{Range{1, 1, 3, 3}, 9},
		{Range{2, 5, 4, 6}, 6},
		{Range{1, 1, 16384, 1048576}, 16384 * 1048576}, // past int32
	} {
		assert.Equal(t, c.want, c.r.Cells(), c.r.String())
	}
}

func TestRangeRelations(t *testing.T) {
	b2d4 := Range{2, 2, 4, 4}
	for _, c := range []struct {
		name               string
		o                  Range
		overlaps, contains bool
	}{
		{"itself", b2d4, true, true},
		{"inside", Range{3, 3, 3, 4}, true, true},
		{"a corner shared", Range{4, 4, 6, 6}, true, false},
		{"around it", Range{1, 1, 5, 5}, true, false},
		{"across it", Range{1, 3, 9, 3}, true, false},
		{"beside it", Range{5, 2, 6, 4}, false, false},
		{"below it", Range{2, 5, 4, 5}, false, false},
		{"diagonal", Range{5, 5, 5, 5}, false, false},
	} {
		assert.Equal(t, c.overlaps, b2d4.Overlaps(c.o), "%s overlaps", c.name)
		assert.Equal(t, c.overlaps, c.o.Overlaps(b2d4), "%s overlaps, turned round", c.name)
		assert.Equal(t, c.contains, b2d4.Contains(c.o), "%s contained", c.name)
	}
}

func TestRangeHas(t *testing.T) {
	b2d4 := Range{2, 2, 4, 4}
	for _, c := range []struct {
		col, row int
		want     bool
	}{
		{2, 2, true}, {4, 4, true}, {3, 2, true},
		{1, 2, false}, {5, 4, false}, {3, 1, false}, {3, 5, false},
	} {
		assert.Equal(t, c.want, b2d4.Has(c.col, c.row), "(%d, %d)", c.col, c.row)
	}
}
