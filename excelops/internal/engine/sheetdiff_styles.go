package engine

import (
	"fmt"
	"strings"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/pyjson"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// The styles half of compare_excel (ignore_style false): the cells of the
// shared columns of the header and of every pair of matched rows are
// compared by style id first; a pair of ids is resolved into the attributes
// read_cell_styles reports only when the ids alone cannot tell (one style
// table: different ids; two: always), each id once per workbook and each
// pair of ids once per call. A workbook's style table is opened with
// excelize only on its first resolution.

// Indexes into styleAttrs, in the order differences are listed.
const (
	attrFontName = iota
	attrFontSize
	attrBold
	attrItalic
	attrUnderline
	attrStrike
	attrFontColor
	attrFillColor
	attrBorderLeft // the six border sides follow in styleAttrNames' order
	attrBorderRight
	attrBorderTop
	attrBorderBottom
	attrBorderDiagonalUp
	attrBorderDiagonalDown
	attrHorizontal
	attrVertical
	attrWrap
	attrNumFmt
	attrNumFmtID
	styleAttrCount
)

// styleAttrNames are the attributes compared, named after read_cell_styles'
// report (font.bold is its font's bold).
var styleAttrNames = [styleAttrCount]string{
	"font.name", "font.size", "font.bold", "font.italic", "font.underline", "font.strike", "font.color",
	"fill.color",
	"border.left", "border.right", "border.top", "border.bottom", "border.diagonalUp", "border.diagonalDown",
	"alignment.horizontal", "alignment.vertical", "alignment.wrap_text",
	"number_format", "number_format_id",
}

// styleAttrs is one style's attributes, by index: a string, number or
// bool, or nil where the style sets none.
type styleAttrs [styleAttrCount]any

// numberFormatCodes are the format codes of the builtin number formats as
// openpyxl names them (its BUILTIN_FORMATS), so a builtin format reads as
// the code openpyxl shows; an id not here is reported as number_format_id.
var numberFormatCodes = map[int]string{
	0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00",
	5: `"$"#,##0_);("$"#,##0)`, 6: `"$"#,##0_);[Red]("$"#,##0)`,
	7: `"$"#,##0.00_);("$"#,##0.00)`, 8: `"$"#,##0.00_);[Red]("$"#,##0.00)`,
	9: "0%", 10: "0.00%", 11: "0.00E+00", 12: "# ?/?", 13: "# ??/??",
	14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy",
	18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss", 22: "m/d/yy h:mm",
	37: "#,##0_);(#,##0)", 38: "#,##0_);[Red](#,##0)",
	39: "#,##0.00_);(#,##0.00)", 40: "#,##0.00_);[Red](#,##0.00)",
	41: `_(* #,##0_);_(* \(#,##0\);_(* "-"_);_(@_)`,
	42: `_("$"* #,##0_);_("$"* \(#,##0\);_("$"* "-"_);_(@_)`,
	43: `_(* #,##0.00_);_(* \(#,##0.00\);_(* "-"??_);_(@_)`,
	44: `_("$"* #,##0.00_)_("$"* \(#,##0.00\)_("$"* "-"??_)_(@_)`,
	45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0", 48: "##0.0E+0", 49: "@",
}

// flattenStyle is st's attributes. Colours are "RRGGBB" (alpha dropped,
// upper case); a style without a font, border side or alignment reads as
// the defaults (not bold, no border, no wrap).
func flattenStyle(st *excelize.Style) styleAttrs {
	var out styleAttrs
	cp := *st
	vocab.NormalizeColors(&cp)
	out[attrBold], out[attrItalic], out[attrStrike], out[attrWrap] = false, false, false, false
	if f := cp.Font; f != nil {
		out[attrFontName], out[attrFontSize] = nonZero(f.Family), nonZero(f.Size)
		out[attrUnderline], out[attrFontColor] = nonZero(f.Underline), nonZero(strings.ToUpper(f.Color))
		out[attrBold], out[attrItalic], out[attrStrike] = f.Bold, f.Italic, f.Strike
	}
	if cp.Fill.Type == "pattern" && len(cp.Fill.Color) > 0 {
		out[attrFillColor] = nonZero(strings.ToUpper(cp.Fill.Color[0]))
	}
	for _, b := range cp.Border {
		for i := attrBorderLeft; i <= attrBorderDiagonalDown; i++ {
			if styleAttrNames[i] == "border."+b.Type {
				out[i] = vocab.BorderStyleName(b.Style)
			}
		}
	}
	if a := cp.Alignment; a != nil {
		out[attrHorizontal], out[attrVertical], out[attrWrap] = nonZero(a.Horizontal), nonZero(a.Vertical), a.WrapText
	}
	switch code, ok := numberFormatCodes[cp.NumFmt]; {
	case cp.CustomNumFmt != nil:
		out[attrNumFmt] = *cp.CustomNumFmt
	case ok:
		out[attrNumFmt] = code
	default:
		out[attrNumFmtID] = cp.NumFmt
	}
	return out
}

// nonZero is v, or nil when v is its type's zero.
func nonZero[T comparable](v T) any {
	var zero T
	if v == zero {
		return nil
	}
	return v
}

// StyleSide is one workbook's style table as compare_excel resolves it:
// the parts styleBook reads, opened on the first resolution.
type StyleSide struct {
	svc   *Engine
	name  string // the workbook, for errors
	parts []byte // styleParts of the workbook
	sig   string // what identifies its style table (see styleTableSig)
	F     *excelize.File
	Cache map[int32]*styleAttrs
}

// BookStyleSide copies what b's styles are read from, so they can be resolved
// once b is closed.
func BookStyleSide(b *Book) (*StyleSide, error) {
	parts, err := b.styleParts()
	if err != nil {
		return nil, err
	}
	return &StyleSide{svc: b.Svc, name: b.Name(), parts: parts, sig: styleTableSig(b), Cache: map[int32]*styleAttrs{}}, nil
}

// styleTableSig identifies b's style table by the checksums and sizes of
// its styles and theme parts: two packages with the same one give one id
// one style. It is empty when b has no such part (its table is elsewhere,
// or there is none), and an empty one identifies nothing.
func styleTableSig(b *Book) string {
	var sig strings.Builder
	for _, zf := range b.Zr.File {
		name := strings.ToLower(zf.Name)
		if strings.HasPrefix(name, "xl/styles") || strings.HasPrefix(name, "xl/theme/") {
			fmt.Fprintf(&sig, "%s:%08x:%d;", name, zf.CRC32, zf.UncompressedSize64)
		}
	}
	return sig.String()
}

// attrs is the style id's attributes, resolved once; an id past the style
// table reads as no style (excelize's reader ignores it too).
func (s *StyleSide) attrs(id int32) (*styleAttrs, error) {
	if a, ok := s.Cache[id]; ok {
		return a, nil
	}
	if s.F == nil {
		f, err := s.svc.openStyleParts(s.parts, s.name)
		if err != nil {
			return nil, err
		}
		s.F, s.parts = f, nil
	}
	st, err := s.F.GetStyle(int(id))
	if err != nil {
		st = &excelize.Style{}
	}
	a := flattenStyle(st)
	s.Cache[id] = &a
	return &a, nil
}

// close closes the style table when it was opened.
func (s *StyleSide) close() {
	if s.F != nil {
		_ = s.F.Close()
		s.F = nil
	}
}

// StyleComparer compares the styles of cells of sheet A with those of
// cells of sheet B.
type StyleComparer struct {
	a, b      *StyleSide
	SameTable bool               // one style table: equal ids are one style
	Pairs     map[[2]int32][]any // differences by pair of ids, at most maxStylePairs
}

// maxStylePairs caps the pairs of style ids whose differences are kept:
// past it the cache starts again (each id stays resolved).
const maxStylePairs = 1 << 16

// NewStyleComparer compares styles of a's workbook with styles of b's.
func NewStyleComparer(a, b *StyleSide) *StyleComparer {
	return &StyleComparer{a: a, b: b, SameTable: a.sig != "" && a.sig == b.sig, Pairs: map[[2]int32][]any{}}
}

// Close closes both style tables.
func (sc *StyleComparer) Close() {
	sc.a.close()
	sc.b.close()
}

// Diff lists the attributes in which style ia of A and style ib of B
// differ, as {"attribute", "old", "new"} objects; nil when none.
func (sc *StyleComparer) Diff(ia, ib int32) ([]any, error) {
	if ia == ib && sc.SameTable {
		return nil, nil
	}
	k := [2]int32{ia, ib}
	if d, ok := sc.Pairs[k]; ok {
		return d, nil
	}
	xa, err := sc.a.attrs(ia)
	if err != nil {
		return nil, err
	}
	xb, err := sc.b.attrs(ib)
	if err != nil {
		return nil, err
	}
	var out []any
	for i, name := range styleAttrNames {
		if xa[i] != xb[i] {
			out = append(out, pyjson.Object{{Key: "attribute", Value: name}, {Key: "old", Value: xa[i]}, {Key: "new", Value: xb[i]}})
		}
	}
	if len(sc.Pairs) >= maxStylePairs {
		clear(sc.Pairs)
	}
	sc.Pairs[k] = out
	return out, nil
}

// matchedColumns are the header names both sheets share, with their column
// indexes in each.
type matchedColumns struct {
	names []string
	a, b  map[string]int
}

// rowStyles is the style ids of data row i (nil when none is styled or
// styles were not read).
func (t *DiffTable) rowStyles(i int) []int32 {
	if i < len(t.Styles) {
		return t.Styles[i]
	}
	return nil
}

// styleAt is the style id at index i of styles, 0 past its end.
func styleAt(styles []int32, i int) int32 {
	if i < len(styles) {
		return styles[i]
	}
	return 0
}

// styleRow compares the styles of the shared columns' cells of row rowA of
// A (ids sa) and row rowB of B (ids sb) and lists a style_changed entry
// when some differ; lead are the fields after its type (the key, or the
// header mark). A nil sc compares nothing.
func (d *SheetDiff) styleRow(sc *StyleComparer, cols matchedColumns, sa, sb []int32, rowA, rowB int, lead ...pyjson.Field) error {
	if sc == nil {
		return nil
	}
	var ch []any
	for _, n := range cols.names {
		ca, cb := cols.a[n], cols.b[n]
		attrs, err := sc.Diff(styleAt(sa, ca), styleAt(sb, cb))
		if err != nil {
			return err
		}
		if len(attrs) == 0 {
			continue
		}
		ch = append(ch, pyjson.Object{
			{Key: "column", Value: n},
			{Key: "cell_a", Value: grid.CellName(ca+1, rowA)},
			{Key: "cell_b", Value: grid.CellName(cb+1, rowB)},
			{Key: "attributes", Value: attrs}})
	}
	if len(ch) == 0 {
		return nil
	}
	d.RowsStyled++
	d.CellsStyled += len(ch)
	e := append(diffEntry{{Key: "type", Value: "style_changed"}}, lead...)
	d.Diffs = append(d.Diffs, append(e, pyjson.Field{Key: "row_a", Value: rowA}, pyjson.Field{Key: "row_b", Value: rowB}, pyjson.Field{Key: "changes", Value: ch}))
	return nil
}
