// registry-sidecar: how a legacy array formula's array is laid over its
// range (see PATCHES.md).

package excelize

// layOver returns the values Excel shows in the cells of a legacy
// (Ctrl+Shift+Enter) array formula's range of rows x cols cells, given the
// array m its formula computes once: the element (i, j) of m goes to the
// cell (i, j) of the range; an array of one row repeats down every row of
// the range, one of one column across every column, and a single value
// fills the range; a cell past the array's extent in a dimension the array
// does not repeat is #N/A. A blank element shows as 0. m must not be empty.
func layOver(m [][]formulaArg, rows, cols int) [][]formulaArg {
	out := make([][]formulaArg, rows)
	for r := range out {
		out[r] = make([]formulaArg, cols)
		for c := range out[r] {
			out[r][c] = laidAt(m, r, c)
		}
	}
	return out
}

// laidAt is the value layOver puts at offset (r, c) of the range.
func laidAt(m [][]formulaArg, r, c int) formulaArg {
	i, ok := laidIndex(len(m), r)
	if !ok {
		return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	}
	j, ok := laidIndex(len(m[i]), c)
	if !ok {
		return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	}
	return shownValue(m[i][j])
}

// laidIndex is the index, in a dimension of n elements, of the element
// shown at offset at of the range: at itself within the extent, 0 for an
// extent of one (it repeats), none past a larger extent.
func laidIndex(n, at int) (int, bool) {
	switch {
	case at < n:
		return at, true
	case n == 1:
		return 0, true
	}
	return 0, false
}

// shownValue is the value a cell shows for the array element v: a blank
// (a blank cell the formula reads) is 0, as Excel shows it; an element
// that is itself an array gives its first value.
func shownValue(v formulaArg) formulaArg {
	switch v.Type {
	case ArgEmpty:
		return newNumberFormulaArg(0)
	case ArgMatrix, ArgList:
		if l := v.ToList(); len(l) > 0 {
			return shownValue(l[0])
		}
		return newNumberFormulaArg(0)
	}
	return v
}
