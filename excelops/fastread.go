package excelops

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"io"
	"math"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/errorsjson"
)

// rowReader streams cell values out of worksheet XML without building a
// DOM: a byte-level tag scanner (like scanSheet) that keeps the text of
// <v> and <t> elements. It is several times faster than an encoding/xml
// decoder and holds one row at a time.
type rowReader struct {
	br     *bufio.Reader
	sst    []string
	c1, c2 int // column window (1-based, inclusive); c2 == 0 means no right edge

	row            int
	col            int
	typ            []byte
	text           []byte
	inText, inCell bool
	vals           []any
	closed         bool

	// dates says which styles are dates (nil: none are); date is whether
	// the current cell has one.
	dates *dateStyles
	date  bool

	// maxText bounds one cell's text (Limits.MaxCellTextBytes); sheet
	// names the sheet in errors.
	maxText int
	sheet   string
	// lastRow is the number of the row before this one in file order, and
	// stopAtRow asks walk to end (errStop) at the next row start, after
	// checking that row is in order: a read stops one row after its last.
	lastRow   int
	stopAtRow bool

	// encode mode: cells go straight into enc as JSON array items
	// (Python json.dumps formatting), no boxed values at all.
	encode bool
	enc    []byte
	next   int // cells (relative to c1) already in enc
}

// errStop ends a row walk early without an error.
var errStop = errors.New("stop")

// rows calls fn for every row from first to last (1-based, inclusive) that
// holds cells, with the values of columns c1..c2 (c2 == 0: as far as the
// row goes); fn returns false to end the walk early. It stops reading one
// row after last (checking that row is in order). A sheet whose XML ends
// before </sheetData> is reported as damaged, so a broken file never reads
// as a shorter one; so are rows or cells out of order.
func (b *book) rows(ctx context.Context, sheet string, first, last, c1, c2 int, fn func(row int, vals []any) bool) error {
	return b.walkRows(ctx, sheet, first, last, c1, c2, false, func(row int, rr *rowReader) bool { return fn(row, rr.vals) })
}

// rowsJSON is rows for exact ranges: fn gets each row's cells already
// encoded as JSON array items (count of them in cells), no boxed values.
func (b *book) rowsJSON(ctx context.Context, sheet string, first, last, c1, c2 int, fn func(row int, inner []byte, cells int) bool) error {
	return b.walkRows(ctx, sheet, first, last, c1, c2, true, func(row int, rr *rowReader) bool { return fn(row, rr.enc, rr.next) })
}

// walkRows drives a rowReader over sheet from first to last.
func (b *book) walkRows(ctx context.Context, sheet string, first, last, c1, c2 int, encode bool, fn func(row int, rr *rowReader) bool) error {
	if last < first {
		return nil
	}
	zf, err := b.part(sheet)
	if err != nil || zf == nil {
		return err
	}
	sst, err := b.sharedStrings()
	if err != nil {
		return err
	}
	ds, err := b.dateStyles()
	if err != nil {
		return err
	}
	rc, err := zf.Open()
	if err != nil {
		return newError(KindDamaged, "file is damaged: "+err.Error(), err)
	}
	defer rc.Close()
	rr := &rowReader{br: bufio.NewReaderSize(rc, scanBufferSize), sst: sst, c1: c1, c2: c2, encode: encode,
		maxText: int(b.svc.limits.MaxCellTextBytes), sheet: sheet}
	if ds != nil && ds.isDate != nil {
		rr.dates = ds
	}
	n := 0
	err = rr.walk(func(row int, vals []any) error {
		if n++; n%streamCheckEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if row >= last {
			// Stop at the next row start, once its order is checked.
			rr.stopAtRow = true
		}
		if row >= first && row <= last && (len(vals) > 0 || rr.next > 0) {
			if !fn(row, rr) {
				rr.stopAtRow = true
			}
		}
		return nil
	})
	switch {
	case errors.Is(err, errStop):
		return nil
	case err != nil:
		return err
	case !rr.closed:
		return newError(KindDamaged, fmt.Sprintf("file is damaged: the XML of sheet %q is truncated after row %d", sheet, rr.row), nil)
	}
	return ctx.Err()
}

