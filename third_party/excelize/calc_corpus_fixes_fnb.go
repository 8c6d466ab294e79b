// registry-sidecar addition (PATCHES.md): helpers of the text, lookup,
// date, criteria and database fixes the formula corpus found.

package excelize

import (
	"math"
	"strconv"
	"strings"
)

// maxTimePart is the largest hour, minute or second TIME takes (Microsoft's
// TIME page: "a number from 0 (zero) to 32767").
const maxTimePart = 32767

// baseMinLength reads BASE's min_length as a number: a boolean is 0 or 1,
// a fraction is truncated, a text that is no number is an error.
func baseMinLength(arg formulaArg) (int, error) {
	num := arg.ToNumber()
	if num.Type != ArgNumber {
		return 0, strconv.ErrSyntax
	}
	if num.Number > math.MaxInt32 || num.Number < math.MinInt32 {
		return -1, nil // outside 0..255: the caller's #NUM!
	}
	return int(num.Number), nil
}

// firstListError returns the first error value of arg's cells or array,
// or an empty arg when it holds none.
func firstListError(arg formulaArg) formulaArg {
	for _, cell := range arg.ToList() {
		if cell.Type == ArgError {
			return cell
		}
	}
	if arg.Type == ArgError {
		return arg
	}
	return newEmptyFormulaArg()
}

// countifCriteria parses COUNTIF's criteria: a reference to a blank cell is
// the number 0 (Microsoft's COUNTIFS page: "If the criteria argument is a
// reference to an empty cell, the COUNTIFS function treats the empty cell as
// a 0 value").
func countifCriteria(arg formulaArg) *formulaCriteria {
	if arg.Type == ArgEmpty {
		return &formulaCriteria{Type: criteriaEq, Condition: newNumberFormulaArg(0)}
	}
	return formulaCriteriaParser(arg)
}

// countifTextNumber reports whether a text cell holding a number matches
// an equality criterion on that number: COUNTIF(r,"5") counts the text "5"
// as well as the number 5, as Excel and Calc do.
func countifTextNumber(cell formulaArg, criteria *formulaCriteria) bool {
	if criteria.Type != criteriaEq || criteria.Condition.Type != ArgNumber {
		return false
	}
	num, err := strconv.ParseFloat(strings.TrimSpace(cell.Value()), 64)
	return err == nil && num == criteria.Condition.Number
}

// criteriaLabelIndex returns the column of database whose header is label
// (case-insensitive), or -1: a criteria range names columns by their
// labels only.
func criteriaLabelIndex(database [][]formulaArg, label formulaArg) int {
	if len(database) == 0 || label.Type == ArgEmpty {
		return -1
	}
	for i, title := range database[0] {
		if strings.EqualFold(title.Value(), label.Value()) {
			return i
		}
	}
	return -1
}
