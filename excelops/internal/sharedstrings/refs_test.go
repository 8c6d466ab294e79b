package sharedstrings

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// TestIndex: a shared string cell's value is an index below the table's
// size; anything else points to no string.
func TestIndex(t *testing.T) {
	for _, c := range []struct {
		text string
		i    int
		ok   bool
	}{{"0", 0, true}, {"2", 2, true}, {"3", 0, false}, {"-1", 0, false}, {"1.0", 0, false}, {"", 0, false}, {" 1", 0, false}} {
		i, ok := Index([]byte(c.text), 3)
		assert.Equal(t, c.ok, ok, c.text)
		assert.Equal(t, c.i, i, c.text)
	}
}

// TestRefsCheck: only "s" cells with a value are checked, the table's size
// is asked once, a cell past it is KindDamaged naming the cell, and the
// size's own error is returned as it is.
func TestRefsCheck(t *testing.T) {
	asked := 0
	r := Refs{Count: func() (int, error) { asked++; return 2, nil }}
	cells := []sheetxml.Cell{
		{Col: 1, Row: 1, Type: []byte("n"), Value: []byte("7")},
		{Col: 2, Row: 1, Type: []byte("s")},
		{Col: 3, Row: 1, Type: []byte("s"), Value: []byte("1")},
		{Col: 4, Row: 1, Type: []byte("s"), Value: []byte("0")},
	}
	for i := range cells {
		require.NoError(t, r.Check(&cells[i]))
	}
	assert.Equal(t, 1, asked)
	err := r.Check(&sheetxml.Cell{Col: 2, Row: 7, Type: []byte("s"), Value: []byte("2")})
	assert.Equal(t, failure.KindDamaged, failure.KindOf(err))
	assert.EqualError(t, err, `file is damaged: cell B7 points to shared string "2" that does not exist`)

	broken := errors.New("table unreadable")
	bad := Refs{Count: func() (int, error) { return 0, broken }}
	assert.ErrorIs(t, bad.Check(&sheetxml.Cell{Col: 1, Row: 1, Type: []byte("s"), Value: []byte("0")}), broken)
	none := Refs{}
	assert.NoError(t, none.Check(&sheetxml.Cell{Col: 1, Row: 1, Type: []byte("s"), Value: []byte("9")}))
}
