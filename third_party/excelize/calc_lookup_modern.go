// registry-sidecar additions: XMATCH, OFFSET and AREAS, which upstream
// excelize v2.11.1 does not compute (PATCHES.md, section 10). Every loop
// whose trip count comes from an argument is counted with the calculation's
// guard (calc_limits.go) before it runs.

package excelize

import (
	"container/list"
	"strings"
)

// xmatchClass orders the kinds of values Excel compares in lookups:
// numbers, then text, then logical values; 0 for what never matches
// (blank cells, errors).
func xmatchClass(arg formulaArg) int {
	switch arg.Type {
	case ArgNumber:
		if arg.Boolean {
			return 3
		}
		return 1
	case ArgString:
		return 2
	}
	return 0
}

// xmatchCompare compares a with b as Excel's lookups do (text ignoring
// case; a value of another kind orders by its kind).
func xmatchCompare(a, b formulaArg) int {
	ca, cb := xmatchClass(a), xmatchClass(b)
	if ca != cb {
		if ca < cb {
			return -1
		}
		return 1
	}
	switch ca {
	case 1, 3:
		switch {
		case a.Number < b.Number:
			return -1
		case a.Number > b.Number:
			return 1
		}
		return 0
	case 2:
		return strings.Compare(strings.ToLower(a.String), strings.ToLower(b.String))
	}
	return 0
}

// wildcardMatch reports whether text matches Excel's wildcard pattern (? one
// character, * any run, ~ escapes the next one) as a whole, ignoring case.
// Backtracking is bounded: it restarts only from the last *.
func wildcardMatch(pattern, text string) bool {
	p, t := []rune(strings.ToLower(pattern)), []rune(strings.ToLower(text))
	pi, ti, star, mark := 0, 0, -1, 0
	for ti < len(t) {
		if pi < len(p) {
			switch {
			case p[pi] == '*':
				star, mark = pi, ti
				pi++
				continue
			case p[pi] == '?':
				pi++
				ti++
				continue
			case p[pi] == '~' && pi+1 < len(p) && (p[pi+1] == '*' || p[pi+1] == '?' || p[pi+1] == '~'):
				if p[pi+1] == t[ti] {
					pi += 2
					ti++
					continue
				}
			case p[pi] == t[ti]:
				pi++
				ti++
				continue
			}
		}
		if star < 0 {
			return false
		}
		mark++
		pi, ti = star+1, mark
	}
	for pi < len(p) && p[pi] == '*' {
		pi++
	}
	return pi == len(p)
}

// XMATCH function searches for a value in a one-row or one-column range or
// array and returns its relative position. The syntax of the function is:
//
//	XMATCH(lookup_value,lookup_array,[match_mode],[search_mode])
//
// match_mode: 0 exact, -1 exact or next smaller, 1 exact or next larger, 2
// wildcard. search_mode: 1 first to last, -1 last to first, 2 binary on
// ascending data, -2 binary on descending data.
func (fn *formulaFuncs) XMATCH(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 4 {
		return newErrorFormulaArg(formulaErrorVALUE, "XMATCH requires 2 to 4 arguments")
	}
	value, ok := scalarArg(argAt(argsList, 0))
	if !ok {
		return unsupportedArg("XMATCH with an array lookup_value")
	}
	if value.Type == ArgError {
		return value
	}
	matchMode, searchMode := 0.0, 1.0
	if argsList.Len() > 2 && argAt(argsList, 2).Type != ArgEmpty {
		n, errArg, ok := intArg(argAt(argsList, 2))
		if !ok {
			return errArg
		}
		matchMode = n
	}
	if argsList.Len() > 3 && argAt(argsList, 3).Type != ArgEmpty {
		n, errArg, ok := intArg(argAt(argsList, 3))
		if !ok {
			return errArg
		}
		searchMode = n
	}
	if !validateMatchMode(matchMode) || !validateSearchMode(searchMode) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	array := argAt(argsList, 1)
	var cells []formulaArg
	switch {
	case array.Type == ArgError:
		return array
	case array.Type != ArgMatrix:
		cells = []formulaArg{array}
	case len(array.Matrix) == 1:
		cells = array.Matrix[0]
	case len(array.Matrix) > 0 && len(array.Matrix[0]) == 1:
		for _, row := range array.Matrix {
			cells = append(cells, row[0])
		}
	default:
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE) // not one row or one column
	}
	if value.Type == ArgEmpty || xmatchClass(value) == 0 {
		return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	}
	if err := fn.guard().spend(float64(len(cells))); err != nil {
		return stopArg(err)
	}
	var idx int
	if searchMode == searchModeAscBinary || searchMode == searchModeDescBinary {
		if matchMode == matchModeWildcard {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE) // no wildcard binary search
		}
		idx = xmatchBinary(value, cells, int(matchMode), searchMode == searchModeDescBinary)
	} else {
		idx = xmatchLinear(value, cells, int(matchMode), searchMode == searchModeReverseLinear)
	}
	if idx < 0 {
		return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	}
	return newNumberFormulaArg(float64(idx + 1))
}

// xmatchLinear is XMATCH's search of cells one after the other: the first
// exact match, else (match modes -1 and 1) the closest value of the same kind
// below or above, the first one met on ties; -1 when none.
func xmatchLinear(value formulaArg, cells []formulaArg, matchMode int, reverse bool) int {
	wild := matchMode == matchModeWildcard && value.Type == ArgString
	best := -1
	for k := range cells {
		i := k
		if reverse {
			i = len(cells) - 1 - k
		}
		cell := cells[i]
		if xmatchClass(cell) != xmatchClass(value) {
			continue
		}
		if wild {
			if wildcardMatch(value.String, cell.String) {
				return i
			}
			continue
		}
		c := xmatchCompare(cell, value)
		if c == 0 {
			return i
		}
		if (matchMode == matchModeMaxLess && c < 0 || matchMode == matchModeMinGreater && c > 0) &&
			(best < 0 || xmatchCompare(cell, cells[best]) == -matchMode) {
			best = i
		}
	}
	return best
}

