package formularef

import (
	"strings"

	"github.com/xuri/efp"
)

// Operand is one reference operand of a formula, as a reader of the
// formula sees it: a cell or area in A1 notation, a defined name, a
// structured (table) reference or a reference into another workbook.
type Operand struct {
	// Text is the operand as formula text (sheet names quoted where needed).
	Text string
	// Book is the external workbook prefix ("[1]" or "[Book.xlsx]"), "" for
	// this workbook.
	Book string
	// Sheet and Sheet2 are the sheets named before "!" (Sheet2 for a 3-D
	// span Sheet1:Sheet3!A1); both empty when the operand names none.
	Sheet, Sheet2 string
	// IsArea is true for A1 notation; Col1..Row2 are then the rectangle
	// (1-based, ordered), whole columns and rows spanning the grid.
	IsArea                 bool
	Col1, Row1, Col2, Row2 int
	// Rest is the text after the sheet when the operand is not A1 notation:
	// a defined name ("Rate") or a structured reference ("Sales[Amount]").
	Rest string
}

// IsStructured reports whether the operand is a structured (table)
// reference such as Sales[Amount] or [@Qty].
func (o Operand) IsStructured() bool { return !o.IsArea && strings.Contains(o.Rest, "[") }

// Operands returns the reference operands of formula in the order they
// appear. A structured reference efp splits at its inner comma
// (Sales[[#This Row],[Qty]]) is joined back into one operand. ok is false
// when efp meets a token it does not understand; the operands found are
// still returned.
func Operands(formula string) (out []Operand, ok bool) {
	body := strings.TrimSpace(formula)
	if body == "" || body == "=" {
		return nil, true
	}
	if !strings.HasPrefix(body, "=") {
		body = "=" + body
	}
	p := efp.ExcelParser()
	return OperandsOf(p.Parse(body))
}

// OperandsOf is Operands over the tokens efp made of a formula, for a
// caller that tokenized it already.
func OperandsOf(tokens []efp.Token) (out []Operand, ok bool) {
	ok = true
	for i := 0; i < len(tokens); i++ {
		t := tokens[i]
		if t.TType == efp.TokenTypeUnknown {
			ok = false
			continue
		}
		if t.TType != efp.TokenTypeOperand || t.TSubType != efp.TokenSubTypeRange {
			continue
		}
		v := t.TValue
		for depth := bracketDepth(v); depth > 0 && i+1 < len(tokens); depth = bracketDepth(v) {
			i++
			v += tokens[i].TValue
		}
		out = append(out, operandOf(parseReference(v)))
	}
	return out, ok
}

// bracketDepth is how many "[" of s are still open at its end.
func bracketDepth(s string) int {
	d := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			d++
		case ']':
			if d > 0 {
				d--
			}
		}
	}
	return d
}

// operandOf turns a parsed reference into an Operand.
func operandOf(r reference) Operand {
	o := Operand{Text: operandText(r), Book: r.book, Rest: r.rest}
	if r.hasSheet {
		o.Sheet, o.Sheet2 = r.sheet1, r.sheet2
	}
	if !r.parsed {
		return o
	}
	a := r.area.ordered()
	o.IsArea = true
	o.Col1, o.Row1, o.Col2, o.Row2 = a.c1.n, a.r1.n, a.c2.n, a.r2.n
	switch a.kind {
	case kindCols:
		o.Row1, o.Row2 = 1, MaxRows
	case kindRows:
		o.Col1, o.Col2 = 1, MaxCols
	}
	return o
}

// operandText renders r as Excel stores it: a prefix of a workbook or a
// 3-D span is quoted only when a sheet name needs it ([1]Data!A1,
// Jan:Mar!B2, '[1]My Data'!A1).
func operandText(r reference) string {
	if !r.hasSheet || (r.book == "" && r.sheet2 == "") {
		return r.String()
	}
	prefix := r.book + r.sheet1
	if r.sheet2 != "" {
		prefix += ":" + r.sheet2
	}
	if needsQuotes(r.sheet1) || (r.sheet2 != "" && needsQuotes(r.sheet2)) {
		prefix = "'" + strings.ReplaceAll(prefix, "'", "''") + "'"
	}
	r.hasSheet = false
	return prefix + "!" + r.String()
}
