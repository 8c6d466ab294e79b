package formulatext

import (
	"strings"

	"github.com/xuri/efp"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatok"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// WithFilePrefixes returns formula (without its "=") as a file must hold
// it: spill references (C3#) as _xlfn.ANCHORARRAY(C3), the @ operator as
// _xlfn.SINGLE (single.go), and every call of
// a function newer than Excel 2007 spelled with its prefix (TEXTJOIN( -> _xlfn.TEXTJOIN(, FILTER( -> _xlfn._xlws.FILTER(), as
// Excel itself stores them; without it Excel and LibreOffice show #NAME?.
// Names already prefixed, text in double quotes and quoted sheet names are
// left as they are; function names are matched case-insensitively and
// written in upper case. The names a LET or LAMBDA binds get Excel's
// _xlpm. prefix wherever the formula spells them (LET(x,2,x*3) ->
// _xlfn.LET(_xlpm.x,2,_xlpm.x*3)), a call of one too (LET(f,LAMBDA(...),
// f(3))). A function named bare where a LAMBDA is due, in a formula calling
// one that takes it (GROUPBY(A2:A9,B2:B9,SUM)), gets Excel's _xleta.
// prefix. funcs are Excel's function names (upper case, without prefixes),
// each with the prefix a file spells it with ("" for the functions of Excel
// 2007).
func WithFilePrefixes(formula string, funcs map[string]string) string {
	params := BoundNames(formula)
	formula = withSingleCalls(formula) // @A1:A10 -> _xlfn.SINGLE(A1:A10)
	eta := mayTakeLambda(formula) && formulatok.CallsAny(formula, takesLambda)
	return withAnchorArrays(rewriteNames(formula, func(name string, call bool) string {
		up := strings.ToUpper(name)
		if _, known := funcs[up]; params[up] && !(call && known) {
			return "_xlpm." + name
		}
		if !call {
			if _, known := funcs[up]; known && eta && !isCellName(up) {
				return etaPrefix + up
			}
			return name
		}
		if prefix := funcs[up]; prefix != "" {
			return prefix + up
		}
		return name
	}))
}

// BoundNames returns the names the LETs and LAMBDAs of formula bind (upper
// case, LambdaParams), none when it has neither.
func BoundNames(formula string) map[string]bool {
	up := strings.ToUpper(formula)
	if !strings.Contains(up, "LET(") && !strings.Contains(up, "LAMBDA(") {
		return nil
	}
	ps := efp.ExcelParser()
	return LambdaParams(ps.Parse("=" + formula))
}

// WithoutFilePrefixes returns formula as Excel shows it: the file prefixes
// of newer functions (_xlfn., _xlws.), of LET and LAMBDA names (_xlpm.)
// and of functions named as LAMBDAs (_xleta.) dropped, outside text in
// quotes, ANCHORARRAY(C3) shown as the spill reference C3# and
// SINGLE(A1:A10) as @A1:A10.
func WithoutFilePrefixes(formula string) string {
	if !strings.Contains(strings.ToLower(formula), "_xl") {
		return formula
	}
	formula = withAtSigns(formula) // _xlfn.SINGLE(A1:A10) -> @A1:A10
	return withSpillRefs(rewriteNames(formula, func(name string, call bool) string {
		if lower := strings.ToLower(name); strings.HasPrefix(lower, "_xlpm.") {
			return name[len("_xlpm."):]
		} else if strings.HasPrefix(lower, etaPrefix) {
			return name[len(etaPrefix):]
		}
		for {
			lower := strings.ToLower(name)
			if !call || !(strings.HasPrefix(lower, "_xlfn.") || strings.HasPrefix(lower, "_xlws.")) {
				return name
			}
			name = name[len("_xlfn."):]
		}
	}))
}

// rewriteNames returns formula with every run of name characters (a
// function name, reference or defined name) replaced by fn(run, call), call
// telling whether "(" follows; text in double quotes and quoted sheet names
// are copied as they are.
func rewriteNames(formula string, fn func(name string, call bool) string) string {
	var out strings.Builder
	n := len(formula)
	changed := false
	for i := 0; i < n; {
		c := formula[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < n {
				if formula[j] == c {
					if j+1 < n && formula[j+1] == c {
						j += 2
						continue
					}
					break
				}
				j++
			}
			j = min(j+1, n)
			out.WriteString(formula[i:j])
			i = j
		case isNameChar(c):
			j := i
			for j < n && isNameChar(formula[j]) {
				j++
			}
			name := formula[i:j]
			repl := fn(name, j < n && formula[j] == '(')
			changed = changed || repl != name
			out.WriteString(repl)
			i = j
		default:
			out.WriteByte(c)
			i++
		}
	}
	if !changed {
		return formula
	}
	return out.String()
}

// isNameChar reports whether c can be part of a function name, a
// reference or a defined name (a prefixed name such as _xlfn.CONCAT reads
// as one run, so it is never prefixed twice).
func isNameChar(c byte) bool {
	return c == '_' || c == '.' || c == '$' || c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

// etaPrefix is the file prefix of a function named bare as a LAMBDA
// (_xleta.SUM).
const etaPrefix = "_xleta."

// takesLambda reports whether the function name (upper case, without file
// prefixes) takes a LAMBDA as an argument, which a bare function name can
// stand for.
func takesLambda(name string) bool {
	switch name {
	case "GROUPBY", "PIVOTBY", "MAP", "REDUCE", "SCAN", "BYROW", "BYCOL", "MAKEARRAY":
		return true
	}
	return false
}

// mayTakeLambda reports whether formula spells the call of a function
// taking a LAMBDA, before it is parsed to be sure.
func mayTakeLambda(formula string) bool {
	up := strings.ToUpper(formula)
	for _, name := range []string{"GROUPBY(", "PIVOTBY(", "MAP(", "REDUCE(", "SCAN(", "BYROW(", "BYCOL(", "MAKEARRAY("} {
		if strings.Contains(up, name) {
			return true
		}
	}
	return false
}

// isCellName reports whether name is an A1 cell (LOG10 is a cell before it
// is a function).
func isCellName(name string) bool {
	_, _, err := excelize.CellNameToCoordinates(name)
	return err == nil
}

// LambdaParams returns the names a LET or LAMBDA of formula binds (upper
// case, without a _xlpm. prefix): LET's names are its odd arguments before
// the last, LAMBDA's every argument before the last. A name counts when it
// stands alone as the argument.
func LambdaParams(toks []efp.Token) map[string]bool {
	params := map[string]bool{}
	type fn struct {
		name string
		arg  int
	}
	var stack []fn
	var sig []efp.Token // the tokens without whitespace
	for _, tk := range toks {
		if tk.TType != efp.TokenTypeWhitespace {
			sig = append(sig, tk)
		}
	}
	for i, tk := range sig {
		switch {
		case tk.TSubType == efp.TokenSubTypeStart && (tk.TType == efp.TokenTypeFunction || tk.TType == efp.TokenTypeSubexpression):
			name := strings.ToUpper(tk.TValue)
			for _, p := range []string{"_XLFN._XLWS.", "_XLFN.", "_XLWS."} {
				name = strings.TrimPrefix(name, p)
			}
			stack = append(stack, fn{name: name})
		case tk.TSubType == efp.TokenSubTypeStop && len(stack) > 0:
			stack = stack[:len(stack)-1]
		case tk.TType == efp.TokenTypeArgument && len(stack) > 0:
			stack[len(stack)-1].arg++
		case tk.TType == efp.TokenTypeOperand && tk.TSubType == efp.TokenSubTypeRange && len(stack) > 0:
			top := stack[len(stack)-1]
			alone := i > 0 && (sig[i-1].TType == efp.TokenTypeArgument || sig[i-1].TSubType == efp.TokenSubTypeStart) &&
				i+1 < len(sig) && sig[i+1].TType == efp.TokenTypeArgument
			if alone && (top.name == "LAMBDA" || (top.name == "LET" && top.arg%2 == 0)) {
				params[strings.TrimPrefix(strings.ToUpper(tk.TValue), "_XLPM.")] = true
			}
		}
	}
	return params
}
