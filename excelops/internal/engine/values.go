package engine

import (
	"strings"
	"time"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/dates"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/failure"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/grid"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/recalc"
	"github.com/registry-sidecar/registry-sidecar/excelops/internal/vocab"
	"github.com/registry-sidecar/registry-sidecar/third_party/excelize"
)

// What write_cells stores for each JSON value, decided and checked before
// the workbook is touched so that a bad value anywhere in a block writes
// nothing:
//   - value_types "auto" (the default): strings starting with "=" are
//     formulas, plain decimal strings numbers (see CellValue), ISO-8601
//     dates, times and datetimes ("2024-01-01", "13:45:00",
//     "2024-01-01T13:45:00", with a space for the T as well, no time zone)
//     real Excel dates with a date number format, and a leading apostrophe
//     keeps the rest as text exactly, as Excel does when one types '2024-01-01.
//   - value_types "text": every string is stored as text, unchanged.
// Dates Excel cannot show (before 1900-01-01, or before 1904-01-01 in a
// workbook on the 1904 date system) stay text, as Excel keeps them.

// Values of write_cells' value_types.
const (
	ValueTypesAuto = "auto"
	ValueTypesText = "text"
)

// DateKind says which of date, time and datetime a written string held.
type DateKind int

const (
	NotDate DateKind = iota
	KindDate
	KindTime
	KindDateTime
)

// Number formats applied to written dates, as openpyxl applies them to
// the date, time and datetime values it writes.
var dateFormats = map[DateKind]string{
	KindDate:     "yyyy-mm-dd",
	KindTime:     "h:mm:ss",
	KindDateTime: "yyyy-mm-dd h:mm:ss",
}

// isoLayouts are the ISO-8601 forms a string may take to become a date,
// with the kind each gives. Fractions of a second are optional.
var isoLayouts = []struct {
	layout string
	kind   DateKind
}{
	{"2006-01-02", KindDate},
	{"2006-01-02T15:04:05.999999999", KindDateTime},
	{"2006-01-02 15:04:05.999999999", KindDateTime},
	{"2006-01-02T15:04", KindDateTime},
	{"2006-01-02 15:04", KindDateTime},
	{"15:04:05.999999999", KindTime},
	{"15:04", KindTime},
}

// ParseISODate recognises an ISO-8601 date, time or datetime.
func ParseISODate(s string) (time.Time, DateKind) {
	if len(s) < len("1:00") || len(s) > len("2006-01-02T15:04:05.999999999") || s[0] < '0' || s[0] > '9' {
		return time.Time{}, NotDate
	}
	for _, l := range isoLayouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return t, l.kind
		}
	}
	return time.Time{}, NotDate
}

// CellWrite is one cell of a write, converted and checked.
type CellWrite struct {
	Col, Row int
	Raw      any       // the JSON value, stored by setCell (when text and date are unset)
	Text     *string   // store exactly this text
	When     time.Time // the date, time or datetime to store (kind != notDate)
	Kind     DateKind
	Formula  string              // the formula without its "=" ("" for a value)
	refs     *recalc.FormulaRefs // the formula's references to check in the workbook (nil: none)
}

// PlanCell converts the JSON value v for the cell (col, row) under
// valueTypes and checks it against Excel's limits.
func PlanCell(col, row int, v any, valueTypes string) (CellWrite, error) {
	w := CellWrite{Col: col, Row: row, Raw: v}
	ref := grid.CellName(col, row)
	if s, ok := v.(string); ok {
		switch {
		case valueTypes == ValueTypesText:
			w.Text = &s
		case strings.HasPrefix(s, "'"):
			rest := s[1:]
			w.Text = &rest
		default:
			if t, kind := ParseISODate(strings.TrimSpace(s)); kind != NotDate {
				w.When, w.Kind = t, kind
				return w, nil
			}
		}
		if w.Text != nil {
			return w, grid.CheckText(ref, *w.Text)
		}
	}
	val, formula, err := CellValue(v)
	if err != nil {
		return w, err
	}
	if formula != "" {
		if err := grid.CheckFormula(ref, formula); err != nil {
			return w, err
		}
		toks, err := recalc.FormulaTokens(ref, formula)
		if err != nil {
			return w, err
		}
		w.Formula, w.refs = formula, recalc.FormulaRefsOf(toks)
		return w, nil
	}
	if s, ok := val.(string); ok {
		return w, grid.CheckText(ref, s)
	}
	return w, nil
}

// ExcelSerial converts t to an Excel serial day number as openpyxl's
// to_excel does (the inverse of dates.SerialISO): a time of day alone is the
// fraction of a day; a date counts days from the epoch of the workbook's
// date system, with the 1900 system's fictitious 1900-02-29. ok is false
// for dates before the epoch, which Excel cannot show.
func ExcelSerial(t time.Time, kind DateKind, date1904 bool) (float64, bool) {
	micros := int64(t.Hour()*3600+t.Minute()*60+t.Second())*1_000_000 + int64(t.Nanosecond()/1000)
	frac := float64(micros) / 1e6 / 86400
	if kind == KindTime {
		return frac, true
	}
	epoch := dates.Epoch(date1904)
	day := time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
	days := int((day.Unix() - epoch.Unix()) / 86400) // time.Duration would overflow past 292 years
	switch {
	case date1904 && days < 0, !date1904 && days < 2: // before 1904-01-01 / 1900-01-01
		return 0, false
	case !date1904 && days <= dates.LeapBugSerial:
		days--
	}
	return float64(days) + frac, true
}

