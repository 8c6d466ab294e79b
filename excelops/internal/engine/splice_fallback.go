package engine

import (
	"errors"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formuladeps"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/xuri/efp"
)

// ErrNoSplice says the splice path does not take this call (a missing
// file or sheet, a sheet that is not a plain worksheet, an edit the
// splicer refuses); the caller runs the excelize path, which also reports
// the proper error for a missing file or sheet.
var ErrNoSplice = errors.New("take the excelize path")

// spliceFallback is ErrNoSplice with the reason the splice path declined a
// call: a short text naming the kind of obstacle (never a cell's value or
// formula), logged when the excelize path takes over.
type spliceFallback struct{ reason string }

// Error returns the reason after ErrNoSplice's text.
func (e *spliceFallback) Error() string { return ErrNoSplice.Error() + ": " + e.reason }

// Is makes errors.Is(err, ErrNoSplice) hold for every fallback.
func (e *spliceFallback) Is(target error) bool { return target == ErrNoSplice }

// NoSplice returns ErrNoSplice carrying reason.
func NoSplice(reason string) error { return &spliceFallback{reason: reason} }

// fallbackReason returns the reason err carries, "unspecified" for a bare
// ErrNoSplice.
func fallbackReason(err error) string {
	var fb *spliceFallback
	if errors.As(err, &fb) {
		return fb.reason
	}
	return "unspecified"
}

// WideReason names what keeps the splice path's calculator from formula,
// as a fallback reason beginning with who: a volatile function, a
// reference other than plain cells (a defined name, a table, another
// workbook, several sheets), or a spill reference of no one cell; the
// kind, never the formula's text.
func WideReason(formula, who string) string {
	toks := formulatok.Tokens(formula)
	local := formuladeps.LocalNames(toks)
	for i, tk := range toks {
		name, isFunction := formulatok.FunctionName(tk)
		switch {
		case isFunction:
			if formuladeps.Volatile(name) {
				return who + " calls a volatile function"
			}
		case local != nil && local[i]:
			continue // a name of LET or LAMBDA
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange:
			if _, ok := cellarea.ParseArea(tk.TValue, ""); ok {
				continue
			}
			v := tk.TValue
			switch {
			case strings.Contains(v, "[") && strings.Contains(v, "!"):
				return who + " reads another workbook"
			case strings.Contains(v, "["):
				return who + " holds a structured reference"
			case strings.Contains(v, "!") && strings.Contains(v[:strings.LastIndex(v, "!")], ":"):
				return who + " holds a 3-D reference"
			default:
				return who + " reads a defined name"
			}
		case tk.TType == efp.TokenTypeUnknown:
			return who + " does not tokenize"
		}
	}
	if formuladeps.ReadsSpill(formula) {
		return who + " reads a spill reference it cannot resolve"
	}
	return who + " may read any cell"
}
