// registry-sidecar additions: Excel functions upstream excelize v2.11.1 does
// not compute (PATCHES.md, section 10): RANK.AVG, NUMBERVALUE, ECMA.CEILING
// and PERCENTOF here, with the argument helpers the others share; XMATCH,
// OFFSET and AREAS are in calc_lookup_modern.go, the REGEX functions in
// calc_regex_modern.go, LET in calc_let_modern.go.
// Every loop whose trip count comes from an argument is counted with the
// calculation's guard (calc_limits.go) before it runs.

package excelize

import (
	"container/list"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// unsupportedArg is the result of a function called in a form this
// calculator does not compute (an array result, say). Its message is not the
// error value, so CalcCellValue's caller can tell it from an Excel error.
func unsupportedArg(what string) formulaArg {
	return newErrorFormulaArg(formulaErrorVALUE, what+" is not supported")
}

// argAt returns the i-th (0-based) argument of argsList.
func argAt(argsList *list.List, i int) formulaArg {
	e := argsList.Front()
	for ; i > 0 && e != nil; i-- {
		e = e.Next()
	}
	if e == nil {
		return newEmptyFormulaArg()
	}
	return e.Value.(formulaArg)
}

// scalarArg returns arg as one value: a one-cell range or array becomes its
// cell; ok is false for a larger one.
func scalarArg(arg formulaArg) (formulaArg, bool) {
	if arg.Type != ArgMatrix {
		return arg, true
	}
	if len(arg.Matrix) == 1 && len(arg.Matrix[0]) == 1 {
		return arg.Matrix[0][0], true
	}
	return arg, false
}

// intArg returns arg as a number truncated toward zero, or the error to
// return (#VALUE! for text that is not a number).
func intArg(arg formulaArg) (float64, formulaArg, bool) {
	arg, ok := scalarArg(arg)
	if !ok {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	switch arg.Type {
	case ArgError:
		return 0, arg, false
	case ArgEmpty:
		return 0, arg, true
	}
	n := arg.ToNumber()
	if n.Type != ArgNumber {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	return math.Trunc(n.Number), n, true
}

// RANKdotAVG function returns the statistical rank of a number within a list
// of numbers; numbers that tie get the average of the ranks they span. The
// syntax of the function is:
//
//	RANK.AVG(number,ref,[order])
func (fn *formulaFuncs) RANKdotAVG(argsList *list.List) formulaArg {
	if argsList.Len() < 2 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, "RANK.AVG requires 2 or 3 arguments")
	}
	num, ok := scalarArg(argAt(argsList, 0))
	if !ok {
		return unsupportedArg("RANK.AVG with an array number")
	}
	if num.Type == ArgError {
		return num
	}
	if num = num.ToNumber(); num.Type != ArgNumber {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	ascending := false
	if argsList.Len() == 3 {
		order, errArg, ok := intArg(argAt(argsList, 2))
		if !ok {
			return errArg
		}
		ascending = order != 0
	}
	ref := argAt(argsList, 1)
	if ref.Type == ArgError {
		return ref
	}
	values := ref.ToList()
	if err := fn.guard().spend(float64(len(values))); err != nil {
		return stopArg(err)
	}
	ahead, ties := 0, 0
	for _, v := range values {
		if v.Type != ArgNumber || v.Boolean {
			continue
		}
		switch {
		case v.Number == num.Number:
			ties++
		case ascending && v.Number < num.Number, !ascending && v.Number > num.Number:
			ahead++
		}
	}
	if ties == 0 {
		return newErrorFormulaArg(formulaErrorNA, formulaErrorNA)
	}
	return newNumberFormulaArg(float64(ahead) + float64(ties+1)/2)
}

// separatorArg returns the first character of a NUMBERVALUE separator
// argument; ok is false for an empty text or an error.
func separatorArg(arg formulaArg) (rune, formulaArg, bool) {
	arg, ok := scalarArg(arg)
	if !ok {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	if arg.Type == ArgError {
		return 0, arg, false
	}
	s := arg.Value()
	if s == "" {
		return 0, newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE), false
	}
	r, _ := utf8.DecodeRuneInString(s)
	return r, arg, true
}

// NUMBERVALUE function converts text to a number in a locale-independent
// way, with the given decimal and group separators. The syntax of the
// function is:
//
//	NUMBERVALUE(text,[decimal_separator],[group_separator])
func (fn *formulaFuncs) NUMBERVALUE(argsList *list.List) formulaArg {
	if argsList.Len() < 1 || argsList.Len() > 3 {
		return newErrorFormulaArg(formulaErrorVALUE, "NUMBERVALUE requires 1 to 3 arguments")
	}
	text, ok := scalarArg(argAt(argsList, 0))
	if !ok {
		return unsupportedArg("NUMBERVALUE with an array text")
	}
	switch {
	case text.Type == ArgError:
		return text
	case text.Type == ArgNumber && !text.Boolean:
		return newNumberFormulaArg(text.Number)
	}
	decimal, group := '.', ','
	if argsList.Len() > 1 {
		r, errArg, ok := separatorArg(argAt(argsList, 1))
		if !ok {
			return errArg
		}
		decimal = r
	}
	if argsList.Len() > 2 {
		r, errArg, ok := separatorArg(argAt(argsList, 2))
		if !ok {
			return errArg
		}
		group = r
	} else if decimal == group {
		group = -1 // NUMBERVALUE("1,5",",") is 1.5: no group separator then
	}
	if decimal == group {
		return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
	}
	if n, ok := parseNumberValue(text.Value(), decimal, group); ok {
		return newNumberFormulaArg(n)
	}
	return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
}

// parseNumberValue reads s as NUMBERVALUE does: spaces anywhere are
// dropped, group separators before the decimal one are ignored (one after
// it is an error), trailing percent signs divide by 100 each, and "" is 0.
func parseNumberValue(s string, decimal, group rune) (float64, bool) {
	var b strings.Builder
	percents, seenDecimal := 0, false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			continue
		case r == '%':
			percents++
			continue
		case percents > 0:
			return 0, false // a percent sign not at the end
		case r == decimal:
			if seenDecimal {
				return 0, false
			}
			seenDecimal = true
			b.WriteByte('.')
		case r == group:
			if seenDecimal {
				return 0, false
			}
		case r == '.', r == ',':
			return 0, false // the other locale's separators are not digits
		default:
			b.WriteRune(r)
		}
	}
	num := b.String()
	if num == "" {
		return 0, percents == 0
	}
	if !numberValueSyntax(num) {
		return 0, false
	}
	n, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, false
	}
	for ; percents > 0; percents-- {
		n /= 100
	}
	return n, true
}

