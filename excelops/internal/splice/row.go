package splice

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// rebuildRow reads row n (its start tag is t) and writes it again with the
// planned cells rebuilt, in column order, every other cell byte for byte.
func (s *sheet) rebuildRow(n int, t sheetxml.Token) error {
	tag := rowStartTag(t.Raw, t.Kind == sheetxml.Empty)
	inherit := -1 // row style when the row has a custom format
	if cf := t.Attr("customFormat"); string(cf) == "1" || string(cf) == "true" {
		inherit = sheetxml.AttrInt(t.Attrs(), "s")
	}
	var cells []OldCell
	var trailing []byte // other children (extLst), kept after the cells
	if t.Kind == sheetxml.Start {
		var err error
		if cells, trailing, err = s.readCells(n); err != nil {
			return err
		}
	}
	if err := s.emit(tag); err != nil {
		return err
	}
	cols := s.plan.Cols(n)
	i, j := 0, 0
	var err error
	if s.plan.NoFormulas {
		for _, c := range cells {
			if c.Formula {
				return ErrFormulas
			}
		}
	}
	for i := range cells {
		if string(cells[i].Type) == "s" {
			if _, err := s.refs.checkElement(n, cells[i].Col, cells[i].Raw); err != nil {
				return err
			}
		}
	}
	for i < len(cells) || j < len(cols) {
		switch {
		case j == len(cols) || i < len(cells) && cells[i].Col < cols[j]:
			c := &cells[i]
			s.out = ensureRef(s.out, c.Raw, c.Col, n)
			s.ext.widen(n, c.Col)
			i++
		case i == len(cells) || cols[j] < cells[i].Col:
			st := inherit
			if st < 0 {
				st = s.colStyle(cols[j])
			}
			if s.out, err = s.cell(n, cols[j], nil, st); err != nil {
				return err
			}
			j++
		default:
			c := &cells[i]
			if c.SharedMaster {
				return unsupported("a written cell defines a shared formula", "cell %s", Ref(c.Col, n))
			}
			if s.out, err = s.cell(n, c.Col, c, c.Style); err != nil {
				return err
			}
			i++
			j++
		}
	}
	s.out = append(s.out, trailing...)
	s.out = append(append(append(s.out, "</"...), s.pfx...), "row>"...)
	if len(s.out) >= flushAt {
		return s.flush()
	}
	return nil
}

// readCells collects the cells of a row up to its </row>, sorted by
// column (a source with repeated or unordered cells is refused).
func (s *sheet) readCells(n int) ([]OldCell, []byte, error) {
	var (
		cells    []OldCell
		trailing []byte
		cur      *OldCell
		col      int
		depth    int // inside a non-cell child
	)
	for {
		t, err := s.token()
		if errors.Is(err, io.EOF) {
			return nil, nil, fmt.Errorf("%w: the XML ends inside row %d", ErrDamaged, n)
		}
		if err != nil {
			return nil, nil, err
		}
		if cur != nil {
			cur.Raw = append(cur.Raw, t.Raw...)
			if s.plan.MaxCellText > 0 && int64(len(cur.Raw)) > s.plan.MaxCellText {
				return nil, nil, &CellTextError{Row: n, Col: cur.Col}
			}
			if (t.Kind == sheetxml.Start || t.Kind == sheetxml.Empty) && string(t.Name) == "f" {
				cur.Formula = true
				if string(t.Attr("t")) == "shared" && t.Attr("ref") != nil {
					cur.SharedMaster = true
				}
			}
			if t.Is(sheetxml.End, "c") {
				cur = nil
			}
			continue
		}
		switch {
		case depth == 0 && (t.Is(sheetxml.Start, "c") || t.Is(sheetxml.Empty, "c")):
			c, _ := sheetxml.SplitRef(t.Attr("r"))
			if c <= 0 {
				c = col + 1
			}
			if c <= col {
				return nil, nil, unsupported("cells out of order in a row", "row %d", n)
			}
			col = c
			cells = append(cells, OldCell{
				Raw: bytes.Clone(t.Raw), Col: c, Style: sheetxml.AttrInt(t.Attrs(), "s"),
				Type: bytes.Clone(t.Attr("t")),
			})
			if t.Kind == sheetxml.Start {
				cur = &cells[len(cells)-1]
			}
		case depth == 0 && t.Is(sheetxml.End, "row"):
			return cells, trailing, nil
		case t.Kind == sheetxml.Text && depth == 0:
			// white space between cells: dropped
		default:
			trailing = append(trailing, t.Raw...)
			if t.Kind == sheetxml.Start {
				depth++
			} else if t.Kind == sheetxml.End {
				depth--
			}
		}
	}
}

// rowStartTag returns the start tag of a rebuilt row: the original without
// its spans hint (the cells may now reach further) and opened when it was
// empty.
func rowStartTag(raw []byte, empty bool) []byte {
	tag := bytes.Clone(raw)
	if empty {
		tag = append(bytes.TrimRight(tag[:len(tag)-2], " \t\r\n"), '>')
	}
	return removeAttr(tag, "spans")
}

// removeAttr removes attribute key from a start tag.
func removeAttr(tag []byte, key string) []byte {
	for i := 0; i+len(key)+2 < len(tag); i++ {
		if (tag[i] == ' ' || tag[i] == '\t' || tag[i] == '\n' || tag[i] == '\r') &&
			bytes.HasPrefix(tag[i+1:], []byte(key)) {
			j := i + 1 + len(key)
			for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t') {
				j++
			}
			if j >= len(tag) || tag[j] != '=' {
				continue
			}
			j++
			for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t') {
				j++
			}
			if j >= len(tag) || (tag[j] != '"' && tag[j] != '\'') {
				return tag
			}
			end := bytes.IndexByte(tag[j+1:], tag[j])
			if end < 0 {
				return tag
			}
			return append(tag[:i], tag[j+1+end+1:]...)
		}
	}
	return tag
}

// ensureRef appends a kept cell, adding an r attribute when it had none
// (its position must not depend on the cells before it any more).
func ensureRef(dst, raw []byte, col, row int) []byte {
	nameEnd := bytes.IndexAny(raw, " \t\r\n/>")
	if nameEnd < 0 {
		return append(dst, raw...)
	}
	if tagEnd := bytes.IndexByte(raw, '>'); sheetxml.AttrValue(raw[nameEnd:tagEnd], "r") != nil {
		return append(dst, raw...)
	}
	dst = append(dst, raw[:nameEnd]...)
	dst = append(dst, ` r="`...)
	dst = AppendRef(dst, col, row)
	dst = append(dst, '"')
	return append(dst, raw[nameEnd:]...)
}

// SetStyle appends the cell raw with its s attribute set to style (removed
// when style is 0), keeping everything else.
func SetStyle(dst, raw []byte, style int) []byte {
	tagEnd := bytes.IndexByte(raw, '>')
	if tagEnd < 0 {
		return append(dst, raw...)
	}
	end := tagEnd
	if raw[end-1] == '/' {
		end--
	}
	tag := removeAttr(bytes.Clone(raw[:end]), "s")
	dst = append(dst, tag...)
	if style != 0 {
		dst = append(dst, ` s="`...)
		dst = appendInt(dst, style)
		dst = append(dst, '"')
	}
	return append(dst, raw[end:]...)
}
