package sheetread

import (
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formularef"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/formulatext"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// FormulaMode is how a read shows formula cells (read_excel's formulas
// argument).
type FormulaMode int

// The formula modes; the zero value is the default.
const (
	// formulasValues: the cached value; the formula text ("=...") when the
	// cell has none, never a silent null.
	formulasValues FormulaMode = iota
	// formulasText: the formula text ("=...") of every formula cell.
	formulasText
	// formulasBoth: {"formula": "=...", "value": cached value or null}.
	formulasBoth
)

// ParseFormulaMode decodes read_excel's formulas argument ("" is values).
func ParseFormulaMode(s string) (FormulaMode, error) {
	switch s {
	case "", "values":
		return formulasValues, nil
	case "formulas":
		return formulasText, nil
	case "both":
		return formulasBoth, nil
	}
	return 0, failure.Invalid("formulas must be \"values\", \"formulas\" or \"both\", got %q", s)
}

// sharedFormula is the first cell of a shared formula: its text and place.
type sharedFormula struct {
	text     string
	col, row int
}

// formula returns the finished cell's formula text ("" for none), as Excel
// shows it (without the _xlfn. prefixes of newer functions). The
// first cell of a shared formula is remembered, so a later cell of the same
// formula (which holds only its si) gets the text with its relative
// references moved to its place, as Excel derives it.
func (rr *RowReader) formula() string {
	c := &rr.W.Cell
	if !c.Formula {
		return ""
	}
	text := formulatext.WithoutFilePrefixes(string(sheetxml.Unescape(c.FormulaText)))
	if c.SharedIndex < 0 {
		return text
	}
	if text != "" {
		if rr.shared == nil {
			rr.shared = map[int]sharedFormula{}
		}
		rr.shared[c.SharedIndex] = sharedFormula{text: text, col: c.Col, row: c.Row}
		return text
	}
	m, ok := rr.shared[c.SharedIndex]
	if !ok {
		return ""
	}
	moved, _ := formularef.Translate(m.text, c.Row-m.row, c.Col-m.col)
	return moved
}

// storeFormula stores a formula cell as the mode says: the formula text, or
// with both an object holding the formula and the cached value (text, of
// the cell's type; null when empty).
func (rr *RowReader) storeFormula(col int, formula string, text []byte, both bool) error {
	if rr.encode {
		idx := col - rr.c1
		if !rr.pad(idx) {
			return nil
		}
		if !both {
			rr.Enc = pyjson.AppendString(rr.Enc, formula)
			return nil
		}
		rr.Enc = append(rr.Enc, `{"formula": `...)
		rr.Enc = pyjson.AppendString(rr.Enc, formula)
		rr.Enc = append(rr.Enc, `, "value": `...)
		if len(text) == 0 && !rr.emptyText() {
			rr.Enc = append(rr.Enc, "null"...)
		} else if err := rr.appendValue(text); err != nil {
			return err
		}
		rr.Enc = append(rr.Enc, '}')
		return nil
	}
	if !both {
		rr.put(col, formula)
		return nil
	}
	var v any
	if len(text) > 0 || rr.emptyText() {
		var err error
		if v, err = rr.cellValue(col, text); err != nil {
			return err
		}
	}
	rr.put(col, pyjson.Object{{Key: "formula", Value: formula}, {Key: "value", Value: v}})
	return nil
}
