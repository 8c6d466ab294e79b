package splicepath

import (
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Copying a workbook's cells into the recalc splice's calculator workbook
// (scratch.go): which cells, and each one's calculator element.

// areaSet is a set of areas of one sheet, tested cell by cell.
type areaSet struct {
	areas []cellarea.Area
	box   cellarea.Area // their bounding box
}

// newAreaSet returns the set of areas (at least one).
func newAreaSet(areas []cellarea.Area) areaSet { return areaSet{areas, boundingBox(areas)} }

// has reports whether the cell (row, col) lies in one of the areas.
func (s areaSet) has(row, col int) bool {
	if row < s.box.R1 || row > s.box.R2 || col < s.box.C1 || col > s.box.C2 {
		return false
	}
	for _, a := range s.areas {
		if row >= a.R1 && row <= a.R2 && col >= a.C1 && col <= a.C2 {
			return true
		}
	}
	return false
}

// cellCopier turns the cells of a workbook's sheets into calculator cells,
// counting them against maxScratchCells and their bytes against
// maxScratchBytes: a shared string is copied into every cell that uses it,
// so 100,000 cells sharing one 32,767-character string would be 3 GiB of
// copies.
type cellCopier struct {
	sb     *Book
	sst    []string // the shared strings, loaded when first needed
	copied int
	bytes  int64 // of the copied cells' elements
}

// copy returns the calculator cell of c; formula is its formula text
// (a shared member's translated) when it holds one.
func (cp *cellCopier) copy(c *sheetxml.Cell, formula string) (scratchCell, error) {
	if cp.copied++; cp.copied > maxScratchCells {
		return scratchCell{}, engine.NoSplice("the calculator would copy too many cells")
	}
	out := scratchCell{row: c.Row, col: c.Col}
	switch {
	case c.Formula && c.Meta && string(c.FormulaType) == "array" && len(c.FormulaRef) > 0:
		out.body = anchorBody(formula, string(c.Type), c.Value, string(c.FormulaRef))
	case c.Formula:
		out.body = formulaBody(formula, string(c.Type), c.Value)
	case string(c.Type) == "s":
		if cp.sst == nil {
			var err error
			if cp.sst, err = cp.sb.StreamBook().SharedStrings(); err != nil {
				return out, err
			}
		}
		n, err := strconv.Atoi(string(c.Value))
		if err != nil || n < 0 || n >= len(cp.sst) {
			return out, engine.NoSplice("a cell points at a shared string that does not exist") // the excelize path reports the damage
		}
		if cp.bytes+int64(len(cp.sst[n])) > maxScratchBytes {
			return out, engine.NoSplice("the cells the calculator reads hold too much text") // the excelize path shares the strings
		}
		out.body = inlineBody(sheetxml.AppendEscaped(make([]byte, 0, len(cp.sst[n])), excelize.EscapeXstring(cp.sst[n])))
	case string(c.Type) == "inlineStr":
		out.body = inlineBody(c.Value)
	case string(c.Type) == "d":
		return out, engine.NoSplice("a cell the calculator reads is a typed date") // a typed date: excelize reads it through its number format
	default:
		out.body = valueBody(string(c.Type), c.Value)
	}
	if cp.bytes += int64(len(out.body)); cp.bytes > maxScratchBytes {
		return out, engine.NoSplice("the cells the calculator reads hold too much text") // the excelize path shares the strings
	}
	return out, nil
}

// earlyCopy is what the scan of one sheet copied for the calculator before
// the formulas to compute were known: the cells of the areas the written
// formulas read (most writes need no more, and skip a second pass).
type earlyCopy struct {
	in    areaSet
	cells []scratchCell
}

// covers reports whether every one of areas lies within one area the scan
// copied.
func (e *earlyCopy) covers(areas []cellarea.Area) bool {
	for _, a := range areas {
		inside := false
		for _, b := range e.in.areas {
			if a.R1 >= b.R1 && a.R2 <= b.R2 && a.C1 >= b.C1 && a.C2 <= b.C2 {
				inside = true
				break
			}
		}
		if !inside {
			return false
		}
	}
	return true
}

// boundingBox is the smallest area holding every one of areas (one sheet).
func boundingBox(areas []cellarea.Area) cellarea.Area {
	b := areas[0]
	for _, a := range areas[1:] {
		b.R1, b.C1, b.R2, b.C2 = min(b.R1, a.R1), min(b.C1, a.C1), max(b.R2, a.R2), max(b.C2, a.C2)
	}
	return b
}

// formulaBody is a calculator cell holding formula (unescaped) with the
// cell type t and raw cached value v of the cell it copies: excelize
// recomputes every formula it reads, and resultKind reads the type.
func formulaBody(formula, t string, v []byte) []byte {
	var b []byte
	if t != "" {
		b = append(append(append(b, ` t="`...), t...), '"')
	}
	b = append(b, "><f>"...)
	b = sheetxml.AppendEscaped(b, formula)
	b = append(b, "</f>"...)
	if len(v) > 0 {
		b = append(append(append(b, "<v>"...), v...), "</v>"...)
	}
	return append(b, "</c>"...)
}

// anchorBody is formulaBody for a dynamic array anchor spilling over ref,
// written as the workbook holds it (cm, <f t="array" ref=...>): the
// calculator resolves a spill reference (A1#) through it, and leaves the
// values of its range to the cells that hold them.
func anchorBody(formula, t string, v []byte, ref string) []byte {
	b := []byte(` cm="1"`)
	if t != "" {
		b = append(append(append(b, ` t="`...), t...), '"')
	}
	b = append(append(append(b, `><f t="array" ref="`...), ref...), `">`...)
	b = sheetxml.AppendEscaped(b, formula)
	b = append(b, "</f>"...)
	if len(v) > 0 {
		b = append(append(append(b, "<v>"...), v...), "</v>"...)
	}
	return append(b, "</c>"...)
}

// inlineBody is a calculator cell holding the (escaped) text.
func inlineBody(text []byte) []byte {
	b := append([]byte(nil), ` t="inlineStr"><is><t xml:space="preserve">`...)
	b = append(b, text...)
	return append(b, "</t></is></c>"...)
}

// valueBody is a calculator cell of type t holding the raw value v.
func valueBody(t string, v []byte) []byte {
	var b []byte
	if t != "" {
		b = append(append(append(b, ` t="`...), t...), '"')
	}
	if len(v) == 0 {
		return append(b, "/>"...)
	}
	b = append(append(append(b, "><v>"...), v...), "</v>"...)
	return append(b, "</c>"...)
}

// scratchBody is the calculator cell of a written value: as the excelize
// path leaves it before computing (a new formula is t="str", as
// SetCellFormula marks it); nil for a cleared cell.
func (cc cellContent) scratchBody() []byte {
	switch cc.kind {
	case 0:
		return nil
	case 'n':
		return valueBody("", []byte(cc.text))
	case 'b':
		return valueBody("b", []byte(cc.text))
	case 'e':
		return valueBody("e", sheetxml.AppendEscaped(nil, cc.text))
	case 'f':
		if cc.array != "" {
			return anchorBody(cc.formula, cc.cachedType, sheetxml.AppendEscaped(nil, cc.cachedValue), cc.array)
		}
		return formulaBody(cc.formula, "str", nil)
	}
	return inlineBody(sheetxml.AppendEscaped(nil, excelize.EscapeXstring(cc.text)))
}
