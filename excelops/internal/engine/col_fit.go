package engine

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/splice"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// How write_cells widens a column, as Excel does when a user types a date
// or a formatted number into a column whose width was never set: the
// column grows to show the value instead of ###. Only numbers (dates are
// numbers) in cells with a number format count: a General number never
// shows ### (Excel and LibreOffice round it or switch to scientific
// notation). A column whose width is set (a <col> with a width) keeps it.

// Widths as the file stores them: characters of the default font's widest
// digit plus padding (Calibri 11: digits 7 pixels wide, 5 pixels of
// padding, so 8.43 characters show in the default 64-pixel column).
const (
	// DefaultColWidth is the stored width of a column none was set for
	// when the sheet names no default (sheetFormatPr).
	DefaultColWidth = 9.140625
	digitPixels     = 7
	paddingPixels   = 5
)

// fitWidth is the stored width of a column that shows chars characters,
// as Excel computes it (whole 1/256 of a character).
func fitWidth(chars int) float64 {
	return math.Trunc(float64(chars*digitPixels+paddingPixels)/digitPixels*256) / 256
}

// ColFitter measures what numbers show as under a number format, with
// excelize's formatter on a scratch workbook of its own; both write paths
// use it, so both widen alike.
type ColFitter struct {
	f      *excelize.File
	styles map[numFormat]int // format -> style of the scratch workbook
	need   map[int]float64
}

// numFormat is a style's number format: a built-in one by id, else a
// custom code; the zero value is General.
type numFormat struct {
	id   int
	code string
}

// NewColFitter starts measuring for one write.
func NewColFitter() *ColFitter { return &ColFitter{need: map[int]float64{}} }

// Widths returns the width each measured column needs, by column number.
func (c *ColFitter) Widths() map[int]float64 { return c.need }

// Close releases the scratch workbook.
func (c *ColFitter) Close() {
	if c.f != nil {
		_ = c.f.Close()
	}
}

// FormatOf is the number format a style of f applies (General for a style
// f cannot read).
func FormatOf(f *excelize.File, style int) numFormat {
	st, err := f.GetStyle(style)
	if err != nil {
		return numFormat{}
	}
	if st.CustomNumFmt != nil {
		if *st.CustomNumFmt == "General" {
			return numFormat{}
		}
		return numFormat{code: *st.CustomNumFmt}
	}
	return numFormat{id: st.NumFmt}
}

// number records that column col shows v under the format nf; General
// needs no room.
func (c *ColFitter) number(col int, v float64, nf numFormat) {
	if nf == (numFormat{}) {
		return
	}
	if c.f == nil {
		c.f, c.styles = excelize.NewFile(), map[numFormat]int{}
	}
	id, ok := c.styles[nf]
	if !ok {
		st := &excelize.Style{NumFmt: nf.id}
		if nf.code != "" {
			st.CustomNumFmt = &nf.code
		}
		var err error
		if id, err = c.f.NewStyle(st); err != nil {
			return // a format excelize cannot take: no widening
		}
		c.styles[nf] = id
	}
	if c.f.SetCellFloat("Sheet1", "A1", v, -1, 64) != nil || c.f.SetCellStyle("Sheet1", "A1", "A1", id) != nil {
		return
	}
	text, err := c.f.GetCellValue("Sheet1", "A1")
	if err != nil {
		return
	}
	if w := fitWidth(utf8.RuneCountInString(text)); w > c.need[col] {
		c.need[col] = w
	}
}

// NumberText records column col showing the number whose decimal text is
// s (as the splice path holds it).
func (c *ColFitter) NumberText(col int, s string, nf numFormat) {
	if nf == (numFormat{}) {
		return
	}
	if v, err := strconv.ParseFloat(s, 64); err == nil {
		c.number(col, v, nf)
	}
}

// FitColumns gives each column c measured the width it needs in sheet (the
// excelize path), where no width is set and the sheet's default is narrower.
func (b *Book) FitColumns(sheet string, c *ColFitter) error {
	if len(c.need) == 0 {
		return nil
	}
	props, err := b.f.GetSheetProps(sheet)
	if err != nil {
		return failure.New(failure.KindDamaged, "file is damaged: sheet properties: "+err.Error(), err)
	}
	var defWidth, base float64
	if props.DefaultColWidth != nil {
		defWidth = *props.DefaultColWidth
	}
	if props.BaseColWidth != nil {
		base = float64(*props.BaseColWidth)
	}
	def := splice.DefaultColWidth(defWidth, base)
	for col, w := range c.need {
		set, err := b.f.ColWidthSet(sheet, col)
		if err != nil || set {
			continue
		}
		name := grid.ColumnName(col)
		if w <= def {
			continue
		}
		if err := b.f.SetColWidth(sheet, name, name, w); err != nil {
			return failure.New(failure.KindInvalidArgument, "cannot widen column "+name+": "+err.Error(), err)
		}
	}
	return nil
}

// FitWritten records the room the number write_cells just stored for w
// (kind as dateWriter.put stored it) needs in its column (the excelize path).
func (b *Book) FitWritten(sheet string, w CellWrite, kind DateKind, fit *ColFitter) error {
	if w.Text != nil {
		return nil
	}
	if kind == NotDate {
		val, formula, err := CellValue(w.Raw)
		if err != nil || formula != "" {
			return err
		}
		switch val.(type) {
		case int64, float64:
		default:
			return nil
		}
	}
	ref := grid.CellName(w.Col, w.Row)
	style, err := b.f.GetCellStyle(sheet, ref)
	if err != nil {
		return failure.New(failure.KindInvalidArgument, "cannot read the style of "+ref+": "+err.Error(), err)
	}
	if style == 0 {
		return nil // as the splice path, which reads no style table for an unstyled cell
	}
	nf := FormatOf(b.f, style)
	if nf == (numFormat{}) {
		return nil
	}
	raw, err := b.f.GetCellValue(sheet, ref, excelize.Options{RawCellValue: true})
	if err != nil {
		return failure.New(failure.KindInvalidArgument, "cannot read "+ref+": "+err.Error(), err)
	}
	fit.NumberText(w.Col, raw, nf)
	return nil
}
