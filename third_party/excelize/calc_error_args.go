package excelize

import (
	"container/list"
	"strings"
)

// Excel's rule for an error given as an argument: a function returns the
// first error among its arguments, unless it is one made to look at errors
// (IFERROR, ISERROR, ...), one that chooses among its arguments (IF,
// CHOOSE, SWITCH), one that reads a reference rather than a value (ROW,
// OFFSET, CELL, ...), one whose arguments may rightly hold errors (COUNT,
// the criteria of COUNTIF, the padding of EXPAND), or one of the LAMBDA
// family, which passes values on to a LAMBDA. Upstream functions each check
// (or forget to check) their arguments: LEN(A1) of an #DIV/0! cell gave 7,
// AND(#DIV/0!,TRUE) TRUE, GCD(#N/A,18) 18.

// errorArgExempt are the functions the rule does not apply to, by the name
// the calculator calls (formulaFnNameReplacer's form).
var errorArgExempt = func() map[string]bool {
	names := []string{
		// made to look at errors
		"IFERROR", "IFNA", "ISERROR", "ISERR", "ISNA", "ERROR.TYPE", "ISBLANK", "ISLOGICAL", "ISNONTEXT",
		"ISNUMBER", "ISREF", "ISTEXT", "ISFORMULA", "ISOMITTED", "TYPE", "NA",
		// choosing among their arguments (only the chosen one's error counts)
		"IF", "IFS", "SWITCH", "CHOOSE",
		// counting or skipping errors
		"COUNT", "COUNTA", "COUNTBLANK", "AGGREGATE", "SUBTOTAL",
		"COUNTIF", "COUNTIFS", "SUMIF", "SUMIFS", "AVERAGEIF", "AVERAGEIFS", "MAXIFS", "MINIFS",
		// reading references, not values
		"ROW", "ROWS", "COLUMN", "COLUMNS", "OFFSET", "INDIRECT", "INDEX", "AREAS", "CELL", "FORMULATEXT",
		"SHEET", "SHEETS", "ANCHORARRAY", "TRIMRANGE",
		// building arrays whose elements may be errors
		"VSTACK", "HSTACK", "TOCOL", "TOROW", "EXPAND", "TAKE", "DROP", "WRAPROWS", "WRAPCOLS",
		"CHOOSEROWS", "CHOOSECOLS", "FILTER", "SORT", "SORTBY", "UNIQUE", "TEXTSPLIT", "TRANSPOSE",
		"ARRAYTOTEXT", "VALUETOTEXT",
		// lookups whose not-found value may be an error
		"XLOOKUP", "LOOKUP",
		// LET and the LAMBDA family pass values on
		"LET", "LAMBDA", "MAP", "REDUCE", "SCAN", "BYROW", "BYCOL", "MAKEARRAY",
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[strings.ToUpper(formulaFnNameReplacer.Replace(n))] = true
	}
	return m
}()

// errorArgument returns the first error among the values in args when the
// function name (formulaFnNameReplacer's form) passes errors on, ok false
// otherwise. A range or array argument is the function's to read.
func errorArgument(name string, args *list.List) (formulaArg, bool) {
	if errorArgExempt[strings.ToUpper(name)] || strings.HasPrefix(name, "_") {
		return formulaArg{}, false
	}
	for e := args.Front(); e != nil; e = e.Next() {
		arg, ok := e.Value.(formulaArg)
		if ok && arg.Type == ArgError && (arg.cellRanges == nil || arg.cellRanges.Len() == 0) {
			return arg, true
		}
	}
	return formulaArg{}, false
}
