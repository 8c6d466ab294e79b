package splice

import (
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
	c1, c2, plain := sheetxml.PlainRow(raw)
	if !plain {
		return false, nil
	}
	if ok, err := s.refs.checkPlainRow(n, raw); !ok || err != nil {
		return false, err
	}
	if c1 > 0 {
		s.ext.widen(n, c1)
		s.ext.widen(n, c2)
	}
	err := s.emit(raw)
	s.z.Skip(len(raw))
	return true, err
}
