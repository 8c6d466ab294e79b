package sheetxml

import "bytes"

// PlainRow looks at the bytes of a row after its start tag, through its
// "</row>", and reports whether a reader may pass them over without
// tokenizing them: no formula, comment, CDATA section, processing
// instruction, namespace prefix (or text that could hide one), nested row
// or '<' that starts no tag, and every cell with an r attribute. For such
// a row it returns the columns of its first and last cells (0, 0 without
// cells): cells are in column order, as the format requires. Each check is
// a vectorised byte search, so a row costs a few passes over its bytes,
// not a token per tag.
func PlainRow(raw []byte) (first, last int, ok bool) {
	if bytes.IndexByte(raw, ':') >= 0 {
		return 0, 0, false
	}
	i1, i2, plain := scanTags(raw)
	if !plain {
		return 0, 0, false
	}
	if i1 < 0 {
		return 0, 0, true
	}
	c1, ok1 := cellCol(raw[i1:])
	c2, ok2 := cellCol(raw[i2:])
	if !ok1 || !ok2 {
		return 0, 0, false
	}
	return c1, c2, true
}

// scanTags looks at every '<' of a row's bytes and returns where its first
// and last c tags start (after the '<'; -1 without one). plain is false
// for anything a tokenizer should see: a comment, CDATA or processing
// instruction, a formula, a nested row, or a '<' that starts no tag
// (broken XML the tokenizer reports as damaged).
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
	col, row := SplitRef(AttrValue(raw[1:end], "r"))
	return col, col > 0 && row > 0
}

// rowEnd is the end tag of an unprefixed row.
var rowEnd = []byte("</row>")

// SkipRow passes over the rest of the row whose RowStart Next has just
// returned, by its bytes, when PlainRow allows it and the row ends within
// limit bytes. It returns the columns of the row's first and last cells
// (0, 0 without cells); ok is false, with nothing consumed, for a row
// that must be walked. A skipped row has no RowEnd event.
func (w *Walker) SkipRow(limit int) (first, last int, ok bool) {
	if w.rowEnding || w.inCell {
		return 0, 0, false
	}
	raw, found := w.z.PeekThrough(rowEnd, limit)
	if !found {
		return 0, 0, false
	}
	if first, last, ok = PlainRow(raw); ok {
		w.z.Skip(len(raw))
	}
	return first, last, ok
}