// xmatchBinary is XMATCH's binary search of cells sorted ascending (or
// descending): the first cell equal to value, else the next smaller or
// larger one next to where value would be; -1 when none.
func xmatchBinary(value formulaArg, cells []formulaArg, matchMode int, desc bool) int {
	before := func(c int) bool { // the cell sorts before value
		if desc {
			return c > 0
		}
		return c < 0
	}
	lo, hi := 0, len(cells)
	for lo < hi {
		mid := lo + (hi-lo)/2
		if before(xmatchCompare(cells[mid], value)) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(cells) && xmatchCompare(cells[lo], value) == 0 {
		return lo
	}
	var i int
	switch {
	case matchMode == matchModeExact:
		return -1
	case matchMode == matchModeMaxLess && !desc, matchMode == matchModeMinGreater && desc:
		i = lo - 1
	default:
		i = lo
	}
	if i < 0 || i >= len(cells) || xmatchClass(cells[i]) != xmatchClass(value) {
		return -1
	}
	return i
}

// refArea returns the one area a reference argument names (its sheet and
// corners), ok false when arg is not a reference of one area.
func (fn *formulaFuncs) refArea(arg formulaArg) (sheet string, from, to cellRef, ok bool) {
	n := 0
	if arg.cellRanges != nil {
		n += arg.cellRanges.Len()
	}
	if arg.cellRefs != nil {
		n += arg.cellRefs.Len()
	}
	if n != 1 {
		return "", from, to, false
	}
	if arg.cellRanges != nil && arg.cellRanges.Len() == 1 {
		cr := arg.cellRanges.Front().Value.(cellRange)
		from, to = cr.From, cr.To
	} else {
		from = arg.cellRefs.Front().Value.(cellRef)
		to = from
	}
	if from.Col > to.Col {
		from.Col, to.Col = to.Col, from.Col
	}
	if from.Row > to.Row {
		from.Row, to.Row = to.Row, from.Row
	}
	sheet = from.Sheet
	if sheet == "" {
		sheet = fn.sheet
	}
	return sheet, from, to, true
}

// AREAS function returns the number of areas in a reference. The syntax of
// the function is:
//
//	AREAS(reference)
func (fn *formulaFuncs) AREAS(argsList *list.List) formulaArg {
	if argsList.Len() != 1 {
		return newErrorFormulaArg(formulaErrorVALUE, "AREAS requires 1 argument")
	}
	arg := argsList.Front().Value.(formulaArg)
	n := 0
	if arg.cellRanges != nil {
		n += arg.cellRanges.Len()
	}
	if arg.cellRefs != nil {
		n += arg.cellRefs.Len()
	}
	if n == 0 {
		if arg.Type == ArgError {
			return arg
		}
		return newErrorFormulaArg(formulaErrorVALUE, "AREAS requires a reference")
	}
	return newNumberFormulaArg(float64(n))
}

// OFFSET function returns a reference to a range that is a given number of
// rows and columns from a reference, of a given height and width (the
// reference's by default; negative ones extend up and left). The syntax of
// the function is:
//
//	OFFSET(reference,rows,cols,[height],[width])
func (fn *formulaFuncs) OFFSET(argsList *list.List) formulaArg {
	if argsList.Len() < 3 || argsList.Len() > 5 {
		return newErrorFormulaArg(formulaErrorVALUE, "OFFSET requires 3 to 5 arguments")
	}
	ref := argAt(argsList, 0)
	sheet, from, to, ok := fn.refArea(ref)
	if !ok {
		if ref.Type == ArgError {
			return ref
		}
		return newErrorFormulaArg(formulaErrorVALUE, "OFFSET requires a reference of one area")
	}
	var n [4]float64
	n[2], n[3] = float64(to.Row-from.Row+1), float64(to.Col-from.Col+1)
	for i := 1; i < argsList.Len(); i++ {
		arg := argAt(argsList, i)
		if i >= 3 && arg.Type == ArgEmpty {
			continue // an omitted height or width keeps the reference's
		}
		v, errArg, ok := intArg(arg)
		if !ok {
			return errArg
		}
		n[i-1] = v
	}
	rows, cols, height, width := n[0], n[1], n[2], n[3]
	if height == 0 || width == 0 {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	top, left := float64(from.Row)+rows, float64(from.Col)+cols
	if height < 0 {
		top, height = top+height+1, -height
	}
	if width < 0 {
		left, width = left+width+1, -width
	}
	bottom, right := top+height-1, left+width-1
	if top < 1 || left < 1 || bottom > TotalRows || right > MaxColumns {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	start, err := CoordinatesToCellName(int(left), int(top))
	if err != nil {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	end, err := CoordinatesToCellName(int(right), int(bottom))
	if err != nil {
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	target := start
	if height > 1 || width > 1 {
		target += ":" + end
	}
	arg, err := fn.f.parseReference(fn.ctx, sheet, target)
	if err != nil {
		if stop := fn.guard().failed(); stop != nil {
			return stopArg(stop)
		}
		return newErrorFormulaArg(formulaErrorREF, formulaErrorREF)
	}
	return arg
}
