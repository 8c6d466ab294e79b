package tools

import (
	"archive/zip"
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/engine"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetread"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splicepath"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
)

// The details inspect_excel_files shows per sheet when include asks:
// freeze panes, column widths and conditional formats as the worksheet XML
// holds them, charts and pictures as its drawing anchors them. They are
// read from the package the inspection already opened (no second open,
// no excelize): the drawing as describe_workbook reads it, the worksheet
// XML in one streaming pass that stops at the cells unless conditional
// formats, which follow them, are asked for, and then skips the rows
// whole. Every list is capped per sheet; its count is always given.

// The include values of inspect_excel_files, in the order they are shown.
const (
	includeFreezePanes           = "freeze_panes"
	includeColumnWidths          = "column_widths"
	includeCharts                = "charts"
	includeImages                = "images"
	includeConditionalFormatting = "conditional_formatting"
)

// maxInspectedItems caps each detail list (charts, images, rules, column
// width ranges) of one sheet.
const maxInspectedItems = 20

var (
	rowEndTag       = []byte("</row>")
	sheetDataEndTag = []byte("</sheetData>")
)

// sheetDetails are what the worksheet XML holds of the details.
type sheetDetails struct {
	freeze *pyjson.Object // nil: no frozen panes
	widths pyjson.Object  // column or "C:F" range → width
	rules  []any          // conditional format rules, at most maxInspectedItems
	nRules int            // every rule
}

// inspectDetails are the fields include asks for of worksheet name, whose
// part is zf.
func inspectDetails(b *engine.Book, name string, zf *zip.File, include []string) (pyjson.Object, error) {
	var d sheetDetails
	if zf != nil && (slices.Contains(include, includeFreezePanes) || slices.Contains(include, includeColumnWidths) ||
		slices.Contains(include, includeConditionalFormatting)) {
		var err error
		if d, err = readSheetDetails(b, name, zf, slices.Contains(include, includeConditionalFormatting)); err != nil {
			return nil, err
		}
	}
	var charts, images []any
	if slices.Contains(include, includeCharts) || slices.Contains(include, includeImages) {
		charts, images = drawingAnchors(b, zf)
	}
	var o pyjson.Object
	for _, key := range []string{includeFreezePanes, includeColumnWidths, includeCharts, includeImages, includeConditionalFormatting} {
		if !slices.Contains(include, key) {
			continue
		}
		switch key {
		case includeFreezePanes:
			var v any
			if d.freeze != nil {
				v = *d.freeze
			}
			o = append(o, pyjson.Field{Key: key, Value: v})
		case includeColumnWidths:
			widths := d.widths
			if widths == nil {
				widths = pyjson.Object{}
			}
			shown := min(len(widths), maxInspectedItems)
			o = cappedField(o, key, len(widths), shown, widths[:shown])
		case includeCharts:
			o = cappedField(o, key, len(charts), min(len(charts), maxInspectedItems), firstItems(charts))
		case includeImages:
			o = cappedField(o, key, len(images), min(len(images), maxInspectedItems), firstItems(images))
		case includeConditionalFormatting:
			o = cappedField(o, key, d.nRules, len(d.rules), firstItems(d.rules))
		}
	}
	return o, nil
}

// cappedField adds key_count (n), key (items, the first shown of n) and,
// when shown is less than n, key_truncated to o.
func cappedField(o pyjson.Object, key string, n, shown int, items any) pyjson.Object {
	o = append(o, pyjson.Field{Key: key + "_count", Value: n}, pyjson.Field{Key: key, Value: items})
	if shown < n {
		o = append(o, pyjson.Field{Key: key + "_truncated", Value: true})
	}
	return o
}

// firstItems is items cut to maxInspectedItems, never nil.
func firstItems(items []any) []any {
	if items == nil {
		return []any{}
	}
	return items[:min(len(items), maxInspectedItems)]
}

