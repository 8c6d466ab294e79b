package splicepath

import (
	"math"
	"strconv"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/cellarea"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// Splice plans of the cells tools: which cells each rebuilds and how.

// blockPlan is a plan over the rows r1..r2 whose columns cols(row) lists.
func blockPlan(r1, r2 int, cols func(row int) []int, cell func(dst []byte, row, col int, old *splice.OldCell, inherit int) ([]byte, error)) splice.Plan {
	rows := make([]int, 0, r2-r1+1)
	for r := r1; r <= r2; r++ {
		if len(cols(r)) > 0 {
			rows = append(rows, r)
		}
	}
	return splice.Plan{Rows: rows, Cols: cols, Cell: cell}
}

// span returns the columns c1..c2.
func span(c1, c2 int) []int {
	out := make([]int, 0, c2-c1+1)
	for c := c1; c <= c2; c++ {
		out = append(out, c)
	}
	return out
}

// WritePlan is write_cells' plan of the block anchor: each planned value
// goes to its cell; it also returns how many dates it stores as dates
// (pre-epoch ones stay text, as on the excelize path). A date whose cell
// style has no date format gets that style with the date format laid over
// it, through the same code as the excelize path (engine.DateWriter.DateStyle).
// Formulas are written with the file prefixes of newer functions, as the
// excelize path writes them. A write of values only is marked
// Plan.NoFormulas, so a sheet without formulas splices at once; a write
// that holds formulas, or meets formulas reading its cells, goes through
// the recalc splice (recalc.go), which finds the cached values
// and stores those of written formulas in sb.writes.
func WritePlan(sb *Book, sheet string, anchor cellarea.Range, plan []engine.CellWrite) (splice.Plan, int, error) {
	r1 := anchor.R1
	conv := map[[2]int]cellContent{}
	byRow := map[int][]int{}
	r2 := r1
	dates := 0
	for _, w := range plan {
		var cc cellContent
		switch {
		case w.Text != nil:
			cc = cellContent{kind: 's', text: *w.Text}
		case w.Kind != engine.NotDate:
			serial, ok := engine.ExcelSerial(w.When, w.Kind, sb.index.Date1904)
			if !ok {
				cc = cellContent{kind: 's', text: w.Raw.(string)} // before the epoch: text, as Excel keeps it
				break
			}
			cc = cellContent{kind: 'n', text: excelFloat(serial), date: w.Kind}
			dates++
		default:
			var err error
			if cc, err = contentOf(w.Raw); err != nil {
				return splice.Plan{}, 0, err
			}
		}
		if cc.kind == 's' && sheetread.ReadsAsEscape(cc.text) {
			return splice.Plan{}, 0, engine.NoSplice("a text reads as an _xHHHH_ escape") // internal/sheetread/escapes.go
		}
		if cc.kind == 'f' {
			cc.formula = recalc.WithFilePrefixes(cc.formula)
		}
		conv[[2]int{w.Row, w.Col}] = cc
		byRow[w.Row] = append(byRow[w.Row], w.Col)
		r2 = max(r2, w.Row)
	}
	var dw *engine.DateWriter
	fit := engine.NewColFitter()
	p := blockPlan(r1, r2, func(row int) []int { return byRow[row] }, func(dst []byte, row, col int, old *splice.OldCell, inherit int) ([]byte, error) {
		style := inherit
		if old != nil {
			style = old.Style
		}
		cc := conv[[2]int{row, col}]
		if cc.date != engine.NotDate {
			if dw == nil {
				st, err := sb.styleTable()
				if err != nil {
					return dst, err
				}
				dw = engine.StylesDateWriter(st.f, sb.index.Date1904)
			}
			id, err := dw.DateStyle(style, cc.date)
			if err != nil {
				return dst, err
			}
			sb.styles.after = max(sb.styles.after, id+1)
			style = id
		}
		if cc.kind == 'n' && style != 0 && !cc.spilled {
			st, err := sb.styleTable()
			if err != nil {
				return dst, err
			}
			fit.NumberText(col, cc.text, engine.FormatOf(st.f, style))
		}
		return cc.appendXML(dst, col, row, style), nil
	})
	p.FitWidths = fit.Widths()
	sb.fit = fit
	sb.writes = &cellWrites{area: cellarea.Area{Sheet: sheet, C1: anchor.C1, R1: anchor.R1, C2: anchor.C2, R2: anchor.R2}, cells: conv}
	p.NoFormulas = !sb.writes.hasFormulas()
	p.OutsideMerges = true // excelize writes a merged range's cells to its top-left one
	return p, dates, nil
}

// cellContent is one value of write_cells converted for the sheet XML.
type cellContent struct {
	kind    byte   // 'n' number, 'b' boolean, 's' string, 'e' error, 'f' formula, 0 clear
	text    string // the number's text, the string, or the formula
	formula string
	date    engine.DateKind // a number that is a date of this kind (needs a date style)
	// cachedType and cachedValue are a formula's cached result, as
	// recalc.ComputeFormula gives it (cachedValue "" for none, unless cachedType
	// is "str": an empty text).
	cachedType, cachedValue string
	// array is the spill range of a formula written as a dynamic array
	// anchor (<f t="array" ref=...>, cm pointing at the dynamic array
	// metadata), "" for an ordinary formula; cm is that pointer.
	array string
	cm    uint
	// spilled marks a value an anchor spilled (or a spilled value
	// cleared): not measured for column widths, as on the excelize path.
	spilled bool
}

// contentOf converts a JSON value as engine.CellValue (and the excelize path) does.
func contentOf(v any) (cellContent, error) {
	val, formula, err := engine.CellValue(v)
	if err != nil {
		return cellContent{}, err
	}
	if formula != "" {
		return cellContent{kind: 'f', formula: formula}, nil
	}
	switch t := val.(type) {
	case nil:
		return cellContent{}, nil
	case bool:
		if t {
			return cellContent{kind: 'b', text: "1"}, nil
		}
		return cellContent{kind: 'b', text: "0"}, nil
	case int64:
		return cellContent{kind: 'n', text: strconv.FormatInt(t, 10)}, nil
	case float64:
		return cellContent{kind: 'n', text: excelFloat(t)}, nil
	case string:
		return cellContent{kind: 's', text: t}, nil
	}
	return cellContent{}, failure.Invalid("cell values must be strings, numbers, booleans or null, got %T", v)
}

// appendXML appends the cell element. Strings are written inline
// (t="inlineStr"), so the shared string table is never rewritten; readers
// (Excel, LibreOffice, openpyxl, pandas) read both forms alike. A cleared
// cell keeps its style, as openpyxl and excelize keep it; a cleared cell
// without a style is removed.
func (cc cellContent) appendXML(dst []byte, col, row, style int) []byte {
	if cc.kind == 0 && style == 0 {
		return dst
	}
	dst = append(dst, `<c r="`...)
	dst = splice.AppendRef(dst, col, row)
	dst = append(dst, '"')
	if style != 0 {
		dst = append(dst, ` s="`...)
		dst = strconv.AppendInt(dst, int64(style), 10)
		dst = append(dst, '"')
	}
	switch cc.kind {
	case 0:
		return append(dst, "/>"...)
	case 'n':
		dst = append(dst, "><v>"...)
		dst = append(dst, cc.text...)
		return append(dst, "</v></c>"...)
	case 'b':
		dst = append(dst, ` t="b"><v>`...)
		dst = append(dst, cc.text...)
		return append(dst, "</v></c>"...)
	case 'e':
		dst = append(dst, ` t="e"><v>`...)
		dst = sheetxml.AppendEscaped(dst, cc.text)
		return append(dst, "</v></c>"...)
	case 'f':
		has := cc.cachedValue != "" || cc.cachedType == "str" // "str" with no text: an empty text
		if has && cc.cachedType != "" {
			dst = append(append(append(dst, ` t="`...), cc.cachedType...), '"')
		}
		if cc.array == "" {
			dst = append(dst, "><f>"...)
		} else {
			dst = append(dst, ` cm="`...)
			dst = strconv.AppendUint(dst, uint64(cc.cm), 10)
			dst = append(dst, `"><f t="array" ref="`...)
			dst = append(dst, cc.array...)
			dst = append(dst, `">`...)
		}
		dst = sheetxml.AppendEscaped(dst, cc.formula)
		dst = append(dst, "</f>"...)
		if has {
			dst = append(dst, "<v>"...)
			dst = sheetxml.AppendEscaped(dst, cc.cachedValue)
			dst = append(dst, "</v>"...)
		}
		return append(dst, "</c>"...)
	}
	dst = append(dst, ` t="inlineStr"><is><t`...)
	if strings.TrimSpace(cc.text) != cc.text {
		dst = append(dst, ` xml:space="preserve"`...)
	}
	dst = append(dst, '>')
	dst = sheetxml.AppendEscaped(dst, excelize.EscapeXstring(cc.text)) // _x0004_ for U+0004, as Excel writes it
	return append(dst, "</t></is></c>"...)
}

// FormatPlan is format_cells' plan: every cell of rng gets its style (or
// the style it would inherit) with sc laid over it.
func FormatPlan(sb *Book, rng cellarea.Range, sc *vocab.StyleChange) (splice.Plan, error) {
	st, err := sb.styleTable()
	if err != nil {
		return splice.Plan{}, err
	}
	derived := map[int]int{}
	cols := span(rng.C1, rng.C2)
	return blockPlan(rng.R1, rng.R2, func(int) []int { return cols }, func(dst []byte, row, col int, old *splice.OldCell, inherit int) ([]byte, error) {
		base := inherit
		if old != nil {
			base = old.Style
		}
		id, ok := derived[base]
		if !ok {
			var err error
			if id, err = st.derive(base, sc); err != nil {
				return dst, err
			}
			derived[base] = id
		}
		if old != nil {
			return splice.SetStyle(dst, old.Raw, id), nil
		}
		return cellContent{}.appendXML(dst, col, row, id), nil
	}), nil
}

// WidthPlan is adjust_column_width's plan: no cell changes, new widths.
func WidthPlan(widths map[int]float64) splice.Plan {
	return splice.Plan{Cols: func(int) []int { return nil }, Widths: widths}
}

// excelFloat renders v as the excelize path stores a float (SetCellFloat
// with automatic precision): the shortest decimal that reads back as v,
// cut (not rounded) to Excel's 15 significant digits, so both paths store
// the same number. excelize keeps its formatter unexported; the test
// checks this one against it.
func excelFloat(v float64) string {
	str := strconv.FormatFloat(v, 'f', -1, 64)
	if math.Abs(v) == math.MaxFloat64 || math.IsNaN(v) || math.IsInf(v, 0) {
		return str
	}
	const maxPrec = 15
	decimal := strings.IndexByte(str, '.')
	significant := 0
	for i := 0; i < len(str); i++ {
		if str[i] < '0' || str[i] > '9' || significant == 0 && str[i] == '0' {
			continue
		}
		if significant++; significant <= maxPrec {
			continue
		}
		if decimal >= 0 && i > decimal {
			return strings.TrimSuffix(str[:i], ".")
		}
		if decimal < 0 {
			decimal = len(str)
		}
		cut := []byte(str[:decimal])
		for ; i < len(cut); i++ {
			cut[i] = '0'
		}
		return string(cut)
	}
	return str
}
