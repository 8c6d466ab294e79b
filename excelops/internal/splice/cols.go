package splice

import (
	"bytes"
	"math"
	"sort"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// colEntry is one <col> element: its column span and its attributes in
// their original order (raw values).
type colEntry struct {
	min, max int
	attrs    [][2]string
}

// parseCol reads the attributes of a <col>.
func parseCol(attrs []byte) colEntry {
	e := colEntry{}
	rest := attrs
	for {
		rest = bytes.TrimLeft(rest, " \t\r\n/")
		eq := bytes.IndexByte(rest, '=')
		if eq <= 0 {
			break
		}
		name := string(bytes.TrimSpace(rest[:eq]))
		rest = bytes.TrimLeft(rest[eq+1:], " \t\r\n")
		if len(rest) == 0 || (rest[0] != '"' && rest[0] != '\'') {
			break
		}
		end := bytes.IndexByte(rest[1:], rest[0])
		if end < 0 {
			break
		}
		val := string(rest[1 : 1+end])
		rest = rest[2+end:]
		switch name {
		case "min":
			e.min = sheetxml.Uint([]byte(val))
		case "max":
			e.max = sheetxml.Uint([]byte(val))
		default:
			e.attrs = append(e.attrs, [2]string{name, val})
		}
	}
	if e.max < e.min {
		e.max = e.min
	}
	return e
}

// attr returns the raw value of attribute name of e.
func (e colEntry) attr(name string) string {
	for _, a := range e.attrs {
		if a[0] == name {
			return a[1]
		}
	}
	return ""
}

// with returns e with attribute name set to val (appended when absent).
func (e colEntry) with(name, val string) colEntry {
	out := colEntry{min: e.min, max: e.max, attrs: make([][2]string, 0, len(e.attrs)+1)}
	set := false
	for _, a := range e.attrs {
		if a[0] == name {
			a[1], set = val, true
		}
		out.attrs = append(out.attrs, a)
	}
	if !set {
		out.attrs = append(out.attrs, [2]string{name, val})
	}
	return out
}

// colStyle is the style of column c from <cols> (0 when none).
func (s *sheet) colStyle(c int) int {
	for _, e := range s.cols {
		if c >= e.min && c <= e.max {
			return sheetxml.Uint([]byte(e.attr("style")))
		}
	}
	return 0
}

// setWidths applies widths to the column entries: a column inside a span
// splits it, a column without an entry gets one.
func setWidths(cols []colEntry, widths map[int]float64) []colEntry {
	keys := make([]int, 0, len(widths))
	for c := range widths {
		keys = append(keys, c)
	}
	sort.Ints(keys)
	for _, c := range keys {
		w := strconv.FormatFloat(widths[c], 'f', -1, 64)
		var out []colEntry
		found := false
		for _, e := range cols {
			if c < e.min || c > e.max {
				out = append(out, e)
				continue
			}
			found = true
			if e.min < c {
				left := e
				left.max = c - 1
				out = append(out, left)
			}
			mid := e.with("width", w).with("customWidth", "1")
			mid.min, mid.max = c, c
			out = append(out, mid)
			if c < e.max {
				right := e
				right.min = c + 1
				out = append(out, right)
			}
		}
		if !found {
			out = append(out, colEntry{min: c, max: c, attrs: [][2]string{{"width", w}, {"customWidth", "1"}}})
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].min < out[j].min })
		cols = out
	}
	return cols
}

// appendCols renders <cols> with its entries.
func (s *sheet) appendCols(dst []byte, cols []colEntry) []byte {
	dst = append(append(append(dst, '<'), s.pfx...), "cols>"...)
	for _, e := range cols {
		dst = append(append(append(dst, '<'), s.pfx...), `col min="`...)
		dst = appendInt(dst, e.min)
		dst = append(dst, `" max="`...)
		dst = appendInt(dst, e.max)
		dst = append(dst, '"')
		for _, a := range e.attrs {
			dst = append(append(append(append(append(dst, ' '), a[0]...), `="`...), a[1]...), '"')
		}
		dst = append(dst, "/>"...)
	}
	return append(append(append(dst, "</"...), s.pfx...), "cols>"...)
}

