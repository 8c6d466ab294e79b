package formularef

import (
	"strings"

	"github.com/xuri/efp"
)

// reference is one reference operand of a formula, split into its parts:
// an optional workbook prefix ([1] or [Book.xlsx]), an optional sheet (or a
// 3-D span of sheets) and the area. A reference whose area is not A1
// notation (a defined name, a table column) has parsed false and keeps
// its text in rest; its sheet prefix is still renamed or broken.
type reference struct {
	book           string // external workbook prefix, e.g. "[1]"; such references are never rewritten
	sheet1, sheet2 string // sheet2 is set for a 3-D reference Sheet1:Sheet3!A1
	hasSheet       bool
	area           area
	parsed         bool
	rest           string // the area text when not parsed
	broken         bool   // the reference became #REF!
}

// parseReference splits the value of an efp range operand (quotes already
// removed by efp, ” already undone).
func parseReference(v string) reference {
	var r reference
	text := v
	if i := strings.LastIndexByte(v, '!'); i >= 0 {
		prefix := v[:i]
		text = v[i+1:]
		r.hasSheet = true
		if strings.HasPrefix(prefix, "[") {
			if j := strings.IndexByte(prefix, ']'); j > 0 {
				r.book, prefix = prefix[:j+1], prefix[j+1:]
			}
		}
		r.sheet1 = prefix
		if a, b, ok := strings.Cut(prefix, ":"); ok && r.book == "" {
			r.sheet1, r.sheet2 = a, b
		}
	}
	if a, ok := parseArea(text); ok {
		r.area, r.parsed = a, true
	} else {
		r.rest = text
	}
	return r
}

// String renders the reference as formula text.
func (r reference) String() string {
	if r.broken {
		return RefError
	}
	var b strings.Builder
	if r.hasSheet {
		sheet := r.sheet1
		if r.sheet2 != "" {
			sheet += ":" + r.sheet2
		}
		if r.book != "" || strings.Contains(sheet, ":") {
			b.WriteString("'" + strings.ReplaceAll(r.book+sheet, "'", "''") + "'")
		} else {
			b.WriteString(QuoteSheet(sheet))
		}
		b.WriteByte('!')
	}
	if r.parsed {
		b.WriteString(r.area.String())
	} else {
		b.WriteString(r.rest)
	}
	return b.String()
}

// onSheet reports whether the reference points into sheet, the formula
// living on host: an explicit single-sheet prefix naming it, or no prefix
// on host itself. External and 3-D references never match.
func (r reference) onSheet(sheet, host string) bool {
	if r.book != "" || r.sheet2 != "" {
		return false
	}
	if r.hasSheet {
		return strings.EqualFold(r.sheet1, sheet)
	}
	return strings.EqualFold(host, sheet)
}

// rewrite tokenizes formula, lets fn change each reference operand (fn
// reports whether it changed it) and renders the formula back when
// something changed. The leading "=" is kept as the input had it. A formula
// efp cannot tokenize cleanly is returned unchanged.
func rewrite(formula string, fn func(*reference) bool) (string, bool) {
	body := strings.TrimSpace(formula)
	eq := strings.HasPrefix(body, "=")
	if body == "" || body == "=" {
		return formula, false
	}
	p := efp.ExcelParser()
	tokens := p.Parse(body)
	refs := make(map[int]reference)
	changed := false
	for i, t := range tokens {
		if t.TType == efp.TokenTypeUnknown {
			return formula, false
		}
		if t.TType == efp.TokenTypeOperand && t.TSubType == efp.TokenSubTypeRange {
			r := parseReference(t.TValue)
			if fn(&r) {
				changed = true
			}
			refs[i] = r
		}
	}
	if !changed {
		return formula, false
	}
	out, ok := render(tokens, refs)
	if !ok {
		return formula, false
	}
	if eq {
		out = "=" + out
	}
	return out, true
}

// render writes tokens back as formula text, reference operands from refs.
func render(tokens []efp.Token, refs map[int]reference) (string, bool) {
	const (
		fn = iota
		sub
		array
		arrayRow
	)
	var b strings.Builder
	var stack []int
	lastStop := -1
	for i, t := range tokens {
		stop := -1
		switch {
		case t.TType == efp.TokenTypeFunction && t.TSubType == efp.TokenSubTypeStart:
			switch {
			case t.TValue == "ARRAY" && i+1 < len(tokens) && tokens[i+1].TValue == "ARRAYROW" && tokens[i+1].TType == efp.TokenTypeFunction:
				b.WriteByte('{')
				stack = append(stack, array)
			case t.TValue == "ARRAYROW" && len(stack) > 0 && (stack[len(stack)-1] == array || lastStop == arrayRow):
				stack = append(stack, arrayRow)
			default:
				b.WriteString(t.TValue + "(")
				stack = append(stack, fn)
			}
		case t.TType == efp.TokenTypeSubexpression && t.TSubType == efp.TokenSubTypeStart:
			b.WriteByte('(')
			stack = append(stack, sub)
		case t.TSubType == efp.TokenSubTypeStop:
			kind := fn
			if len(stack) > 0 {
				kind, stack = stack[len(stack)-1], stack[:len(stack)-1]
			}
			switch kind {
			case array:
				b.WriteByte('}')
			case arrayRow:
			default:
				b.WriteByte(')')
			}
			stop = kind
		case t.TType == efp.TokenTypeArgument && lastStop == arrayRow:
			b.WriteByte(';')
		case t.TType == efp.TokenTypeOperand && t.TSubType == efp.TokenSubTypeText:
			b.WriteString(`"` + strings.ReplaceAll(t.TValue, `"`, `""`) + `"`)
		case t.TType == efp.TokenTypeOperand && t.TSubType == efp.TokenSubTypeRange:
			r, ok := refs[i]
			if !ok {
				return "", false
			}
			b.WriteString(r.String())
		case t.TType == efp.TokenTypeOperatorInfix && t.TSubType == efp.TokenSubTypeIntersection:
			b.WriteByte(' ')
		default:
			b.WriteString(t.TValue)
		}
		lastStop = stop
	}
	return b.String(), true
}

// Normalize returns formula as this package renders it when it rewrites
// it (whitespace dropped, sheet names quoted only where needed); tests and
// callers comparing formulas use it. ok is false when efp cannot tokenize
// the formula.
func Normalize(formula string) (string, bool) {
	out, changed := rewrite(formula, func(r *reference) bool {
		r.area = r.area.ordered()
		return true
	})
	if !changed {
		body := strings.TrimSpace(formula)
		return formula, body == "" || body == "=" || !hasUnknown(body)
	}
	return out, true
}

// hasUnknown reports whether efp meets a token it does not understand.
func hasUnknown(body string) bool {
	p := efp.ExcelParser()
	for _, t := range p.Parse(body) {
		if t.TType == efp.TokenTypeUnknown {
			return true
		}
	}
	return false
}
