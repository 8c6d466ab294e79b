// Package dates reads dates as openpyxl (the peer the Python agents compare
// with) reads them: which cell styles of a workbook format numbers as dates
// (styles.xml's cellXfs and number formats, openpyxl 3.1's is_date_format
// and is_timedelta_format), and the isoformat() text of the datetime or
// time openpyxl's from_excel builds from a serial day number.
//
//	isDate, err := dates.ParseStyles(stylesXML)
//	st := &dates.Styles{IsDate: isDate, Date1904: false}
//	if st.IsDateStyle(s) { iso, ok := dates.SerialISO(45322.5, st.Date1904) }
//
// ARCHITECTURE.md at the repository root places it in the package map.
package dates

import (
	"encoding/xml"
	"math"
	"strconv"
	"strings"
	"time"
)

// Dates: a numeric cell whose style has a date/time number format holds a
// serial day count. read_excel returns it the way openpyxl (the peer the
// Python agents compare with) would, as the isoformat() text of the
// datetime or time openpyxl builds; everything here mirrors openpyxl 3.1's
// styles/numbers.py (is_date_format, is_timedelta_format, BUILTIN_FORMATS)
// and utils/datetime.py (from_excel).
//
// Decisions where a JSON payload cannot carry openpyxl's value, or where
// openpyxl itself gives up:
//   - duration formats ("[h]:mm:ss", builtin 46): openpyxl returns a
//     timedelta, which has no isoformat(); the serial stays a number.
//   - negative serials (openpyxl: a date before 1899-12-30, which Excel
//     shows as ####) and serials past 9999-12-31 (openpyxl: "#VALUE!")
//     stay numbers.
//   - builtin ids 27-36 and 50-58 (CJK locale dates) are not in
//     openpyxl's builtin table, so openpyxl returns their numbers; so do we.

// Styles tells which cell styles (cellXfs indexes) format numbers as
// dates, and which date system the workbook uses. It describes the package
// as on disk.
type Styles struct {
	// IsDate is by style index; nil when no style is a date style.
	IsDate []bool
	// Date1904 is workbookPr date1904: serials count from 1904-01-01.
	Date1904 bool
}

// IsDateStyle reports whether the cell style i (the s attribute, 0 when
// absent, as openpyxl reads it) is a date style.
func (ds *Styles) IsDateStyle(i int) bool {
	return i >= 0 && i < len(ds.IsDate) && ds.IsDate[i]
}

// ParseStyles decodes styles.xml and classifies every cellXfs entry by
// its number format, as openpyxl's Stylesheet._normalise_numbers does: a
// custom <numFmt> with the style's numFmtId wins, else openpyxl's builtin
// table. It returns nil when no style is a (non-duration) date style.
func ParseStyles(data []byte) ([]bool, error) {
	var ss struct {
		NumFmts []struct {
			ID   int    `xml:"numFmtId,attr"`
			Code string `xml:"formatCode,attr"`
		} `xml:"numFmts>numFmt"`
		Xfs []struct {
			NumFmtID int `xml:"numFmtId,attr"`
		} `xml:"cellXfs>xf"`
	}
	if err := xml.Unmarshal(data, &ss); err != nil {
		return nil, err
	}
	custom := make(map[int]string, len(ss.NumFmts))
	for _, nf := range ss.NumFmts {
		custom[nf.ID] = nf.Code
	}
	var out []bool
	for i, xf := range ss.Xfs {
		code, ok := custom[xf.NumFmtID]
		if !ok {
			code, ok = builtinFormats[xf.NumFmtID]
		}
		if ok && IsDateCode(code) {
			if out == nil {
				out = make([]bool, len(ss.Xfs))
			}
			out[i] = true
		}
	}
	return out, nil
}

// Builtin returns the code of a builtin number format id that can be a
// date format (openpyxl's table; see builtinFormats), ok false for the
// others.
func Builtin(id int) (code string, ok bool) {
	code, ok = builtinFormats[id]
	return code, ok
}

// IsDateCode reports whether numbers formatted with code read as dates or
// times in openpyxl: a date format that is not a duration.
func IsDateCode(code string) bool { return isDateFormat(code) && !isDurationFormat(code) }

// builtinFormats is openpyxl's BUILTIN_FORMATS restricted to the codes
// is_date_format accepts (the others are never dates). Ids Excel reserves
// for locale dates (27-36, 50-58) are absent there, so they are here too.
var builtinFormats = map[int]string{
	14: "mm-dd-yy", 15: "d-mmm-yy", 16: "d-mmm", 17: "mmm-yy",
	18: "h:mm AM/PM", 19: "h:mm:ss AM/PM", 20: "h:mm", 21: "h:mm:ss",
	22: "m/d/yy h:mm", 45: "mm:ss", 46: "[h]:mm:ss", 47: "mmss.0",
}

// isDateFormat is openpyxl's is_date_format: in the first section of the
// code, with quoted literals and [...] groups (other than [h] [hh] [m]
// [mm] [s] [ss]) removed, some d m h y or s (either case) not preceded by
// '_' or '\'.
func isDateFormat(code string) bool {
	code, _, _ = strings.Cut(code, ";")
	prev := byte(0)
	for i := 0; i < len(code); i++ {
		if end := strippedGroup(code, i); end > i {
			i = end - 1 // the group vanishes: prev stays what preceded it
			continue
		}
		c := code[i]
		if prev != '_' && prev != '\\' && strings.IndexByte("dmhysDMHYS", c) >= 0 {
			return true
		}
		prev = c
	}
	return false
}