// appendInt appends n in decimal.
func appendInt(dst []byte, n int) []byte { return strconv.AppendInt(dst, int64(n), 10) }

// finishHead returns the head with <dimension> set to the used range and
// <cols> rewritten when widths were planned.
func (s *sheet) finishHead() ([]byte, error) {
	type splice struct {
		at   [2]int
		with []byte
	}
	var edits []splice
	dim := append(append([]byte{'<'}, s.pfx...), `dimension ref="`...)
	if s.ext.MaxRow == 0 {
		dim = append(dim, "A1"...)
	} else {
		dim = AppendRef(dim, s.ext.MinCol, s.ext.MinRow)
		if s.ext.MinCol != s.ext.MaxCol || s.ext.MinRow != s.ext.MaxRow {
			dim = AppendRef(append(dim, ':'), s.ext.MaxCol, s.ext.MaxRow)
		}
	}
	dim = append(dim, `"/>`...)
	if s.dimAt[0] >= 0 && s.dimAt[1] >= s.dimAt[0] {
		edits = append(edits, splice{s.dimAt, dim})
	} else {
		edits = append(edits, splice{[2]int{s.dimIns, s.dimIns}, dim})
	}
	if widths := s.widths(); widths != nil {
		cols := s.appendCols(nil, setWidths(s.cols, widths))
		if s.colsAt[0] >= 0 && s.colsAt[1] >= s.colsAt[0] {
			edits = append(edits, splice{s.colsAt, cols})
		} else {
			edits = append(edits, splice{[2]int{len(s.head), len(s.head)}, cols})
		}
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].at[0] < edits[j].at[0] })
	out := make([]byte, 0, len(s.head)+256)
	pos := 0
	for _, e := range edits {
		out = append(out, s.head[pos:e.at[0]]...)
		out = append(out, e.with...)
		pos = e.at[1]
	}
	return append(out, s.head[pos:]...), nil
}

// excelDefaultColWidth is the stored width of a column when neither it nor
// the sheet names one (8.43 characters of Calibri 11 and padding).
const excelDefaultColWidth = 9.140625

// DefaultColWidth is the stored width of a sheet's columns without one of
// their own, from sheetFormatPr's defaultColWidth and baseColWidth (0 when
// absent): defaultColWidth when given; else baseColWidth characters of
// 7-pixel digits and 5 pixels of padding, rounded up to whole 8 pixels as
// Excel lays it out (8 gives the usual 9.140625); else Excel's default.
func DefaultColWidth(def, base float64) float64 {
	switch {
	case def > 0:
		return def
	case base > 0:
		px := math.Ceil((base*7+5)/8) * 8
		return math.Trunc(px/7*256) / 256
	}
	return excelDefaultColWidth
}

// sheetDefaultColWidth is DefaultColWidth of sheetFormatPr's raw attributes.
func sheetDefaultColWidth(def, base []byte) float64 {
	num := func(v []byte) float64 {
		n, err := strconv.ParseFloat(string(v), 64)
		if err != nil || n < 0 {
			return 0
		}
		return n
	}
	return DefaultColWidth(num(def), num(base))
}

// widths are the widths to set: Plan.Widths, and each of Plan.FitWidths
// whose column has no width of its own and needs more than the sheet's
// default (nil: none, <cols> stays as it is).
func (s *sheet) widths() map[int]float64 {
	def := s.defCol
	if def == 0 {
		def = excelDefaultColWidth
	}
	var out map[int]float64
	for c, w := range s.plan.FitWidths {
		if w <= def || s.colHasWidth(c) {
			continue
		}
		if out == nil {
			out = make(map[int]float64, len(s.plan.Widths)+len(s.plan.FitWidths))
		}
		out[c] = w
	}
	if out == nil {
		return s.plan.Widths
	}
	for c, w := range s.plan.Widths {
		out[c] = w
	}
	return out
}

// colHasWidth reports whether a <col> gives column c a width.
func (s *sheet) colHasWidth(c int) bool {
	for _, e := range s.cols {
		if c >= e.min && c <= e.max && e.attr("width") != "" {
			return true
		}
	}
	return false
}
