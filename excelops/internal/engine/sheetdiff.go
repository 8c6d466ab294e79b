package engine

import (
	"fmt"
	"math"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/colprofile"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// The engine of compare_excel: two sheets read as a header row and data
// rows are matched row by row, by key columns (like a merge on them) or by
// position, and their differences listed: rows only in one sheet, and the
// cells that differ in the columns both share.

// DiffTable is a sheet read for comparison.
type DiffTable struct {
	HeaderRow int     // row number of the header (0: the sheet is empty)
	Header    []any   // header cells
	Rows      [][]any // data rows holding cells, in order
	RowNums   []int   // their row numbers
	// HeaderStyles and styles are the style ids of the header and of the
	// data rows' cells (see rowsStyled), kept when styles are compared.
	HeaderStyles []int32
	Styles       [][]int32
}

// diffEntry is one difference, ready to encode.
type diffEntry = pyjson.Object

// SheetDiff is the result of comparing two sheetTables.
type SheetDiff struct {
	ColumnsAdded, ColumnsRemoved []any
	Added, Removed, Changed      int
	CellsChanged, DuplicateKeys  int
	Diffs                        []diffEntry
	// Styled: styles were compared; rowsStyled and cellsStyled count the
	// rows and cells whose styles differ.
	Styled                  bool
	RowsStyled, CellsStyled int
}

// columnIndex maps header names (text as shown, trimmed) to column
// indexes; a header cell that is empty or repeated is left out.
func columnIndex(header []any) (map[string]int, []string) {
	idx := map[string]int{}
	var order []string
	for i, h := range header {
		if h == nil {
			continue
		}
		name := strings.TrimSpace(fmt.Sprint(h))
		if _, dup := idx[name]; dup || name == "" {
			continue
		}
		idx[name] = i
		order = append(order, name)
	}
	return idx, order
}

// cellAt is row's cell at index i, nil past its end.
func cellAt(row []any, i int) any {
	if i < len(row) {
		return row[i]
	}
	return nil
}

// sameValue reports whether two cells hold the same value: numbers by
// value (1 and 1.0 are one; a file's "NaN" equals itself), other values
// by kind and content.
func sameValue(a, b any) bool {
	fa, aNum := asNumber(a)
	fb, bNum := asNumber(b)
	if aNum || bNum {
		return aNum && bNum && (fa == fb || math.IsNaN(fa) && math.IsNaN(fb))
	}
	return a == b
}

// asNumber is v as a float64 when it is a number.
func asNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// keyOf is the key of row over the key columns' indexes, and the key as
// an object for the result.
func keyOf(row []any, cols []int, names []string) (string, pyjson.Object) {
	var b strings.Builder
	obj := make(pyjson.Object, len(cols))
	for i, c := range cols {
		v := cellAt(row, c)
		if f, ok := asNumber(v); ok {
			v = f
		}
		b.WriteString(colprofile.ValueKey(v))
		b.WriteByte(0)
		obj[i] = pyjson.Field{Key: names[i], Value: cellAt(row, c)}
	}
	return b.String(), obj
}

// DiffTables compares a with b, matching rows by the key columns (names
// of header cells both share) or, with none, by position. With sc, the
// styles of the cells of the shared columns are compared too, in the
// header and in every pair of matched rows.
func DiffTables(a, b *DiffTable, keys []string, sc *StyleComparer) (*SheetDiff, error) {
	ia, orderA := columnIndex(a.Header)
	ib, orderB := columnIndex(b.Header)
	d := &SheetDiff{ColumnsAdded: []any{}, ColumnsRemoved: []any{}, Styled: sc != nil}
	var common []string
	for _, n := range orderA {
		if _, ok := ib[n]; ok {
			common = append(common, n)
		} else {
			d.ColumnsRemoved = append(d.ColumnsRemoved, n)
		}
	}
	for _, n := range orderB {
		if _, ok := ia[n]; !ok {
			d.ColumnsAdded = append(d.ColumnsAdded, n)
		}
	}
	keyA, keyB := make([]int, len(keys)), make([]int, len(keys))
	for i, k := range keys {
		ca, okA := ia[k]
		cb, okB := ib[k]
		if !okA || !okB {
			return nil, failure.Invalid("key column %q is not a header of both sheets; their shared headers are %s", k, QuoteList(common))
		}
		keyA[i], keyB[i] = ca, cb
	}
	cols := matchedColumns{names: common, a: ia, b: ib}
	if a.HeaderRow > 0 && b.HeaderRow > 0 {
		if err := d.styleRow(sc, cols, a.HeaderStyles, b.HeaderStyles, a.HeaderRow, b.HeaderRow, pyjson.Field{Key: "header", Value: true}); err != nil {
			return nil, err
		}
	}
	cellDiffs := func(ra, rb []any, rowA, rowB int) []any {
		var out []any
		for _, n := range common {
			va, vb := cellAt(ra, ia[n]), cellAt(rb, ib[n])
			if sameValue(va, vb) {
				continue
			}
			out = append(out, pyjson.Object{
				{Key: "column", Value: n},
				{Key: "cell_a", Value: grid.CellName(ia[n]+1, rowA)},
				{Key: "cell_b", Value: grid.CellName(ib[n]+1, rowB)},
				{Key: "old", Value: va}, {Key: "new", Value: vb}})
		}
		return out
	}
	if len(keys) == 0 {
		n := max(len(a.Rows), len(b.Rows))
		for i := range n {
			switch {
			case i >= len(b.Rows):
				d.Removed++
				d.Diffs = append(d.Diffs, diffEntry{{Key: "type", Value: "row_removed"}, {Key: "row_a", Value: a.RowNums[i]}, {Key: "values", Value: a.Rows[i]}})
			case i >= len(a.Rows):
				d.Added++
				d.Diffs = append(d.Diffs, diffEntry{{Key: "type", Value: "row_added"}, {Key: "row_b", Value: b.RowNums[i]}, {Key: "values", Value: b.Rows[i]}})
			default:
				if ch := cellDiffs(a.Rows[i], b.Rows[i], a.RowNums[i], b.RowNums[i]); len(ch) > 0 {
					d.Changed++
					d.CellsChanged += len(ch)
					d.Diffs = append(d.Diffs, diffEntry{{Key: "type", Value: "row_changed"}, {Key: "row_a", Value: a.RowNums[i]}, {Key: "row_b", Value: b.RowNums[i]}, {Key: "changes", Value: ch}})
				}
				if err := d.styleRow(sc, cols, a.rowStyles(i), b.rowStyles(i), a.RowNums[i], b.RowNums[i]); err != nil {
					return nil, err
				}
			}
		}
		return d, nil
	}
	inB := map[string]int{}
	for i, r := range b.Rows {
		k, _ := keyOf(r, keyB, keys)
		if _, dup := inB[k]; dup {
			d.DuplicateKeys++
			continue
		}
		inB[k] = i
	}
	matched := make([]bool, len(b.Rows))
	seenA := map[string]bool{}
	for i, r := range a.Rows {
		k, key := keyOf(r, keyA, keys)
		if seenA[k] {
			d.DuplicateKeys++
			continue
		}
		seenA[k] = true
		j, ok := inB[k]
		if !ok {
			d.Removed++
			d.Diffs = append(d.Diffs, diffEntry{{Key: "type", Value: "row_removed"}, {Key: "key", Value: key}, {Key: "row_a", Value: a.RowNums[i]}, {Key: "values", Value: r}})
			continue
		}
		matched[j] = true
		if ch := cellDiffs(r, b.Rows[j], a.RowNums[i], b.RowNums[j]); len(ch) > 0 {
			d.Changed++
			d.CellsChanged += len(ch)
			d.Diffs = append(d.Diffs, diffEntry{{Key: "type", Value: "row_changed"}, {Key: "key", Value: key}, {Key: "row_a", Value: a.RowNums[i]}, {Key: "row_b", Value: b.RowNums[j]}, {Key: "changes", Value: ch}})
		}
		if err := d.styleRow(sc, cols, a.rowStyles(i), b.rowStyles(j), a.RowNums[i], b.RowNums[j], pyjson.Field{Key: "key", Value: key}); err != nil {
			return nil, err
		}
	}
	for j, r := range b.Rows {
		k, key := keyOf(r, keyB, keys)
		if matched[j] || inB[k] != j {
			continue
		}
		d.Added++
		d.Diffs = append(d.Diffs, diffEntry{{Key: "type", Value: "row_added"}, {Key: "key", Value: key}, {Key: "row_b", Value: b.RowNums[j]}, {Key: "values", Value: r}})
	}
	return d, nil
}

// QuoteList renders names as "a", "b", "c".
func QuoteList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(q, ", ")
}
