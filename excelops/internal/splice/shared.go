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

// checkPlainRow checks the shared string cells of raw, the bytes of a
// plain row (sheetxml.PlainRow: no comments, CDATA or formulas, every
// cell with an r attribute) after its start tag. ok is false when a cell
// cannot be read off the bytes (the caller tokenizes the row).
func (r *sharedRefs) checkPlainRow(row int, raw []byte) (bool, error) {
	if r.count == nil {
		return true, nil
	}
	for i := 0; ; {
		j := bytes.Index(raw[i:], []byte("<c"))
		if j < 0 {
			return true, nil
		}
		start := i + j
		i = start + 2
		if i >= len(raw) || !isDelim(raw[i]) {
			continue // <col..., <cfRule...: not a cell
		}
		end := bytes.IndexByte(raw[i:], '>')
		if end < 0 {
			return false, nil
		}
		tag := raw[i : i+end]
		if string(sheetxml.AttrValue(tag, "t")) != "s" {
			continue
		}
		col, _ := sheetxml.SplitRef(sheetxml.AttrValue(tag, "r"))
		if col <= 0 {
			return false, nil
		}
		stop := bytes.Index(raw[i:], []byte("</c>"))
		if tag[len(tag)-1] == '/' {
			continue
		}
		if stop < 0 {
			return false, nil
		}
		ok, err := r.checkElement(row, col, raw[start:i+stop])
		if !ok || err != nil {
			return ok, err
		}
	}
}

// isDelim reports whether b ends an element name.
func isDelim(b byte) bool {
	return b == ' ' || b == '>' || b == '/' || b == '\t' || b == '\n' || b == '\r'
}