// strippedGroup returns the end of the group openpyxl's STRIP_RE removes at
// code[i] (a "..." literal on one line, or a [...] group that is not an
// elapsed-time [h]/[hh]/[m]/[mm]/[s]/[ss]), or i when none starts there.
func strippedGroup(code string, i int) int {
	switch code[i] {
	case '"':
		if j := strings.IndexAny(code[i+1:], "\"\n"); j >= 0 && code[i+1+j] == '"' {
			return i + j + 2
		}
	case '[':
		rest := code[i+1:]
		for _, keep := range []string{"h]", "hh]", "m]", "mm]", "s]", "ss]"} {
			if strings.HasPrefix(rest, keep) {
				return i
			}
		}
		if j := strings.IndexByte(rest, ']'); j >= 0 {
			return i + j + 2
		}
	}
	return i
}

// isDurationFormat is openpyxl's is_timedelta_format: the first section
// holds an elapsed-time group [h] [hh] [m] [mm] [s] or [ss] (any case).
func isDurationFormat(code string) bool {
	code, _, _ = strings.Cut(code, ";")
	code = strings.ToLower(code)
	for _, g := range []string{"[h]", "[hh]", "[m]", "[mm]", "[s]", "[ss]"} {
		if strings.Contains(code, g) {
			return true
		}
	}
	return false
}

// Date arithmetic of openpyxl's from_excel.
const (
	// msPerDay is the milliseconds of one day; from_excel rounds the
	// time of day to whole milliseconds.
	msPerDay = 86400 * 1000
	// maxDateSerial bounds serials worth converting: past it the date is
	// beyond 9999-12-31 in both systems (Python's datetime.max).
	maxDateSerial = 2958466
	// LeapBugSerial is the first serial after Excel's fictitious
	// 1900-02-29 (serial 60): below it the 1900 system is one day off.
	LeapBugSerial = 60
)

// Epoch is day 0 of the workbook's date system, as openpyxl defines it:
// 1899-12-30 in the 1900 system, 1904-01-01 in the 1904 system.
func Epoch(date1904 bool) time.Time {
	if date1904 {
		return time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	return time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
}

// SerialISO converts a date serial to the isoformat() text of the value
// openpyxl's from_excel returns: "HH:MM:SS[.ffffff]" (a time) for
// 0 <= v < 1, else "YYYY-MM-DDTHH:MM:SS[.ffffff]". ok is false for
// serials that stay numbers (negative, NaN, beyond year 9999).
func SerialISO(v float64, date1904 bool) (iso string, ok bool) {
	var tmp [len("2006-01-02T15:04:05.000000")]byte
	buf, ok := AppendSerialISO(tmp[:0], v, date1904)
	return string(buf), ok
}

// AppendSerialISO is SerialISO appending to dst (dst unchanged when !ok).
func AppendSerialISO(dst []byte, v float64, date1904 bool) ([]byte, bool) {
	if !(v >= 0) || v > maxDateSerial {
		return dst, false
	}
	day := math.Floor(v)
	frac := v - day // exact, as Python's divmod(v, 1)
	ms := int64(math.RoundToEven(frac * 86400 * 1000))
	if v < 1 && ms < msPerDay {
		return appendClock(dst, ms), true
	}
	epoch := Epoch(date1904)
	if !date1904 && v > 0 && v < LeapBugSerial {
		day++
	}
	t := epoch.AddDate(0, 0, int(day)).Add(time.Duration(ms) * time.Millisecond)
	if t.Year() > 9999 {
		return dst, false
	}
	dst = appendPadded(dst, t.Year(), 4)
	dst = append(dst, '-')
	dst = appendPadded(dst, int(t.Month()), 2)
	dst = append(dst, '-')
	dst = appendPadded(dst, t.Day(), 2)
	dst = append(dst, 'T')
	msOfDay := int64(t.Hour()*3600+t.Minute()*60+t.Second())*1000 + int64(t.Nanosecond()/int(time.Millisecond))
	return appendClock(dst, msOfDay), true
}

// appendClock appends a time of day given in milliseconds as Python's
// time.isoformat(): HH:MM:SS, plus .ffffff when there is a fraction.
func appendClock(buf []byte, ms int64) []byte {
	s := ms / 1000
	buf = appendPadded(buf, int(s/3600), 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, int(s/60%60), 2)
	buf = append(buf, ':')
	buf = appendPadded(buf, int(s%60), 2)
	if frac := ms % 1000; frac != 0 {
		buf = append(buf, '.')
		buf = appendPadded(buf, int(frac)*1000, 6)
	}
	return buf
}

// appendPadded appends n in decimal, zero-padded to width digits.
func appendPadded(buf []byte, n, width int) []byte {
	var tmp [20]byte
	d := strconv.AppendInt(tmp[:0], int64(n), 10)
	for i := len(d); i < width; i++ {
		buf = append(buf, '0')
	}
	return append(buf, d...)
}
