package cellarea

import (
	"testing"

	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
	"github.com/stretchr/testify/assert"
)

func TestParseArea(t *testing.T) {
	rows, cols := excelize.TotalRows, excelize.MaxColumns
	for _, c := range []struct {
		ref  string
		want Area
		ok   bool
	}{
		{"A1", Area{"S", 1, 1, 1, 1}, true},
		{"$B$3", Area{"S", 2, 3, 2, 3}, true},
		{"b2:a1", Area{"S", 1, 1, 2, 2}, true}, // normalised, any case
		{"C:C", Area{"S", 3, 1, 3, rows}, true},
		{"$2:3", Area{"S", 1, 2, cols, 3}, true},
		{"Sheet2!$A$1:B2", Area{"Sheet2", 1, 1, 2, 2}, true},
		{"'Q1 ''Plan'' v1'!A1", Area{"Q1 'Plan' v1", 1, 1, 1, 1}, true},
		{"XFD1048576", Area{"S", cols, rows, cols, rows}, true},
		{"A1048577", Area{}, false}, // past the last row
		{"XFE1", Area{}, false},     // past the last column
		{"AAAA1", Area{}, false},
		{"C", Area{}, false}, // a column needs its range
		{"3", Area{}, false},
		{"A1:C", Area{}, false}, // a cell and a column
		{"Total", Area{}, false},
		{"Table1[Qty]", Area{}, false},
		{"Sheet1:Sheet3!A1", Area{}, false}, // 3-D
		{"[1]Sheet1!A1", Area{}, false},     // another workbook
		{"!A1", Area{}, false},
		{"", Area{}, false},
	} {
		got, ok := ParseArea(c.ref, "S")
		assert.Equal(t, c.ok, ok, c.ref)
		if c.ok {
			assert.Equal(t, c.want, got, c.ref)
		}
	}
}

func TestAreaOverlaps(t *testing.T) {
	b2d4 := Area{"Data", 2, 2, 4, 4}
	for _, c := range []struct {
		o    Area
		want bool
	}{
		{Area{"Data", 4, 4, 6, 6}, true},
		{Area{"DATA", 3, 3, 3, 3}, true}, // sheet names compare case-insensitively
		{Area{"Data", 5, 2, 5, 4}, false},
		{Area{"Other", 3, 3, 3, 3}, false},
		{Area{"Data ", 3, 3, 3, 3}, false}, // a different name
	} {
		assert.Equal(t, c.want, b2d4.Overlaps(c.o), "%+v", c.o)
		assert.Equal(t, c.want, c.o.Overlaps(b2d4), "%+v, turned round", c.o)
	}
}

func TestAreaWiden(t *testing.T) {
	for _, c := range []struct {
		a          Area
		rows, cols int
		want       Area
	}{
		{Area{"S", 5, 5, 6, 7}, 1, 2, Area{"S", 3, 4, 8, 8}},
		{Area{"S", 1, 2, 1, 2}, 3, 3, Area{"S", 1, 1, 4, 5}}, // clamped at row and column 1
		{Area{"S", 2, 2, 2, 2}, 0, 0, Area{"S", 2, 2, 2, 2}},
	} {
		assert.Equal(t, c.want, c.a.Widen(c.rows, c.cols), "%+v", c.a)
	}
}
