package formuladeps

import (
	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
)

// Volatile reports whether the function name (as formulatok.FunctionName
// gives it) reads cells its arguments do not name (INDIRECT, OFFSET), or
// changes without any edit: a formula calling one depends on every edit.
// A spill reference (ANCHORARRAY) is not among them: the range it reads
// is its anchor's spill (see Scope.SetSpills).
func Volatile(name string) bool {
	switch name {
	case "INDIRECT", "OFFSET", "NOW", "TODAY", "RAND", "RANDBETWEEN",
		"RANDARRAY", "CELL", "INFO",
		"GETPIVOTDATA": // reads its pivot table's source range, which no argument names
		return true
	}
	return false
}

// ScanSheet is Scan for a formula on sheet host with no scope: every
// name, table and spill reference makes it wide.
func ScanSheet(formula, host string) (areas []cellarea.Area, wide bool) {
	return Scan(formula, cellarea.Area{Sheet: host}, nil)
}

// Scan returns the areas the formula of cell at reads; wide is true when
// it may read anything: a defined name, a structured or spill reference
// scope does not resolve, an external or 3-D reference, a volatile
// function, or text that does not tokenize. A nil scope resolves nothing.
// The names a LET or LAMBDA binds read nothing.
func Scan(formula string, at cellarea.Area, scope *Scope) (areas []cellarea.Area, wide bool) {
	host := at.Sheet
	toks := formulatok.Tokens(formula)
	local := LocalNames(toks)
	for i, tk := range toks {
		name, isFunction := formulatok.FunctionName(tk)
		switch {
		case isFunction && name == "ANCHORARRAY":
			spill, ok := scope.spillRead(toks, i, host)
			if !ok {
				return nil, true
			}
			areas = append(areas, spill) // its argument, the anchor, follows
		case isFunction:
			if Volatile(name) {
				return nil, true
			}
		case local != nil && local[i]:
			continue // a name of LET or LAMBDA
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange:
			if a, ok := cellarea.ParseArea(tk.TValue, host); ok {
				areas = append(areas, a)
				continue
			}
			named, ok := scope.resolve(tk.TValue, at, formula)
			if !ok {
				return nil, true
			}
			areas = append(areas, named...)
		case tk.TType == efp.TokenTypeUnknown:
			return nil, true
		}
	}
	return areas, false
}