// numberValueSyntax reports whether s is a sign, digits with at most one
// decimal point and an optional exponent, and nothing else (no hex, no
// "Inf", no underscores: strconv accepts those).
func numberValueSyntax(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for ; i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.'); i++ {
		if s[i] != '.' {
			digits++
		}
	}
	if digits == 0 {
		return false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		}
		if i == start {
			return false
		}
	}
	return i == len(s)
}

// ECMAdotCEILING function rounds a number away from zero to the nearest
// multiple of significance, as CEILING does in ECMA-376: a number and a
// significance of different signs is #NUM!, a zero significance gives 0.
// The syntax of the function is:
//
//	ECMA.CEILING(number,significance)
func (fn *formulaFuncs) ECMAdotCEILING(argsList *list.List) formulaArg {
	if argsList.Len() != 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "ECMA.CEILING requires 2 arguments")
	}
	var nums [2]float64
	for i := range nums {
		arg, ok := scalarArg(argAt(argsList, i))
		if !ok {
			return unsupportedArg("ECMA.CEILING with an array argument")
		}
		if arg.Type == ArgError {
			return arg
		}
		if arg.Type == ArgEmpty {
			continue
		}
		n := arg.ToNumber()
		if n.Type != ArgNumber {
			return newErrorFormulaArg(formulaErrorVALUE, formulaErrorVALUE)
		}
		nums[i] = n.Number
	}
	number, significance := nums[0], nums[1]
	if number == 0 || significance == 0 {
		return newNumberFormulaArg(0)
	}
	if (number < 0) != (significance < 0) {
		return newErrorFormulaArg(formulaErrorNUM, formulaErrorNUM)
	}
	q := number / significance
	if r := math.Round(q); math.Abs(q-r) < 1e-12*math.Max(1, math.Abs(q)) {
		q = r // an exact multiple, up to the division's rounding
	}
	return newNumberFormulaArg(math.Ceil(q) * significance)
}

// PERCENTOF function returns the sum of a subset of data as a fraction of
// the sum of all the data. The syntax of the function is:
//
//	PERCENTOF(data_subset,data_all)
func (fn *formulaFuncs) PERCENTOF(argsList *list.List) formulaArg {
	if argsList.Len() != 2 {
		return newErrorFormulaArg(formulaErrorVALUE, "PERCENTOF requires 2 arguments")
	}
	var sums [2]float64
	for i := range sums {
		args := list.New()
		args.PushBack(argAt(argsList, i))
		sum := fn.SUM(args)
		if sum.Type != ArgNumber {
			return sum
		}
		sums[i] = sum.Number
	}
	if sums[1] == 0 {
		return newErrorFormulaArg(formulaErrorDIV, formulaErrorDIV)
	}
	return newNumberFormulaArg(sums[0] / sums[1])
}
