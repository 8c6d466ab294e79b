// registry-sidecar: the calculator's result with its type (PATCHES.md,
// "CalcCellResultContext").

package excelize

import "context"

// CalcResultKind is the type of a calculated formula's result.
type CalcResultKind byte

const (
	// CalcResultEmpty is no value: the formula is a reference to a blank
	// cell (=A1), which Excel shows as 0.
	CalcResultEmpty CalcResultKind = iota
	// CalcResultNumber is a number (dates and times included).
	CalcResultNumber
	// CalcResultBool is TRUE or FALSE.
	CalcResultBool
	// CalcResultText is a text, possibly empty or looking like a number.
	CalcResultText
	// CalcResultError is an Excel error value such as #N/A.
	CalcResultError
)

// CalcResult is a calculated formula's result: its kind and its value as
// CalcCellValue spells it.
type CalcResult struct {
	Kind  CalcResultKind
	Value string
}

// CalcCellResultContext is CalcCellValueContext with the result's kind,
// which the string alone cannot tell: an empty text ("") from no value, the
// text "7" from the number 7.
func (f *File) CalcCellResultContext(ctx context.Context, sheet, cell string, lim CalcLimits, opts ...Options) (CalcResult, error) {
	return f.calcCellResultGuarded(newCalcGuard(ctx, lim), sheet, cell, opts...)
}

// calcResultKindOf is the kind of a formula's result token; an array
// result is its first element's (as formulaArg.Value reads it).
func calcResultKindOf(token formulaArg) CalcResultKind {
	switch token.Type {
	case ArgNumber:
		if token.Boolean {
			return CalcResultBool
		}
		return CalcResultNumber
	case ArgString:
		return CalcResultText
	case ArgError:
		return CalcResultError
	case ArgMatrix:
		if list := token.ToList(); len(list) > 0 {
			return calcResultKindOf(list[0])
		}
	}
	return CalcResultEmpty
}
