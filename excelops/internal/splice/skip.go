package splice

import (
	"bytes"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// maxSkipRow bounds the bytes of one row passed on whole by skipRow; a
// longer row is tokenized.
const maxSkipRow = 1 << 20

// rowEnd is the end tag of a row (rows with a namespace prefix are refused
// at <sheetData>).
var rowEnd = []byte("</row>")

// skipRow passes on the rest of row n (after its start tag) by its bytes,
// without tokenizing it, when that is safe: the row's end is its first
// "</row>", and what the rewrite needs from an untouched row (its used
// columns for <dimension>, no formula when the plan refuses them, no cell
// text past the bound) can be read off the bytes. Anything unusual (a
// comment, CDATA or processing instruction, a prefixed name, a cell
// without a reference, a formula, a row longer than the text bound) makes
// it report false with nothing consumed, and the row is tokenized. The
// error is the body writer's.
//
// Broken XML inside an untouched row whose end is found (a '<' inside an
// attribute value, a stray "<" in text) is passed on as it was, where the
// tokenized path would call the sheet damaged; on well-formed XML the two
// agree (FuzzSkipRow).
//
// The used columns of the row are those of its first and last cells:
// cells are in column order (the format requires it; a rebuilt row checks
// it). Each check is a vectorised byte search over the row, so a row costs
// a few passes over its bytes, not a token per tag.
func (s *sheet) skipRow(n int) (bool, error) {
	if s.plan.tokenizeAll {
		return false, nil
	}
	raw, ok := s.z.PeekThrough(rowEnd, maxSkipRow)
	if !ok || s.plan.MaxCellText > 0 && int64(len(raw)) > s.plan.MaxCellText {
		return false, nil
	}
	if bytes.IndexByte(raw, ':') >= 0 { // a prefixed name, or text that could hide one
		return false, nil
	}
	first, last, plain := scanTags(raw)
	if !plain {
		return false, nil
	}
	if first >= 0 {
		c1, ok1 := cellCol(raw[first:])
		c2, ok2 := cellCol(raw[last:])
		if !ok1 || !ok2 {
			return false, nil
		}
		s.ext.widen(n, c1)
		s.ext.widen(n, c2)
	}
	err := s.emit(raw)
	s.z.Skip(len(raw))
	return true, err
}

// scanTags looks at every '<' of an untouched row's bytes and returns
// where its first and last c tags start (after the '<'; -1 without one).
// plain is false for anything the tokenizer should see: a comment, CDATA
// or processing instruction, a formula, a nested row, or a '<' that
// starts no tag (broken XML the tokenizer reports as damaged).
func scanTags(raw []byte) (first, last int, plain bool) {
	first, last = -1, -1
	for i := 0; ; {
		j := bytes.IndexByte(raw[i:], '<')
		if j < 0 || i+j+2 >= len(raw) {
			return first, last, j < 0
		}
		i += j + 1
		c, next := raw[i], raw[i+1]
		delim := next == ' ' || next == '>' || next == '/' || next == '\t' || next == '\n' || next == '\r'
		switch {
		case c == '/':
		case c == 'c' && delim:
			if first < 0 {
				first = i
			}
			last = i
		case c == 'f' && delim, c == 'r' && next == 'o' && bytes.HasPrefix(raw[i:], []byte("row")):
			return first, last, false
		case c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80:
		default:
			return first, last, false
		}
	}
}

// cellCol returns the column of the cell whose tag starts raw (after its
// '<'), from its r attribute; ok is false without one.
func cellCol(raw []byte) (int, bool) {
	end := bytes.IndexByte(raw, '>')
	if end < 0 {
		return 0, false
	}
	col, row := sheetxml.SplitRef(sheetxml.AttrValue(raw[1:end], "r"))
	return col, col > 0 && row > 0
}
