package xmlappend

import (
	"bytes"
	"errors"
	"io"

	"github.com/registry-sidecar/registry-sidecar/excelops/internal/sheetxml"
)

// span is a run of a document's bytes, [from, to).
type span struct{ from, to int }

// node is one element of a parsed part: the root or one of its children.
type node struct {
	name     string // local name
	whole    span   // the element, start tag to end tag
	start    span   // its start tag (the whole element when empty)
	empty    bool   // written as <name/>
	close    int    // where its end tag starts (children go before it)
	children []node // child elements (the root's, and theirs one level down)
}

// document is a part split into its root, the root's children and theirs.
type document struct {
	raw  []byte
	root node
}

// bytesOf returns the bytes of s.
func (d *document) bytesOf(s span) []byte { return d.raw[s.from:s.to] }

// errShape reports a part that is not one well-formed root element.
var errShape = errors.New("xmlappend: not a single root element")

// parse splits raw into its root element and two levels of children.
func parse(raw []byte) (*document, error) {
	d := &document{raw: raw}
	z := sheetxml.New(bytes.NewReader(raw))
	var stack []*node
	off := 0
	seenRoot := false
	for {
		t, err := z.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		from := off
		off += len(t.Raw)
		switch t.Kind {
		case sheetxml.Start, sheetxml.Empty:
			n := node{name: string(t.Name), start: span{from, off}, empty: t.Kind == sheetxml.Empty}
			if n.empty {
				n.whole, n.close = n.start, from
			}
			switch {
			case len(stack) == 0:
				if seenRoot {
					return nil, errShape
				}
				seenRoot = true
				d.root = n
				if n.empty {
					continue
				}
				stack = append(stack, &d.root)
				continue
			case len(stack) <= 2:
				parent := stack[len(stack)-1]
				parent.children = append(parent.children, n)
				if !n.empty {
					stack = append(stack, &parent.children[len(parent.children)-1])
				}
				continue
			}
			if !n.empty {
				stack = append(stack, nil) // deeper: only counted
			}
		case sheetxml.End:
			if len(stack) == 0 {
				return nil, errShape
			}
			if n := stack[len(stack)-1]; n != nil {
				if n.name != string(t.Name) {
					return nil, errShape
				}
				n.close = from
				n.whole = span{n.start.from, off}
			}
			stack = stack[:len(stack)-1]
		case sheetxml.Text:
			if len(stack) == 0 && len(bytes.TrimSpace(t.Raw)) > 0 {
				return nil, errShape
			}
		}
	}
	if !seenRoot || len(stack) != 0 {
		return nil, errShape
	}
	return d, nil
}
