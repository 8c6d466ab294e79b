// registry-sidecar: the ranges of SUMIF and AVERAGEIF as Excel reads them
// (PATCHES.md).

package excelize

// criteriaMatrix is a criteria range argument as a matrix: a single value
// (SUMIF(A4,...)) is a 1x1 one.
func criteriaMatrix(arg formulaArg) [][]formulaArg {
	if arg.Type == ArgMatrix {
		return arg.Matrix
	}
	return [][]formulaArg{{arg}}
}

// resizedSumRange is the sum (or average) range Excel reads for a criteria
// range of rows x cols: the reference's upper-left cell extended to that
// size (SUMIF(A1:A6,">2",B1) sums B1:B6), as Microsoft documents. An array
// is taken as it is, its elements by position.
func (fn *formulaFuncs) resizedSumRange(arg formulaArg, rows, cols int) [][]formulaArg {
	sheet, from, to, ok := fn.refArea(arg)
	if !ok || to.Row-from.Row+1 == rows && to.Col-from.Col+1 == cols {
		return criteriaMatrix(arg)
	}
	bottom, right := min(from.Row+rows-1, TotalRows), min(from.Col+cols-1, MaxColumns)
	start, err := CoordinatesToCellName(from.Col, from.Row)
	if err != nil {
		return criteriaMatrix(arg)
	}
	end, err := CoordinatesToCellName(right, bottom)
	if err != nil {
		return criteriaMatrix(arg)
	}
	resized, err := fn.f.parseReference(fn.ctx, sheet, start+":"+end)
	if err != nil {
		return criteriaMatrix(arg)
	}
	return criteriaMatrix(resized)
}

// criteriaCellAt is m's element at row i and column j, ok false outside m.
func criteriaCellAt(m [][]formulaArg, i, j int) (formulaArg, bool) {
	if i < len(m) && j < len(m[i]) {
		return m[i][j], true
	}
	return formulaArg{}, false
}

// sameShape reports whether every matrix has as many rows and columns as
// the first: the ranges of COUNTIFS, SUMIFS, AVERAGEIFS, MAXIFS and MINIFS
// must (else #VALUE!).
func sameShape(ms ...[][]formulaArg) bool {
	for _, m := range ms[1:] {
		if len(m) != len(ms[0]) || len(m) > 0 && len(m[0]) != len(ms[0][0]) {
			return false
		}
	}
	return true
}

// ifsShapeError is #VALUE! when the criteria ranges of a *IFS function's
// args (range, criteria, range, criteria...) and its first range (a sum,
// average, max or min range, or nil) differ in shape.
func ifsShapeError(first formulaArg, args []formulaArg) (formulaArg, bool) {
	var ms [][][]formulaArg
	if first.Type != ArgUnknown {
		ms = append(ms, criteriaMatrix(first))
	}
	for i := 0; i < len(args)-1; i += 2 {
		ms = append(ms, criteriaMatrix(args[i]))
	}
	if len(ms) > 1 && !sameShape(ms...) {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), true
	}
	return formulaArg{}, false
}

// ifsNumber is a matched cell of a *IFS function's sum, average, max or
// min range: a number counts (ok), text and logical values are skipped, an
// error is the function's result (ok, with the error).
func ifsNumber(cell formulaArg) (formulaArg, bool) {
	switch {
	case cell.Type == ArgError:
		return cell, true
	case cell.Type == ArgNumber && !cell.Boolean:
		return cell, true
	}
	return formulaArg{}, false
}

// maxDateSerial is the serial number of 9999-12-31, Excel's last date: a
// date argument after it is #NUM!.
const maxDateSerial = 2958465.99999999