// walk scans the sheet and calls emit at the end of every row.
func (rr *rowReader) walk(emit func(row int, vals []any) error) error {
	for {
		text, err := rr.br.ReadSlice('<')
		if rr.inText {
			rr.text = append(rr.text, bytes.TrimSuffix(text, []byte("<"))...)
			if err := rr.checkText(); err != nil {
				return err
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return newError(KindDamaged, "file is damaged: "+err.Error(), err)
		}
		tag, err := rr.br.ReadSlice('>')
		if err != nil {
			if errors.Is(err, bufio.ErrBufferFull) {
				for errors.Is(err, bufio.ErrBufferFull) {
					_, err = rr.br.ReadSlice('>')
				}
				continue
			}
			return nil // truncated inside a tag: rr.closed stays false
		}
		if len(tag) < 2 || !validTagStart(tag[0]) {
			return newError(KindDamaged, fmt.Sprintf("file is damaged: malformed XML in row %d", rr.row), nil)
		}
		name, attrs := rowTag(tag)
		switch name {
		case "row":
			n := attrInt(attrs, "r")
			if n <= 0 {
				n = rr.row + 1
			}
			if n > maxSheetRows {
				return newError(KindDamaged, fmt.Sprintf("file is damaged: row number %d is past Excel's last row", n), nil)
			}
			if err := rr.checkRowOrder(n); err != nil {
				return err
			}
			if rr.stopAtRow {
				return errStop
			}
			rr.row, rr.col, rr.vals, rr.enc, rr.next = n, 0, nil, rr.enc[:0], 0
			if bytes.HasSuffix(attrs, []byte("/")) {
				if err := emit(rr.row, nil); err != nil {
					return err
				}
			}
		case "/row":
			if err := emit(rr.row, rr.vals); err != nil {
				return err
			}
			rr.vals, rr.next = nil, 0
		case "c":
			col := 0
			if ref := attrValue(attrs, "r"); ref != nil {
				col = columnOfRef(ref)
			}
			if col <= 0 {
				col = rr.col + 1
			}
			if err := rr.checkCellOrder(col); err != nil {
				return err
			}
			rr.col, rr.typ, rr.text, rr.inCell = col, attrValue(attrs, "t"), rr.text[:0], true
			rr.date = rr.dates != nil && rr.dates.isDateStyle(attrs)
			if bytes.HasSuffix(attrs, []byte("/")) {
				rr.inCell = false
			}
		case "v", "t":
			if rr.inCell {
				rr.inText = !bytes.HasSuffix(attrs, []byte("/"))
			}
		case "/v", "/t":
			rr.inText = false
		case "/c":
			if err := rr.endCell(); err != nil {
				return err
			}
			rr.inCell = false
		case "/sheetData":
			rr.closed = true
			return nil
		case "sheetData":
			if bytes.HasSuffix(attrs, []byte("/")) {
				rr.closed = true
				return nil
			}
		}
	}
}

// maxSheetRows is Excel's last row number.
const maxSheetRows = 1 << 20

// validTagStart reports whether b can start a tag: a name, '/', '?' or '!'.
func validTagStart(b byte) bool {
	return b == '/' || b == '?' || b == '!' || b == '_' || b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z'
}

// rowTag is splitTag for the names rowReader needs.
func rowTag(tag []byte) (string, []byte) {
	tag = bytes.TrimSuffix(tag, []byte(">"))
	closing := len(tag) > 0 && tag[0] == '/'
	body := tag
	if closing {
		body = tag[1:]
	}
	end := bytes.IndexAny(body, " \t\r\n/")
	if end < 0 {
		end = len(body)
	}
	name := body[:end]
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	var s string
	switch string(name) {
	case "row", "c", "v", "t", "sheetData":
		s = string(name)
	default:
		return "", nil
	}
	if closing {
		return "/" + s, nil
	}
	return s, body[end:]
}

// endCell converts the finished cell's text by its type and stores it.
func (rr *rowReader) endCell() error {
	col := rr.col
	if col < rr.c1 || (rr.c2 > 0 && col > rr.c2) || len(rr.text) == 0 && string(rr.typ) != "inlineStr" {
		return nil
	}
	text := rr.text
	if bytes.IndexByte(text, '&') >= 0 {
		text = []byte(html.UnescapeString(string(text)))
	}
	if rr.encode {
		return rr.encodeCell(col-rr.c1, text)
	}
	var v any
	switch string(rr.typ) {
	case "s":
		i, err := strconv.Atoi(string(text))
		if err != nil || i < 0 || i >= len(rr.sst) {
			return newError(KindDamaged, fmt.Sprintf("file is damaged: cell %s points to shared string %q that does not exist", cellName(col, rr.row), text), nil)
		}
		v = rr.sst[i]
	case "inlineStr", "str", "e", "d":
		v = string(text)
	case "b":
		v = string(text) == "1" || string(text) == "true"
	default:
		if iso, ok := rr.dateValue(text); ok {
			v = iso
		} else {
			v = numberValue(text)
		}
	}
	idx := col - rr.c1
	if rr.vals == nil && rr.c2 > 0 {
		rr.vals = make([]any, 0, rr.c2-rr.c1+1)
	}
	for len(rr.vals) <= idx {
		rr.vals = append(rr.vals, nil)
	}
	rr.vals[idx] = v
	return nil
}

// numberValue parses a numeric cell like openpyxl: int unless it has a
// '.' or an exponent; text that is not a number stays text.
func numberValue(text []byte) any {
	s := string(text)
	if bytes.ContainsAny(text, ".eE") {
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f
		}
		return string(text)
	}
	if i, err := strconv.ParseInt(s, 10, 64); err == nil {
		return i
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		return f
	}
	return string(text)
}