// readSheetDetails reads the freeze panes, column widths and (when rules)
// the conditional formats of the worksheet part zf.
func readSheetDetails(b *engine.Book, name string, zf *zip.File, rules bool) (sheetDetails, error) {
	rc, err := zf.Open()
	if err != nil {
		return sheetDetails{}, failure.New(failure.KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	d, err := sheetDetailsOf(b.Svc.Limits.NewRunBound(sheetread.FailingReader{Reader: rc}, fmt.Sprintf("sheet %q", name)), rules)
	if err != nil {
		if failure.KindOf(err) != "" {
			return d, err
		}
		return d, failure.New(failure.KindDamaged, fmt.Sprintf("file is damaged: cannot read sheet %q: %v", name, err), err)
	}
	return d, nil
}

// sheetDetailsOf reads worksheet XML: the first sheet view's pane, the
// <cols> widths, and when rules the <conditionalFormatting> elements after
// the cells (those of an extension list, which openpyxl and older Excel
// ignore too, are not counted).
func sheetDetailsOf(r io.Reader, rules bool) (sheetDetails, error) {
	var (
		d                sheetDetails
		z                = sheetxml.New(r)
		inView, viewSeen bool // in the first <sheetView>; one was seen
		inExt            int
		sqref            []byte
		rule             pyjson.Object
		formulas         []any
		inFormula        bool
		text             []byte
		dec              sheetxml.TextDecoder
	)
	for {
		t, err := z.Next()
		if errors.Is(err, io.EOF) {
			return d, nil
		}
		if err != nil {
			return d, err
		}
		if t.Kind == sheetxml.Text {
			if inFormula {
				if text, err = dec.Append(text, t.Raw); err != nil {
					return d, err
				}
			}
			continue
		}
		if t.Kind == sheetxml.Special {
			continue
		}
		open := t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty
		switch string(t.Name) {
		case "extLst":
			if t.Kind == sheetxml.Start {
				inExt++
			} else if t.Kind == sheetxml.End && inExt > 0 {
				inExt--
			}
		case "sheetView":
			switch {
			case open && !viewSeen:
				inView, viewSeen = t.Kind == sheetxml.Start, true
			case t.Kind == sheetxml.End:
				inView = false
			}
		case "pane":
			if open && inView && d.freeze == nil {
				d.freeze = frozenPane(t)
			}
		case "col":
			if open && t.Attr("width") != nil {
				d.widths = append(d.widths, colWidth(t))
			}
		case "sheetData":
			if t.Kind != sheetxml.Start {
				break
			}
			if !rules {
				return d, nil
			}
			if err := skipRows(z); err != nil {
				return d, err
			}
		case "conditionalFormatting":
			if open && inExt == 0 {
				sqref = append(sqref[:0], t.Attr("sqref")...)
			}
		case "cfRule":
			if inExt > 0 {
				break
			}
			if open {
				rule, formulas = cfRule(t, sqref), nil
				if t.Kind == sheetxml.Empty {
					d.addRule(rule, nil)
				}
			} else if t.Kind == sheetxml.End {
				d.addRule(rule, formulas)
			}
		case "formula":
			if inExt > 0 {
				break
			}
			switch t.Kind {
			case sheetxml.Start:
				inFormula, text, dec = true, text[:0], sheetxml.TextDecoder{}
			case sheetxml.End:
				if err := dec.Finish(); err != nil {
					return d, err
				}
				inFormula, formulas = false, append(formulas, string(text))
			case sheetxml.Empty:
				formulas = append(formulas, "")
			}
		}
	}
}

// skipRows passes the rows of <sheetData> up to its end, whole rows at a
// time where it can.
func skipRows(z *sheetxml.Tokenizer) error {
	for {
		if raw, ok := z.PeekThrough(rowEndTag, splicepath.MaxSkippedRow); ok && !bytes.Contains(raw, sheetDataEndTag) {
			z.Skip(len(raw))
			continue
		}
		t, err := z.Next()
		if err != nil {
			return err // io.EOF too: the cells never end
		}
		if t.Is(sheetxml.End, "sheetData") {
			return nil
		}
	}
}

// addRule keeps rule (with its formulas) while fewer than
// maxInspectedItems are kept, and counts it.
func (d *sheetDetails) addRule(rule pyjson.Object, formulas []any) {
	d.nRules++
	if len(d.rules) >= maxInspectedItems {
		return
	}
	if formulas != nil {
		rule = append(rule, pyjson.Field{Key: "formulas", Value: formulas})
	}
	d.rules = append(d.rules, rule)
}

// frozenPane is the freeze of a <pane> tag, nil when it freezes nothing
// (a split that is not frozen, or no split).
func frozenPane(t sheetxml.Token) *pyjson.Object {
	state := string(t.Attr("state"))
	x, y := sheetxml.Uint(t.Attr("xSplit")), sheetxml.Uint(t.Attr("ySplit"))
	if (state != "frozen" && state != "frozenSplit") || (x <= 0 && y <= 0) {
		return nil
	}
	return &pyjson.Object{
		{Key: "top_left_cell", Value: grid.CellName(x+1, y+1)},
		{Key: "frozen_rows", Value: y},
		{Key: "frozen_columns", Value: x},
	}
}

// colWidth is a <col> tag's width, keyed by its column ("C") or columns
// ("C:F").
func colWidth(t sheetxml.Token) pyjson.Field {
	lo, hi := max(sheetxml.Uint(t.Attr("min")), 1), sheetxml.Uint(t.Attr("max"))
	key := grid.ColumnName(lo)
	if hi > lo {
		key += ":" + grid.ColumnName(min(hi, grid.LastCol))
	}
	w, err := strconv.ParseFloat(string(t.Attr("width")), 64)
	var v any = w
	if err != nil {
		v = nil
	}
	return pyjson.Field{Key: key, Value: v}
}

// cfRule is a <cfRule> tag as a rule of the list: the range it covers, its
// type and, when given, its operator.
func cfRule(t sheetxml.Token, sqref []byte) pyjson.Object {
	o := pyjson.Object{
		{Key: "range", Value: string(sheetxml.Unescape(sqref))},
		{Key: "type", Value: string(t.Attr("type"))},
	}
	if op := t.Attr("operator"); op != nil {
		o = append(o, pyjson.Field{Key: "operator", Value: string(op)})
	}
	return o
}
