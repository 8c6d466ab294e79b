package splice

import (
	"bytes"
	"strconv"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// SharedRefError reports a cell of type "s" whose value is not the index
// of a string of the shared string table (Plan.SharedStrings).
type SharedRefError struct {
	Row, Col int
	// Value is the cell's value text, entities decoded.
	Value []byte
}

// Error names the cell and the index it holds.
func (e *SharedRefError) Error() string {
	return "cell " + Ref(e.Col, e.Row) + " points to shared string " + strconv.Quote(string(e.Value)) + " that does not exist"
}

// sharedRefs checks the shared string cells of a sheet as the rewrite
// passes them: the table's size is asked once, at the first one.
type sharedRefs struct {
	count func() (int, error) // nil: no check
	n     int
	known bool
	// The state of token: in a cell of type "s", in its <v>, the text so far.
	inShared, inV bool
	value         []byte
}

// token follows the tokens of a row that is tokenized but not rebuilt
// (col is the column of the current cell, known once its start tag is
// passed) and checks each shared string cell at the end of its <v>.
func (r *sharedRefs) token(t sheetxml.Token, row, col int) error {
	switch {
	case r.count == nil:
	case t.Kind == sheetxml.Text && r.inV:
		r.value = append(r.value, t.Raw...)
	case t.Kind == sheetxml.Start && string(t.Name) == "c":
		r.inShared = string(t.Attr("t")) == "s"
	case t.Kind == sheetxml.Start && string(t.Name) == "v" && r.inShared:
		r.inV, r.value = true, r.value[:0]
	case t.Is(sheetxml.End, "v") && r.inV:
		r.inV = false
		return r.check(row, col, r.value)
	}
	return nil
}

// check fails with a *SharedRefError when value (the raw text of the
// <v> of the shared string cell at col, row) is not an index below the
// table's size.
func (r *sharedRefs) check(row, col int, value []byte) error {
	if r.count == nil || len(value) == 0 {
		return nil
	}
	if !r.known {
		n, err := r.count()
		if err != nil {
			return err
		}
		r.n, r.known = n, true
	}
	text := sheetxml.Unescape(value)
	if i, err := strconv.Atoi(string(text)); err != nil || i < 0 || i >= r.n {
		return &SharedRefError{Row: row, Col: col, Value: text}
	}
	return nil
}

// checkElement checks a whole cell element raw (from <c to its end) of
// type "s", as rebuilt rows hold their cells. ok is false when its value
// cannot be read off the bytes (the caller tokenizes).
func (r *sharedRefs) checkElement(row, col int, raw []byte) (bool, error) {
	end := bytes.IndexByte(raw, '>')
	if end < 0 {
		return false, nil
	}
	if raw[end-1] == '/' {
		return true, nil // <c .../>: no value
	}
	body := raw[end+1:]
	vs := bytes.Index(body, []byte("<v>"))
	if vs < 0 {
		return !bytes.Contains(body, []byte("<v")), nil
	}
	ve := bytes.Index(body[vs:], []byte("</v>"))
	if ve < 0 {
		return false, nil
	}
	return true, r.check(row, col, body[vs+3:vs+ve])
}

// sharedAttr is how a cell of type "s" says it, as every writer known
// writes it; a row spelling it otherwise (t='s') is tokenized.
var (
	sharedAttr       = []byte(`t="s"`)
	sharedAttrSingle = []byte(`t='s'`)
)

// checkPlainRow checks the shared string cells of raw, the bytes of a
// plain row (sheetxml.PlainRow: no comments, CDATA or formulas, every
// cell with an r attribute) after its start tag. It visits only the
// places that say t="s", so a row without shared strings costs one
// vectorised search. ok is false when a cell cannot be read off the bytes
// (the caller tokenizes the row).
func (r *sharedRefs) checkPlainRow(row int, raw []byte) (bool, error) {
	if r.count == nil {
		return true, nil
	}
	if bytes.Contains(raw, sharedAttrSingle) {
		return false, nil
	}
	for i := 0; ; {
		j := bytes.Index(raw[i:], sharedAttr)
		if j < 0 {
			return true, nil
		}
		at := i + j
		i = at + len(sharedAttr)
		start := bytes.LastIndexByte(raw[:at], '<')
		if start < 0 || bytes.IndexByte(raw[start:at], '>') >= 0 {
			continue // in text, not in a tag
		}
		if start+2 >= len(raw) || raw[start+1] != 'c' || !isDelim(raw[start+2]) || !isSpace(raw[at-1]) {
			continue // another element's attribute, or an attribute ending in t
		}
		end := bytes.IndexByte(raw[start:], '>')
		if end < 0 {
			return false, nil
		}
		tag := raw[start+2 : start+end]
		col, _ := sheetxml.SplitRef(sheetxml.AttrValue(tag, "r"))
		if col <= 0 {
			return false, nil
		}
		if tag[len(tag)-1] == '/' {
			continue // <c .../>: no value
		}
		stop := bytes.Index(raw[start:], []byte("</c>"))
		if stop < 0 {
			return false, nil
		}
		ok, err := r.checkElement(row, col, raw[start:start+stop])
		if !ok || err != nil {
			return ok, err
		}
	}
}

// isSpace reports whether b is XML white space.
func isSpace(b byte) bool { return b == ' ' || b == '\t' || b == '\n' || b == '\r' }

// isDelim reports whether b ends an element name.
func isDelim(b byte) bool {
	return b == ' ' || b == '>' || b == '/' || b == '\t' || b == '\n' || b == '\r'
}