// encodeCell appends the cell at index idx (relative to c1) to the row's
// JSON, with nulls for skipped columns.
func (rr *rowReader) encodeCell(idx int, text []byte) error {
	if idx < rr.next {
		return nil // a repeated column: the first one wins
	}
	for ; rr.next < idx; rr.next++ {
		rr.enc = appendItem(rr.enc, rr.next, "null")
	}
	if rr.next > 0 {
		rr.enc = append(rr.enc, ", "...)
	}
	rr.next++
	switch string(rr.typ) {
	case "s":
		i, err := strconv.Atoi(string(text))
		if err != nil || i < 0 || i >= len(rr.sst) {
			return newError(KindDamaged, fmt.Sprintf("file is damaged: cell %s points to shared string %q that does not exist", cellName(rr.col, rr.row), text), nil)
		}
		rr.enc = errorsjson.AppendString(rr.enc, rr.sst[i])
	case "inlineStr", "str", "e", "d":
		rr.enc = errorsjson.AppendString(rr.enc, string(text))
	case "b":
		rr.enc = strconv.AppendBool(rr.enc, string(text) == "1" || string(text) == "true")
	default:
		if rr.appendDate(text) {
			return nil
		}
		s := string(text)
		if !bytes.ContainsAny(text, ".eE") {
			if i, err := strconv.ParseInt(s, 10, 64); err == nil {
				rr.enc = strconv.AppendInt(rr.enc, i, 10)
				return nil
			}
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			rr.enc = errorsjson.AppendFloat(rr.enc, f)
			return nil
		}
		rr.enc = errorsjson.AppendString(rr.enc, s)
	}
	return nil
}

// appendItem appends a literal array item, with its separator.
func appendItem(buf []byte, i int, lit string) []byte {
	if i > 0 {
		buf = append(buf, ", "...)
	}
	return append(buf, lit...)
}

// rowArena stores encoded rows in large chunks, so a big read costs one
// allocation per megabyte instead of one per row.
type rowArena struct{ cur []byte }

// arenaChunk is the size of one rowArena chunk.
const arenaChunk = 1 << 20

// add copies a row (wrapped as a JSON array, padded with nulls up to
// width) into the arena and returns it.
func (a *rowArena) add(inner []byte, cells, width int) json.RawMessage {
	need := len(inner) + 2 + (width-cells)*6
	if cap(a.cur)-len(a.cur) < need {
		a.cur = make([]byte, 0, max(arenaChunk, need))
	}
	start := len(a.cur)
	a.cur = append(a.cur, '[')
	a.cur = append(a.cur, inner...)
	for i := cells; i < width; i++ {
		a.cur = appendItem(a.cur, i, "null")
	}
	a.cur = append(a.cur, ']')
	return json.RawMessage(a.cur[start:len(a.cur):len(a.cur)])
}