// DateWriter stores dates into one workbook: it knows the date system and
// reuses the styles it derives within the call.
type DateWriter struct {
	f        *excelize.File
	Date1904 bool
	derived  map[[2]int]int // (base style, kind) -> style with a date format
	isDate   map[int]bool   // style -> has a date format openpyxl reads as a date
}

// StylesDateWriter is the DateWriter of a workbook whose styles f holds,
// in the date system date1904 says (the splice path's style table).
func StylesDateWriter(f *excelize.File, date1904 bool) *DateWriter {
	return &DateWriter{f: f, Date1904: date1904, derived: map[[2]int]int{}, isDate: map[int]bool{}}
}

// NewDateWriter reads the workbook's date system.
func (b *Book) NewDateWriter() (*DateWriter, error) {
	props, err := b.f.GetWorkbookProps()
	if err != nil {
		return nil, failure.New(failure.KindDamaged, "file is damaged: workbook properties: "+err.Error(), err)
	}
	return StylesDateWriter(b.f, props.Date1904 != nil && *props.Date1904), nil
}

// Put stores w (planned by planCell) into sheet. A date is stored as its
// serial; a cell whose style has no date format gets the style with the
// kind's format laid over it, a cell already formatted as a date keeps its
// format. kind reports what was stored.
func (d *DateWriter) Put(sheet string, w CellWrite) (stored DateKind, err error) {
	ref := grid.CellName(w.Col, w.Row)
	switch {
	case w.Text != nil:
		if err := d.f.SetCellStr(sheet, ref, *w.Text); err != nil {
			return NotDate, failure.New(failure.KindInvalidArgument, "cannot write "+ref+": "+err.Error(), err)
		}
		return NotDate, nil
	case w.Kind == NotDate:
		return NotDate, setCell(d.f, sheet, w.Col, w.Row, w.Raw)
	}
	serial, ok := ExcelSerial(w.When, w.Kind, d.Date1904)
	if !ok {
		// Before the epoch: Excel keeps such a date as text.
		s := w.Raw.(string)
		if err := d.f.SetCellStr(sheet, ref, s); err != nil {
			return NotDate, failure.New(failure.KindInvalidArgument, "cannot write "+ref+": "+err.Error(), err)
		}
		return NotDate, nil
	}
	if err := d.f.SetCellFloat(sheet, ref, serial, -1, 64); err != nil {
		return NotDate, failure.New(failure.KindInvalidArgument, "cannot write "+ref+": "+err.Error(), err)
	}
	base, err := d.f.GetCellStyle(sheet, ref)
	if err != nil {
		return NotDate, failure.New(failure.KindInvalidArgument, "cannot read the style of "+ref+": "+err.Error(), err)
	}
	id, err := d.DateStyle(base, w.Kind)
	if err != nil || id == base {
		return w.Kind, err
	}
	if err := d.f.SetCellStyle(sheet, ref, ref, id); err != nil {
		return NotDate, failure.New(failure.KindInvalidArgument, "cannot style "+ref+": "+err.Error(), err)
	}
	return w.Kind, nil
}

// DateStyle returns the style a date of kind takes in a cell styled base:
// base itself when it already formats numbers as dates, else base with the
// kind's number format laid over it (an identical existing style is
// reused). The splice path shares it, so both paths style dates alike.
func (d *DateWriter) DateStyle(base int, kind DateKind) (int, error) {
	isDate, err := d.StyleIsDate(base)
	if err != nil || isDate {
		return base, err
	}
	key := [2]int{base, int(kind)}
	id, ok := d.derived[key]
	if !ok {
		st, err := d.f.GetStyle(base)
		if err != nil {
			return 0, failure.New(failure.KindDamaged, "file is damaged: style table: "+err.Error(), err)
		}
		code := dateFormats[kind]
		vocab.NormalizeColors(st)
		st.NumFmt, st.CustomNumFmt, st.DecimalPlaces = 0, &code, nil
		if id, err = d.f.NewStyle(st); err != nil {
			return 0, failure.New(failure.KindInvalidArgument, "cannot add a date style: "+err.Error(), err)
		}
		d.derived[key] = id
	}
	return id, nil
}

// StyleIsDate reports whether the style formats numbers as dates or times
// the way openpyxl recognises them (see dates.IsDateCode).
func (d *DateWriter) StyleIsDate(id int) (bool, error) {
	if v, ok := d.isDate[id]; ok {
		return v, nil
	}
	st, err := d.f.GetStyle(id)
	if err != nil {
		return false, failure.New(failure.KindDamaged, "file is damaged: style table: "+err.Error(), err)
	}
	code, ok := dates.Builtin(st.NumFmt)
	if st.CustomNumFmt != nil {
		code, ok = *st.CustomNumFmt, true
	}
	v := ok && dates.IsDateCode(code)
	d.isDate[id] = v
	return v, nil
}
