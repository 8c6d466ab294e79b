package engine

import (
	"strconv"
	"strings"
	"testing"
)

// fuzzTable reads a diffTable from text: lines are rows (the first the
// header), "|" separates cells; a cell that parses as a number is one,
// "" is empty.
func fuzzTable(text string) *DiffTable {
	lines := strings.Split(text, "\n")
	t := &DiffTable{HeaderRow: 1}
	for i, line := range lines {
		var row []any
		for _, c := range strings.Split(line, "|") {
			switch n, err := strconv.ParseFloat(c, 64); {
			case c == "":
				row = append(row, nil)
			case err == nil:
				row = append(row, n)
			default:
				row = append(row, c)
			}
		}
		if i == 0 {
			t.Header = row
			continue
		}
		t.Rows = append(t.Rows, row)
		t.RowNums = append(t.RowNums, i+1)
	}
	return t
}

// FuzzDiffTables: a sheet compared with itself has no differences, by
// position or by its first header as key (duplicate keys aside); compared
// with its header alone every row is removed.
func FuzzDiffTables(f *testing.F) {
	f.Add("id|v\n1|a\n2|b")
	f.Add("id|id|\n1|1|x\n1|2|")
	f.Add("|\n\n|")
	f.Add("a|b\nNaN|1e308\n-0|0")
	f.Fuzz(func(t *testing.T, text string) {
		tb := fuzzTable(text)
		d, err := DiffTables(tb, tb, nil, nil)
		if err != nil || len(d.Diffs) != 0 {
			t.Fatalf("by position: %v %v", err, d.Diffs)
		}
		idx, order := columnIndex(tb.Header)
		if len(order) > 0 {
			d, err = DiffTables(tb, tb, order[:1], nil)
			if err != nil || d.Added != 0 || d.Removed != 0 {
				t.Fatalf("by key %q (column %d): %v %+v", order[0], idx[order[0]], err, d)
			}
		}
		empty := &DiffTable{HeaderRow: 1, Header: tb.Header}
		d, err = DiffTables(tb, empty, nil, nil)
		if err != nil || d.Removed != len(tb.Rows) || d.Added != 0 {
			t.Fatalf("against the header alone: %v %+v", err, d)
		}
	})
}
